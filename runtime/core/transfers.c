/* transfers.c — automatic transfers around launch(): the seeds' implicit copies, with rules
 * a C program can rely on (docs/memory.md, "Automatic transfers").
 *
 * For each pointer parameter (the plugin's descriptors say which parameters are pointers and
 * which point to const) the argument's allocation decides:
 *   NULL                        passed as is;
 *   device or managed memory    passed as is (a pointer into it too);
 *   pinned or registered host   the whole allocation is copied into a temporary device array
 *                               before the launch, the kernel gets the matching pointer into
 *                               it, and after the kernel it is copied back — unless every
 *                               parameter that points into it is a pointer to const;
 *   anything else               an error naming the kernel, the parameter and the fixes: the
 *                               runtime cannot know how many bytes a plain host pointer covers.
 * Two parameters pointing into one allocation share one temporary, so in-place kernels and
 * overlapping views behave as on the host. A launch with copies waits for its kernel (the
 * copy back needs the result), as Numba's does; others stay asynchronous. The rule is the
 * same on both backends (the CPU backend copies too), so a program that runs on the CPU does
 * not fail on a GPU. Kernels whose pointers are all device or managed allocate nothing and
 * pay one table lookup per pointer parameter (a thread-local cache hit), or, launched again
 * with the same pointers while the table is unchanged, a comparison of the pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_table.h"
#include "core/error.h"
#include "core/launch.h"
#include "core/memory.h"
#include "core/registry.h"
#include "core/staging.h"

/* Parameters handled on the stack; kernels with more use the heap. */
enum { KP_STACK_PARAMS = 32 };

/* One pinned or registered allocation copied for the launch. */
typedef struct staged {
  kp_staging s;   /* user: the allocation's start; is_output: a non-const parameter points in */
  uint64_t param; /* the first parameter pointing into it, for messages */
} staged;

static const char *param_name(const kp_param_desc *p) {
  return p->name && p->name[0] ? p->name : "?";
}

static kp_error unknown_pointer(const kp_kernel_desc *k, uint64_t i, const void *p) {
  const char *name = param_name(&k->params[i]);
  if (kp_memory_was_freed(p))
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "launch(%s, ...): parameter '%s' is %p, an array that was freed", k->name,
                   name, p);
  return kp_fail(KP_ERROR_INVALID_VALUE,
                 "launch(%s, ...): parameter '%s' is %p, a host pointer kernplug cannot size, "
                 "so it cannot copy it to the device. Pass (1) a device array: "
                 "to_device(%s, n) or device_array(T, n), and copy_to_host afterwards; "
                 "(2) a managed array: managed_array(T, n), usable on host and device; or "
                 "(3) host memory kernplug knows, which launch copies to the device and back: "
                 "pinned_array(T, n), or kp_register(%s, bytes) on existing memory",
                 k->name, name, p, name, name);
}

/* "launch(k, ...): parameter 'x'" */
static const char *describe(char *buf, size_t size, const kp_kernel_desc *k, uint64_t i) {
  snprintf(buf, size, "launch(%s, ...): parameter '%s'", k->name, param_name(&k->params[i]));
  return buf;
}

/* Copies the pinned and registered arguments in, launches, waits, copies back. */
static kp_error launch_staged(const kp_backend *be, kp_kernel_desc *k, const kp_launch_config *cfg,
                              void **args) {
  uint64_t n = k->num_params;
  void *stack_args[KP_STACK_PARAMS], *stack_values[KP_STACK_PARAMS];
  staged stack_groups[KP_STACK_PARAMS];
  void **new_args = stack_args, **values = stack_values;
  staged *groups = stack_groups;
  if (n > KP_STACK_PARAMS) {
    new_args = malloc(n * sizeof *new_args);
    values = malloc(n * sizeof *values);
    groups = malloc(n * sizeof *groups);
    if (!new_args || !values || !groups) {
      free(new_args), free(values), free(groups);
      return kp_fail(KP_ERROR_OUT_OF_MEMORY, "launch(%s, ...): out of host memory", k->name);
    }
  }
  memcpy(new_args, args, n * sizeof *new_args);
  size_t ngroups = 0;
  char what[256];
  kp_error err = KP_SUCCESS;

  for (uint64_t i = 0; i < n && !err; i++) {
    const kp_param_desc *p = &k->params[i];
    if (p->kind != KP_PARAM_POINTER) continue;
    char *ptr = *(char **)args[i];
    kp_alloc_info e;
    if (!ptr || !kp_alloc_table_lookup(ptr, &e) ||
        (e.kind != KP_MEMORY_PINNED && e.kind != KP_MEMORY_REGISTERED))
      continue;
    size_t g = 0;
    while (g < ngroups && groups[g].s.user != e.start) g++;
    if (g == ngroups) { /* first parameter into this allocation: copy it in */
      groups[g].param = i;
      /* copy in; back only if a non-const parameter points in (below); on the CPU too */
      err = kp_stage(be, &groups[g].s, e.start, e.bytes, 1, 0, 1,
                     describe(what, sizeof what, k, i));
      ngroups++;
      if (err) break;
    }
    if (!(p->flags & KP_PARAM_CONST)) groups[g].s.is_output = 1;
    values[i] = (char *)groups[g].s.device + (ptr - (char *)e.start);
    new_args[i] = &values[i];
  }

  if (!err) err = be->launch_impl(k, cfg, new_args);
  if (!err) {
    snprintf(what, sizeof what, "launch(%s, ...): waiting for the kernel to copy its "
             "arguments back", k->name);
    err = be->stream_synchronize(cfg->stream, what);
  }
  for (size_t g = 0; g < ngroups; g++) {
    if (err) groups[g].s.is_output = 0; /* after an error: release only */
    kp_error done =
        kp_unstage(be, &groups[g].s, describe(what, sizeof what, k, groups[g].param));
    if (!err) err = done;
  }
  if (n > KP_STACK_PARAMS) free(new_args), free(values), free(groups);
  return err;
}

/* The pointer arguments of this thread's last launch of a few kernels that needed no copies,
 * and the table generation they were checked in: the same kernel launched with the same
 * pointers while the table is unchanged needs no lookups (a loop launching kernels on the same
 * arrays). Launches with foreign device memory are not remembered (other code may free it),
 * nor kernels with more than KP_MEMO_POINTERS pointer parameters. An entry also holds only
 * while no module has been unregistered (the registry's generation): a library loaded after
 * one was dlclose()d may put another kernel at the same address. */
enum { KP_MEMO_KERNELS = 8, KP_MEMO_POINTERS = 16 };
typedef struct launch_memo {
  const kp_kernel_desc *kernel;
  unsigned long long generation, modules;
  unsigned nptrs;
  const void *ptrs[KP_MEMO_POINTERS];
} launch_memo;
static _Thread_local launch_memo tls_memo[KP_MEMO_KERNELS];

static launch_memo *memo_of(const kp_kernel_desc *k) {
  return &tls_memo[kp_hash_ptr(k) % KP_MEMO_KERNELS];
}

static int same_pointers(const launch_memo *m, const kp_kernel_desc *k, void **args) {
  unsigned j = 0;
  for (uint64_t i = 0; i < k->num_params; i++)
    if (k->params[i].kind == KP_PARAM_POINTER &&
        (j == m->nptrs || m->ptrs[j++] != *(void *const *)args[i]))
      return 0;
  return j == m->nptrs;
}

kp_error kp_launch_with_transfers(const kp_backend *be, kp_kernel_desc *k,
                                  const kp_launch_config *cfg, void **args) {
  const unsigned long long generation = kp_alloc_table_generation();
  const unsigned long long modules = kp_registry_generation();
  launch_memo *m = memo_of(k);
  if (m->kernel == k && m->generation == generation && m->modules == modules &&
      same_pointers(m, k, args))
    return be->launch_impl(k, cfg, args);
  int staging = 0, foreign = 0;
  unsigned nptrs = 0;
  const void *ptrs[KP_MEMO_POINTERS];
  for (uint64_t i = 0; i < k->num_params; i++) {
    if (k->params[i].kind != KP_PARAM_POINTER) continue;
    const void *p = *(void *const *)args[i];
    if (nptrs < KP_MEMO_POINTERS) ptrs[nptrs] = p;
    nptrs++;
    if (!p) continue;
    kp_alloc_info e;
    if (kp_alloc_table_lookup(p, &e)) {
      staging |= e.kind == KP_MEMORY_PINNED || e.kind == KP_MEMORY_REGISTERED;
      continue;
    }
    /* Device memory other CUDA code allocated is device memory all the same. */
    if (be->is_foreign_device_memory && be->is_foreign_device_memory(p)) {
      foreign = 1;
      continue;
    }
    char what[256];
    if (kp_check_reachable(be, describe(what, sizeof what, k, i), p))
      return KP_ERROR_INVALID_VALUE;
    return unknown_pointer(k, i, p);
  }
  if (staging) return launch_staged(be, k, cfg, args);
  if (!foreign && nptrs <= KP_MEMO_POINTERS) {
    m->kernel = k, m->generation = generation, m->modules = modules, m->nptrs = nptrs;
    memcpy(m->ptrs, ptrs, nptrs * sizeof *ptrs);
  }
  return be->launch_impl(k, cfg, args);
}
