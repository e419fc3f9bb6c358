/* occupancy.c — kp_occupancy() and forall(k, n)(args…): the block size from the backend's
 * occupancy answer (CUDA's cuOccupancyMaxPotentialBlockSize; the CPU backend's block size),
 * and a one-thread-per-task launch configured with it through kp_configure_launch, so that
 * forall's launch is checked and run exactly as launch()'s. */
#include <stdint.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/registry.h"

/* Without an answer from the backend (a driver that cannot compute it): CUDA's usual choice. */
enum { KP_FORALL_FALLBACK_BLOCK = 256, KP_FORALL_WARP = 32 };

/* The backend's answer for the registered kernel k, capped by the device's block limits and
 * the kernel's launch_bounds. */
static void occupancy_of(const kp_backend *be, kp_kernel_desc *k, size_t dynamic_shared,
                         int *block, int *min_grid) {
  int b = 0, g = 0;
  if (!be->occupancy || be->occupancy(k, dynamic_shared, &g, &b) != 0 || b < 1) {
    b = KP_FORALL_FALLBACK_BLOCK;
    g = 0; /* unknown */
  }
  const char *owner;
  const kp_limits *lim = kp_backend_limits(be, &owner);
  long long max = lim->max_threads_per_block;
  if (lim->max_block[0] < max) max = lim->max_block[0];
  if (k->max_threads && (unsigned long long)max > k->max_threads) max = (long long)k->max_threads;
  if (b > max) b = (int)max;
  *block = b;
  *min_grid = g;
}

static kp_kernel_desc *registered_kernel(const char *call, const void *kernel,
                                         const char *expr) {
  kp_kernel_desc *k = kernel ? kp_registry_find(kernel) : NULL;
  if (!k) kp_registry_wrong_kind(call, kernel, expr, KP_FUNCTION_KERNEL);
  return k;
}

KP_EXPORT kp_error kp_occupancy_max_potential_block_size(const void *kernel,
                                                         const char *kernel_expr,
                                                         size_t dynamic_shared, int *block,
                                                         int *min_grid) {
  if (!kernel_expr) kernel_expr = "?";
  kp_kernel_desc *k = registered_kernel("kp_occupancy", kernel, kernel_expr);
  if (!k) return KP_ERROR_INVALID_VALUE;
  const kp_backend *be = kp_backend_get();
  if (!be) return KP_ERROR_NO_DEVICE; /* kp_backend_get reported why */
  int b, g;
  occupancy_of(be, k, dynamic_shared, &b, &g);
  if (block) *block = b;
  if (min_grid) *min_grid = g;
  return KP_SUCCESS;
}

KP_EXPORT int kp_configure_forall(const void *kernel, const char *kernel_expr, long long n,
                                  size_t shared_bytes, kp_stream stream) {
  if (!kernel_expr) kernel_expr = "?";
  kp_kernel_desc *k = registered_kernel("forall", kernel, kernel_expr);
  if (!k) return 0;
  if (n < 0) {
    kp_fail(KP_ERROR_INVALID_VALUE, "forall(%s, %lld): the task count must not be negative",
            kernel_expr, n);
    return 0;
  }
  if (n == 0) return 0; /* nothing to run, as a grid-stride loop over no items */
  const kp_backend *be = kp_backend_get();
  if (!be) return 0; /* kp_backend_get reported why */
  int block, min_grid;
  occupancy_of(be, k, shared_bytes, &block, &min_grid);
  /* A few tasks need no more threads than there are, in whole warps. */
  long long want = (n + KP_FORALL_WARP - 1) / KP_FORALL_WARP * KP_FORALL_WARP;
  long long t = block < want ? block : want;
  long long b = (n + t - 1) / t;
  /* kp_configure_launch checks the registration again (cheap) and records the launch; the
   * limits (a grid too large for n) are checked at the launch like launch()'s. */
  return kp_configure_launch(kernel, kernel_expr, (kp_extent){b, 1, 1}, (kp_extent){t, 1, 1},
                             shared_bytes, stream);
}

KP_EXPORT long long kp_max_cooperative_grid_blocks_of(const void *kernel, const char *kernel_expr,
                                                      long long threads_per_block,
                                                      size_t shared_bytes) {
  if (!kernel_expr) kernel_expr = "?";
  kp_kernel_desc *k = registered_kernel("kp_max_cooperative_grid_blocks", kernel, kernel_expr);
  if (!k) return 0;
  const kp_backend *be = kp_backend_get();
  if (!be) return 0; /* kp_backend_get reported why */
  const char *owner;
  const kp_limits *lim = kp_backend_limits(be, &owner);
  if (threads_per_block < 1 || threads_per_block > lim->max_threads_per_block) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "kp_max_cooperative_grid_blocks(%s, %lld, %zu): the block size must be between 1 "
            "and %lld, the limit of %s",
            kernel_expr, threads_per_block, shared_bytes, lim->max_threads_per_block, owner);
    return 0;
  }
  if (!be->cooperative_blocks) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "kp_max_cooperative_grid_blocks(%s, ...): %s cannot make cooperative launches",
            kernel_expr, owner);
    return 0;
  }
  long long blocks = 0;
  if (be->cooperative_blocks(k, threads_per_block, shared_bytes, &blocks) != KP_SUCCESS) return 0;
  return blocks;
}
