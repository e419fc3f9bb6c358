/* cpu_check.c — KP_CHECK: the CPU backend's checked mode, its answer to compute-sanitizer.
 *
 * A program compiled with -fplugin-arg-kernplug-check carries, beside each kernel's normal
 * CPU entries, a checked per-thread entry (plugin/cpu/CheckedAccess.cpp) that checks each
 * access through a pointer parameter against the launch's bounds (args[n], after the
 * arguments; __kp_check_param only reports a failure) and calls __kp_check_shared /
 * __kp_check_dynamic_shared before each access to shared memory. Its constructor registers
 * the entries here (__kp_register_checked). With KP_CHECK=bounds (or 1, all) a launch runs the
 * checked entry, one thread after another or as fibers, with the allocation each pointer
 * argument lies in (from the allocation table; an argument that is not a kernplug allocation
 * is not checked);
 * a failed check leaves kernel code as a fault does (cpu_fault.c's guard) and fails the launch
 * naming the kernel, block, thread, parameter, offset and allocation size. KP_CHECK=shuffle
 * runs kernels with warp collectives as fibers and fails a shuffle that reads a lane outside
 * its mask or an inactive one (cpu_block.c asks kp_cpu_check_shuffle_source); it needs no
 * checked build. Without KP_CHECK nothing here runs but one test per launch. */
#include "backend/cpu/cpu_check.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_table.h"

static unsigned g_mode;

int kp_cpu_check_init(char *why, size_t why_size) {
  const char *v = getenv("KP_CHECK");
  g_mode = 0;
  if (!v || !*v || strcmp(v, "0") == 0 || strcmp(v, "off") == 0) return 0;
  if (strcmp(v, "1") == 0 || strcmp(v, "all") == 0 || strcmp(v, "on") == 0) {
    g_mode = KP_CHECK_BOUNDS | KP_CHECK_SHUFFLE;
    return 0;
  }
  unsigned mode = 0;
  const char *p = v;
  while (*p) {
    size_t n = strcspn(p, ",");
    if (n == 6 && strncmp(p, "bounds", n) == 0) mode |= KP_CHECK_BOUNDS;
    else if (n == 7 && strncmp(p, "shuffle", n) == 0) mode |= KP_CHECK_SHUFFLE;
    else {
      snprintf(why, why_size,
               "KP_CHECK=%s: expected 1 (or all), 0, or a comma-separated list of 'bounds' "
               "and 'shuffle'",
               v);
      return -1;
    }
    p += n;
    if (*p == ',') p++;
  }
  g_mode = mode;
  return 0;
}

unsigned kp_cpu_check_mode(void) { return g_mode; }

const char *kp_cpu_check_describe(void) {
  switch (g_mode) {
  case 0: return "off";
  case KP_CHECK_BOUNDS: return "bounds";
  case KP_CHECK_SHUFFLE: return "shuffle";
  default: return "bounds, shuffle";
  }
}

/* ---- the registered checked entries ------------------------------------------------------ */

/* kp_checked_entry, a row of a module's __kp_checked_entries, is in abi/descriptors.def. */

typedef struct checked_table {
  const kp_checked_entry *rows;
  uint64_t count;
} checked_table;

static pthread_mutex_t g_tables_lock = PTHREAD_MUTEX_INITIALIZER;
static checked_table *g_tables;
static size_t g_num_tables, g_cap_tables;

KP_EXPORT void __kp_register_checked(const kp_checked_entry *rows, uint64_t count) {
  pthread_mutex_lock(&g_tables_lock);
  if (g_num_tables == g_cap_tables) {
    size_t cap = g_cap_tables ? 2 * g_cap_tables : 8;
    checked_table *grown = realloc(g_tables, cap * sizeof *grown);
    if (!grown) { /* the kernels then say they were not built checked */
      pthread_mutex_unlock(&g_tables_lock);
      return;
    }
    g_tables = grown, g_cap_tables = cap;
  }
  g_tables[g_num_tables++] = (checked_table){rows, count};
  pthread_mutex_unlock(&g_tables_lock);
}

KP_EXPORT void __kp_unregister_checked(const kp_checked_entry *rows) {
  pthread_mutex_lock(&g_tables_lock);
  for (size_t i = 0; i < g_num_tables; i++)
    if (g_tables[i].rows == rows) {
      g_tables[i] = g_tables[--g_num_tables];
      break;
    }
  pthread_mutex_unlock(&g_tables_lock);
}

static kp_cpu_entry_fn checked_entry_of(const kp_kernel_desc *k) {
  kp_cpu_entry_fn found = NULL;
  pthread_mutex_lock(&g_tables_lock);
  for (size_t i = 0; i < g_num_tables && !found; i++)
    for (uint64_t r = 0; r < g_tables[i].count; r++)
      if (g_tables[i].rows[r].kernel == k) {
        found = g_tables[i].rows[r].entry;
        break;
      }
  pthread_mutex_unlock(&g_tables_lock);
  return found;
}

/* ---- a launch ------------------------------------------------------------------------------ */

kp_error kp_cpu_check_prepare(kp_cpu_check_launch *c, const kp_kernel_desc *k,
                              size_t dynamic_shared, void **args, kp_kernel_desc **run) {
  memset(c, 0, sizeof *c);
  *run = (kp_kernel_desc *)k;
  c->args = args;
  if (!g_mode || (k->flags & (KP_KERNEL_VECTORIZE | KP_KERNEL_GUVECTORIZE | KP_KERNEL_REDUCE)))
    return KP_SUCCESS;
  if (!(g_mode & KP_CHECK_BOUNDS) && !(k->flags & KP_KERNEL_USES_WARP))
    return KP_SUCCESS; /* shuffles only: kernels without them keep their entries */
  c->desc = *k;
  c->original = k;
  /* Every thread through the per-thread entry: the runtime then knows which one runs, and
   * shuffles go through the fiber scheduler, which checks them. */
  c->desc.cpu_block_entry = NULL;
  c->desc.flags &= ~(uint64_t)(KP_KERNEL_CPU_BLOCK_BARRIERS | KP_KERNEL_CPU_BLOCK_WARPS);
  if (g_mode & KP_CHECK_BOUNDS) {
    kp_cpu_entry_fn entry = checked_entry_of(k);
    if (!entry)
      return kp_fail(KP_ERROR_LAUNCH,
                     "KP_CHECK=%s: kernel '%s' (%s:%u) was not built checked; compile it with "
                     "-fplugin-arg-kernplug-check (or unset KP_CHECK)",
                     getenv("KP_CHECK"), k->name, k->file ? k->file : "?", (unsigned)k->line);
    c->desc.cpu_entry = entry;
    c->dynamic_shared = dynamic_shared;
    c->num_params = (unsigned)k->num_params;
    unsigned n = c->num_params;
    c->params = calloc(n ? n : 1, sizeof *c->params);
    c->bounds = calloc(n ? n : 1, sizeof *c->bounds);
    c->own_args = malloc((n + 1) * sizeof *c->own_args);
    if (!c->params || !c->bounds || !c->own_args)
      return kp_fail(KP_ERROR_OUT_OF_MEMORY, "KP_CHECK: out of memory for kernel '%s'",
                     k->name);
    c->args = c->own_args;
    for (unsigned i = 0; i < n; i++) {
      c->args[i] = args[i];
      c->bounds[i][0] = 0, c->bounds[i][1] = UINTPTR_MAX;
      if (k->params[i].kind != KP_PARAM_POINTER) continue;
      void *p = *(void **)args[i];
      kp_alloc_info info;
      c->params[i].arg = (uintptr_t)p;
      if (p && kp_alloc_table_lookup(p, &info)) {
        c->params[i].lo = c->bounds[i][0] = (uintptr_t)info.start;
        c->params[i].hi = c->bounds[i][1] = (uintptr_t)info.start + info.bytes;
      }
    }
    c->args[n] = c->bounds;
  }
  *run = &c->desc;
  return KP_SUCCESS;
}

void kp_cpu_check_finish(kp_cpu_check_launch *c) {
  free(c->params);
  c->params = NULL;
}

/* Read on every check; not initial-exec, as kp_cpu_state (cpu_device.c). */
static _Thread_local const kp_cpu_check_launch *tls_launch;
static _Thread_local char tls_message[768];

void kp_cpu_check_enter(const kp_cpu_check_launch *c) { tls_launch = c; }

const char *kp_cpu_check_message(void) { return tls_message; }

/* Leaves the kernel code as a fault does (cpu_fault.c): back to the block loop, which names
 * the kernel, block and thread before tls_message. */
static KP_NORETURN void fail_check(void) {
  kp_cpu_fault_guard *g = kp_cpu_fault_armed;
  if (!g) kp_fatal("%s", tls_message); /* not in a launch's kernel code: cannot happen */
  kp_cpu_fault_armed = NULL;
  g->signo = KP_CPU_CHECK_FAILED;
  g->addr = NULL;
  g->stack_overflow = 0;
  g->thread_stack_overflow = 0;
  pthread_sigmask(SIG_BLOCK, NULL, &g->mask);
  kp_fiber_fault_escape();
  siglongjmp(g->env, 1);
}

/* " at k.c:12" when the plugin knew the line (-g). */
static const char *at(const char *where, char *buf, size_t size) {
  if (!where) return "";
  snprintf(buf, size, " at %s", where);
  return buf;
}

static const char *access_kind(int flags) { return (flags & 1) ? "write" : "read"; }

/* The reports, out of line: the checks' fast paths stay leaf functions without a frame. */
__attribute__((noinline, cold)) static void param_failed(const kp_cpu_check_launch *c, int param,
                                                         uintptr_t a, uint64_t bytes, int flags,
                                                         const char *where) {
  const kp_cpu_check_param *cp = &c->params[param];
  char place[256], into[96] = "";
  if (cp->arg != cp->lo)
    snprintf(into, sizeof into, " (the argument points %lld bytes into it)",
             (long long)(cp->arg - cp->lo));
  snprintf(tls_message, sizeof tls_message,
           "checked mode (KP_CHECK): %s of %llu bytes at offset %lld of parameter '%s'%s, "
           "%s its allocation of %llu bytes%s (on a GPU: CUDA_ERROR_ILLEGAL_ADDRESS or silent "
           "corruption)",
           access_kind(flags), (unsigned long long)bytes, (long long)(a - cp->arg),
           c->original->params[param].name, at(where, place, sizeof place),
           a < cp->lo ? "before the start of" : "past the end of",
           (unsigned long long)(cp->hi - cp->lo), into);
  fail_check();
}

/* [a, a + bytes) lies within the size bytes at lo (no overflow for any a, bytes). */
static int in_span(uintptr_t lo, uint64_t size, uintptr_t a, uint64_t bytes) {
  return a >= lo && a - lo <= size && bytes <= size - (a - lo);
}

KP_EXPORT void __kp_check_param(int param, const char *p, uint64_t bytes, int flags,
                                const char *where) {
  const kp_cpu_check_launch *c = tls_launch;
  if (!c || (unsigned)param >= c->num_params) return;
  const kp_cpu_check_param *cp = &c->params[param];
  uintptr_t a = (uintptr_t)p;
  if (!cp->hi || in_span(cp->lo, cp->hi - cp->lo, a, bytes)) return;
  param_failed(c, param, a, bytes, flags, where);
}

KP_EXPORT void __kp_check_shared(const char *base, uint64_t array_bytes, const char *name,
                                 const char *p, uint64_t bytes, int flags, const char *where) {
  if (!tls_launch) return;
  uintptr_t a = (uintptr_t)p, lo = (uintptr_t)base;
  if (in_span(lo, array_bytes, a, bytes)) return;
  char place[256];
  snprintf(tls_message, sizeof tls_message,
           "checked mode (KP_CHECK): %s of %llu bytes at offset %lld of shared array '%s'%s, "
           "%s the array of %llu bytes",
           access_kind(flags), (unsigned long long)bytes, (long long)(a - lo), name,
           at(where, place, sizeof place), a < lo ? "before the start of" : "past the end of",
           (unsigned long long)array_bytes);
  fail_check();
}

KP_EXPORT void __kp_check_dynamic_shared(const char *p, uint64_t bytes, int flags,
                                         const char *where) {
  const kp_cpu_check_launch *c = tls_launch;
  if (!c) return;
  const char *base = kp_cpu_state.dynamic_shared;
  uint64_t size = c->dynamic_shared;
  uintptr_t a = (uintptr_t)p, lo = (uintptr_t)base;
  if (in_span(lo, size, a, bytes)) return;
  char place[256];
  snprintf(tls_message, sizeof tls_message,
           "checked mode (KP_CHECK): %s of %llu bytes at offset %lld of the dynamic shared "
           "memory%s, %s the %llu bytes the launch asked for",
           access_kind(flags), (unsigned long long)bytes, (long long)(a - lo),
           at(where, place, sizeof place), a < lo ? "before the start of" : "past the end of",
           (unsigned long long)size);
  fail_check();
}

/* ---- shuffles ------------------------------------------------------------------------------ */

int kp_cpu_check_shuffle_source(unsigned op, unsigned lane, int arg, unsigned group) {
  long long src;
  switch ((kp_cpu_warp_op)op) {
  case KP_CPU_SHFL_IDX: src = arg & 31; break;
  case KP_CPU_SHFL_UP: src = (long long)lane - (unsigned)arg; break;
  case KP_CPU_SHFL_DOWN: src = (long long)lane + (unsigned)arg; break;
  case KP_CPU_SHFL_XOR: src = lane ^ (unsigned)arg; break;
  default: return -1;
  }
  if (src < 0 || src >= 32 || (group >> src & 1u)) return -1;
  return (int)src;
}
