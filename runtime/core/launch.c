/* launch.c — launch(k, blocks, threads[, shared[, stream]])(args…).
 *
 * launch() expands to kp_configure_launch(k, …), which records the configuration for this
 * host thread, followed by a call of k — the plugin's host stub — which calls __kp_launch().
 * That is the pattern of clang's CUDA host stubs (push/pop call configuration). Everything a
 * user can get wrong is checked here, once, with the kernel's name in the message, so that
 * the backends only see launches they can run. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "core/launch.h"
#include "core/registry.h"
#include "core/stream.h"

/* The shape of the last launch() on this thread that passed kp_launch_check: a kernel
 * launched again with the same grid, block and dynamic shared memory on the same device
 * passes again, as long as nothing the check read has changed (the kernel's static shared
 * size, which the CUDA backend replaces when it loads the kernel; the registry, since a
 * library loaded after a dlclose() may put another kernel's descriptor at the same address).
 * The stream is checked on every launch (it may have been destroyed since). */
typedef struct checked_shape {
  const kp_kernel_desc *kernel; /* NULL: nothing remembered */
  const kp_backend *be;
  const kp_limits *lim;
  unsigned long long modules, static_shared;
  kp_extent blocks, threads;
  size_t shared_bytes;
} checked_shape;

/* One thread-local object for both, so that a launch reaches them through one TLS access. */
typedef struct pending_launch {
  bool pending;
  kp_launch_config cfg;
  checked_shape checked;
} pending_launch;

static _Thread_local pending_launch tls_pending;

static _Atomic(const char *) g_last_kernel;

void kp_note_launched_kernel(const char *name) {
  /* Stored only when it changes: threads launching the same kernel share the line read-only. */
  if (atomic_load_explicit(&g_last_kernel, memory_order_relaxed) != name)
    atomic_store_explicit(&g_last_kernel, name, memory_order_relaxed);
}
const char *kp_last_launched_kernel(void) {
  return atomic_load_explicit(&g_last_kernel, memory_order_relaxed);
}
void kp_forget_launched_kernel(const char *name) {
  const char *expected = name;
  atomic_compare_exchange_strong_explicit(&g_last_kernel, &expected, NULL, memory_order_relaxed,
                                          memory_order_relaxed);
}

/* Returns 1 when `kernel` is to be called next (kernplug.h's launch()), 0 after reporting
 * in return mode that it is not a registered kernel: launch() then calls kp_launch_refused
 * instead, so that the failed launch runs nothing (a plain function is not run on the host,
 * and a kernel of a dlclose()d library is not jumped to). */
KP_EXPORT int kp_configure_launch(const void *kernel, const char *kernel_expr, kp_extent blocks,
                                  kp_extent threads, size_t shared_bytes, kp_stream stream) {
  if (!kernel_expr) kernel_expr = "?";
  if (tls_pending.pending) {
    /* `launch(k, b, t);` without the argument list: the comma expression names k but never
     * calls it. Report it now instead of launching the stale configuration later. */
    const char *stale = tls_pending.cfg.kernel_expr;
    tls_pending.pending = false;
    kp_fail(KP_ERROR_NO_LAUNCH_CONFIG,
            "launch(%s, ...) was configured but %s was never called: write "
            "launch(%s, blocks, threads)(args...)",
            stale, stale, stale);
  }
  if (!kernel || !kp_registry_find(kernel)) {
    kp_registry_wrong_kind("launch", kernel, kernel_expr, KP_FUNCTION_KERNEL);
    return 0;
  }
  tls_pending.cfg = (kp_launch_config){kernel, kernel_expr, blocks, threads, shared_bytes,
                                       stream};
  tls_pending.pending = true;
  return 1;
}

/* kp_launch_refused: called with the arguments of a refused launch, through the kernel's own
 * pointer type (kernplug.h), whatever its parameters and calling convention (ms_abi, regcall,
 * preserve_all, ...). A bare return honours all of them: it ignores every argument and
 * changes no register a caller may rely on. In assembly, because a C function may get a
 * prologue (sanitizer builds instrument it) and an -fsanitize=function signature that UBSan
 * would check against the caller's type. */
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__) && defined(__CET__)
#define KP_BRANCH_TARGET "  endbr64\n" /* an indirect call's target under IBT */
#elif defined(__aarch64__) && defined(__ARM_FEATURE_BTI_DEFAULT)
#define KP_BRANCH_TARGET "  bti c\n"
#else
#define KP_BRANCH_TARGET ""
#endif
__asm__(".text\n"
        ".globl kp_launch_refused\n"
        ".type kp_launch_refused,%function\n"
        "kp_launch_refused:\n" KP_BRANCH_TARGET "  ret\n"
        ".size kp_launch_refused,.-kp_launch_refused\n");
#else
KP_EXPORT __attribute__((no_sanitize("function"))) void kp_launch_refused(void) {}
#endif

static const char axis_name[3] = {'x', 'y', 'z'};

/* How the messages of a check name the call: `given`, or "launch(<kernel>, ...)" when none
 * was given, formatted only when a message is written (launch() itself checks every launch
 * and almost never fails). */
typedef struct call_name {
  const char *given, *kernel;
  char buf[320];
} call_name;

static const char *name_of(call_name *n) {
  if (!n->given) {
    snprintf(n->buf, sizeof n->buf, "launch(%s, ...)", n->kernel);
    n->given = n->buf;
  }
  return n->given;
}

static kp_error check_extent(call_name *call, const char *owner, const char *what,
                             const long long e[3], const long long max[3]) {
  for (int a = 0; a < 3; a++) {
    if (e[a] < 1)
      return kp_fail(KP_ERROR_INVALID_VALUE,
                     "%s: %s.%c is %lld; every grid and block size must be at least 1",
                     name_of(call), what, axis_name[a], e[a]);
    if (e[a] > max[a])
      return kp_fail(KP_ERROR_LAUNCH, "%s: %s.%c = %lld exceeds the limit of %lld of %s",
                     name_of(call), what, axis_name[a], e[a], max[a], owner);
  }
  return KP_SUCCESS;
}

/* Shared memory per block. On a GPU the kernel's static `shared` arrays and the dynamic
 * buffer share one per-block budget. The CPU backend keeps static arrays in each worker's
 * thread-local storage, so only its dynamic buffer (KP_CPU_SHARED_BYTES) is limited. The
 * static size is the plugin's figure until the CUDA backend replaces it with the driver's
 * when it loads the kernel. */
static kp_error check_shared(call_name *call, const kp_kernel_desc *k, const kp_limits *lim,
                             const char *owner, size_t dynamic) {
  const unsigned long long limit = (unsigned long long)lim->max_shared_bytes;
  const char *hint = lim->shared_hint ? lim->shared_hint : "";
  if (!lim->static_shared_counts) {
    if (dynamic <= limit) return KP_SUCCESS;
    return kp_fail(KP_ERROR_LAUNCH,
                   "%s: %zu bytes of dynamic shared memory exceed the limit of %llu bytes per "
                   "block of %s%s",
                   name_of(call), dynamic, limit, owner, hint);
  }
  unsigned long long static_bytes = __atomic_load_n(&k->shared_bytes, __ATOMIC_RELAXED);
  if (dynamic <= limit && static_bytes <= limit - dynamic) return KP_SUCCESS;
  return kp_fail(KP_ERROR_LAUNCH,
                 "%s: %llu bytes of static + %zu bytes of dynamic shared memory exceed the "
                 "limit of %llu bytes per block of %s%s",
                 name_of(call), static_bytes, dynamic, limit, owner, hint);
}

/* A kernel that reaches grid_sync() runs cooperatively: every block resident at once. A larger
 * grid would hang on a GPU (CUDA refuses it: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE), so it
 * fails here on every backend with the kernel, the grid and the limit. */
static kp_error check_cooperative(const kp_backend *be, call_name *call,
                                  const kp_kernel_desc *kernel, const long long blocks[3],
                                  long long per_block, size_t shared_bytes, const char *owner) {
  long long total = blocks[0] * blocks[1] * blocks[2];
  if (!be->cooperative_blocks)
    return kp_fail(KP_ERROR_LAUNCH,
                   "%s: the kernel calls grid_sync(), which needs a cooperative launch, and %s "
                   "cannot make one",
                   name_of(call), owner);
  long long limit = 0;
  kp_error err = be->cooperative_blocks((kp_kernel_desc *)kernel, per_block, shared_bytes, &limit);
  if (err) return err;
  if (total <= limit) return KP_SUCCESS;
  return kp_fail(KP_ERROR_LAUNCH,
                 "%s: the kernel calls grid_sync(), so every block must be resident at once "
                 "(a cooperative launch), but its grid of %lld blocks (%lld x %lld x %lld) "
                 "exceeds the %lld blocks of %lld threads that %s can hold at once "
                 "(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE on a GPU); size the grid with "
                 "kp_max_cooperative_grid_blocks(%s, %lld, %zu) and loop over the work",
                 name_of(call), total, blocks[0], blocks[1], blocks[2], limit, per_block, owner,
                 kernel->name, per_block, shared_bytes);
}

kp_error kp_launch_check(const kp_backend *be, const kp_kernel_desc *kernel,
                         const kp_launch_config *cfg, const char *given) {
  call_name call; /* buf is written only for a message: not cleared on every launch */
  call.given = given, call.kernel = kernel->name;
  const long long blocks[3] = {cfg->blocks.x, cfg->blocks.y, cfg->blocks.z};
  const long long threads[3] = {cfg->threads.x, cfg->threads.y, cfg->threads.z};
  /* The limits of the device this host thread uses (kp_select_device). */
  const char *owner;
  const kp_limits *lim = kp_backend_limits(be, &owner);
  kp_error err;
  if ((err = check_extent(&call, owner, "blocks", blocks, lim->max_grid))) return err;
  if ((err = check_extent(&call, owner, "threads", threads, lim->max_block))) return err;
  long long per_block = threads[0] * threads[1] * threads[2];
  if (per_block > lim->max_threads_per_block)
    return kp_fail(KP_ERROR_LAUNCH,
                   "%s: %lld threads per block (%lld x %lld x %lld) exceed the limit of %lld of "
                   "%s",
                   name_of(&call), per_block, threads[0], threads[1], threads[2],
                   lim->max_threads_per_block, owner);
  /* launch_bounds(max_threads): the GPU refuses a bigger block (ptxas compiled for it); the
   * CPU backend refuses it too, so that a program that runs there runs on a GPU. */
  if (kernel->max_threads && (unsigned long long)per_block > kernel->max_threads)
    return kp_fail(KP_ERROR_LAUNCH,
                   "%s: %lld threads per block (%lld x %lld x %lld) exceed the kernel's "
                   "launch_bounds(%llu)",
                   name_of(&call), per_block, threads[0], threads[1], threads[2],
                   (unsigned long long)kernel->max_threads);
  if ((err = check_shared(&call, kernel, lim, owner, cfg->shared_bytes))) return err;
  if ((kernel->flags & KP_KERNEL_COOPERATIVE) &&
      (err = check_cooperative(be, &call, kernel, blocks, per_block, cfg->shared_bytes, owner)))
    return err;
  if (given) return kp_stream_check(cfg->stream, "%s", given);
  return kp_stream_check(cfg->stream, "launch(%s, ...)", kernel->name);
}

static bool same_extent(kp_extent a, kp_extent b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* kp_launch_check for launch(), remembering the last shape that passed (checked_shape).
 * Cooperative kernels are checked every time (their limit is the backend's to say). */
static kp_error check_launch_shape(checked_shape *c, const kp_backend *be,
                                   const kp_kernel_desc *kernel, const kp_launch_config *cfg) {
  const char *owner;
  const kp_limits *lim = kp_backend_limits(be, &owner);
  unsigned long long modules = kp_registry_generation();
  unsigned long long static_shared = __atomic_load_n(&kernel->shared_bytes, __ATOMIC_RELAXED);
  if (c->kernel == kernel && c->be == be && c->lim == lim && c->modules == modules &&
      c->static_shared == static_shared && c->shared_bytes == cfg->shared_bytes &&
      same_extent(c->blocks, cfg->blocks) && same_extent(c->threads, cfg->threads))
    return cfg->stream ? kp_stream_check(cfg->stream, "launch(%s, ...)", kernel->name)
                       : KP_SUCCESS;
  c->kernel = NULL;
  kp_error err = kp_launch_check(be, kernel, cfg, NULL);
  if (err || (kernel->flags & KP_KERNEL_COOPERATIVE)) return err;
  *c = (checked_shape){kernel,         be,          lim,         modules,
                       static_shared,  cfg->blocks, cfg->threads, cfg->shared_bytes};
  return KP_SUCCESS;
}

kp_error kp_launch_checked(const kp_backend *be, kp_kernel_desc *kernel,
                           const kp_launch_config *cfg, void **args, const char *call) {
  kp_error err = kp_launch_check(be, kernel, cfg, call);
  return err ? err : be->launch_impl(kernel, cfg, args);
}

KP_EXPORT void __kp_launch(kp_kernel_desc *kernel, void **args) {
  if (!kernel) {
    kp_fail(KP_ERROR_INTERNAL, "__kp_launch: NULL kernel descriptor");
    return;
  }
  if (!tls_pending.pending) {
    kp_fail(KP_ERROR_NO_LAUNCH_CONFIG,
            "kernel '%s' (%s:%llu) was called without launch(): write launch(%s, blocks, "
            "threads)(args...)",
            kernel->name, kernel->file ? kernel->file : "?", (unsigned long long)kernel->line,
            kernel->name);
    return;
  }
  /* Pop first: whatever happens below, the configuration is used up. */
  kp_launch_config cfg = tls_pending.cfg;
  tls_pending.pending = false;
  if (cfg.kernel != kernel->host_fn) {
    kp_fail(KP_ERROR_NO_LAUNCH_CONFIG,
            "kernel '%s' was called while launch(%s, ...) was pending: launch() configures "
            "exactly the kernel it names",
            kernel->name, cfg.kernel_expr);
    return;
  }

  const kp_backend *be = kp_backend_get();
  if (!be) return; /* kp_backend_get reported why */

  if (check_launch_shape(&tls_pending.checked, be, kernel, &cfg)) return;
  kp_launch_with_transfers(be, kernel, &cfg, args);
}
