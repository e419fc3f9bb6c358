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
 * not fail on a GPU. Kernels whose pointers are all device or managed pay one table lookup
 * per pointer parameter and allocate nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

/* Parameters handled on the stack; kernels with more use the heap. */
enum { KP_STACK_PARAMS = 32 };

/* One pinned or registered allocation copied for the launch. */
typedef struct staged {
  kp_alloc_info host;
  void *device;  /* the temporary device copy */
  int copy_back; /* a non-const parameter points into it */
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
    while (g < ngroups && groups[g].host.start != e.start) g++;
    if (g == ngroups) { /* first parameter into this allocation: copy it in */
      groups[g] = (staged){e, NULL, 0, i};
      describe(what, sizeof what, k, i);
      err = be->alloc(e.bytes, &groups[g].device, what);
      if (err) break;
      ngroups++;
      if (e.bytes) err = be->to_device(groups[g].device, e.start, e.bytes, what);
    }
    if (!(p->flags & KP_PARAM_CONST)) groups[g].copy_back = 1;
    values[i] = (char *)groups[g].device + (ptr - (char *)e.start);
    new_args[i] = &values[i];
  }

  if (!err) err = be->launch(k, cfg, new_args);
  if (!err) {
    snprintf(what, sizeof what, "launch(%s, ...): waiting for the kernel to copy its "
             "arguments back", k->name);
    err = be->stream_synchronize(cfg->stream, what);
  }
  for (size_t g = 0; g < ngroups && !err; g++)
    if (groups[g].copy_back && groups[g].host.bytes)
      err = be->to_host(groups[g].host.start, groups[g].device, groups[g].host.bytes,
                        describe(what, sizeof what, k, groups[g].param));
  for (size_t g = 0; g < ngroups; g++) {
    kp_error freed = be->release(groups[g].device, describe(what, sizeof what, k,
                                                             groups[g].param));
    if (!err) err = freed;
  }
  if (n > KP_STACK_PARAMS) free(new_args), free(values), free(groups);
  return err;
}

kp_error kp_launch_with_transfers(const kp_backend *be, kp_kernel_desc *k,
                                  const kp_launch_config *cfg, void **args) {
  int staging = 0;
  for (uint64_t i = 0; i < k->num_params; i++) {
    if (k->params[i].kind != KP_PARAM_POINTER) continue;
    const void *p = *(void *const *)args[i];
    if (!p) continue;
    kp_alloc_info e;
    if (kp_alloc_table_lookup(p, &e)) {
      staging |= e.kind == KP_MEMORY_PINNED || e.kind == KP_MEMORY_REGISTERED;
      continue;
    }
    /* Device memory other CUDA code allocated is device memory all the same. */
    if (be->is_foreign_device_memory && be->is_foreign_device_memory(p)) continue;
    return unknown_pointer(k, i, p);
  }
  if (!staging) return be->launch(k, cfg, args);
  return launch_staged(be, k, cfg, args);
}
