/* ufunc_common.c — staging, grid sizing and launching for generated kernels (ufunc_common.h).
 *
 * Generated kernels are launched by the runtime itself, not through launch(): the call
 * (ufunc, gufunc, reduce) knows the element count, so it sizes the grid from the backend's
 * occupancy answer and checks the configuration with the same limits as __kp_launch. */
#include "core/memory.h"
#include "core/registry.h"
#include "core/stream.h"
#include "ufunc/ufunc_common.h"

/* ---- element types ----------------------------------------------------------------------- */

/* The header's kp_type codes are abi/types.def's rows (descriptors carry those codes). */
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class)                                    \
  _Static_assert((int)KP_TYPE_##Code == (int)KP_ELEM_##Code,                                   \
                 "kernplug.h's KP_TYPE_" #Code " is not row " #Code " of abi/types.def");
#include "types.def"
#undef KP_ELEM_TYPE
_Static_assert((int)KP_TYPE_COUNT == (int)KP_ELEM_COUNT, "kernplug.h's kp_type has other rows "
                                                         "than abi/types.def");

KP_EXPORT const char *kp_type_short_name(int code) { return kp_elem_short_name(code); }

size_t kp_type_size(int code) { return kp_elem_size(code); }

/* ---- operands ---------------------------------------------------------------------------- */

kp_error kp_operand_stage(kp_operand *op, const void *user, size_t bytes, int copy_in,
                          int is_output, const char *what) {
  *op = (kp_operand){user, NULL, bytes, 0, is_output};
  const kp_backend *be = kp_backend_get();
  if (!be) return KP_ERROR_NO_DEVICE; /* kp_backend_get reported why */
  if (!user)
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s is a NULL pointer (it needs %zu bytes)", what,
                   bytes);
  void *start;
  size_t size;
  if (kp_alloc_table_find(user, &start, &size)) { /* a device array: used in place */
    size_t offset = (size_t)((const char *)user - (const char *)start);
    if (bytes > size - offset)
      return kp_fail(KP_ERROR_INVALID_VALUE,
                     "%s is a device array of %zu bytes (%zu bytes from %p), but the call "
                     "needs %zu bytes",
                     what, size - offset, size, start, bytes);
    op->device = (void *)(uintptr_t)user;
    return KP_SUCCESS;
  }
  /* Device or managed memory other CUDA code allocated (cudaMalloc, cudaMallocManaged): used
   * in place like a device array, its extent from the driver; copying it as host memory would
   * read device addresses on the host. */
  if (be->is_foreign_device_memory && be->is_foreign_device_memory(user)) {
    op->device = (void *)(uintptr_t)user;
    return kp_check_foreign_range(be, what, user, bytes);
  }
  if (kp_check_reachable(be, what, user)) return KP_ERROR_INVALID_VALUE;
  return kp_stage(be, op, user, bytes, copy_in, is_output, 0, what);
}

kp_error kp_operand_finish(kp_operand *op, const char *what) {
  /* Not staged (or failed before a backend was found): nothing asks the backend. */
  return kp_unstage(op->staged ? kp_backend_get() : NULL, op, what);
}

/* ---- grid -------------------------------------------------------------------------------- */

enum { KP_FALLBACK_BLOCK = 256, KP_WARP = 32 };

void kp_grid_for(const kp_kernel_desc *k, long long n, int threads_multiple, kp_extent *blocks,
                 kp_extent *threads) {
  if (threads_multiple < 1) threads_multiple = 1;
  const kp_backend *be = kp_backend_get();
  int min_grid = 0, block = 0;
  if (!be || !be->occupancy ||
      be->occupancy((kp_kernel_desc *)(uintptr_t)k, 0, &min_grid, &block) != 0) {
    block = KP_FALLBACK_BLOCK;
    min_grid = 0; /* unknown: no cap beyond the grid limit */
  }
  const char *owner;
  const kp_limits *lim = be ? kp_backend_limits(be, &owner) : NULL;
  long long max_threads = lim ? lim->max_threads_per_block : 1024;
  if (lim && lim->max_block[0] < max_threads) max_threads = lim->max_block[0];
  long long t = block;
  if (t > max_threads) t = max_threads;
  /* A small n needs no more threads than it has items, in whole warps. */
  long long want = n < 1 ? 1 : (n + KP_WARP - 1) / KP_WARP * KP_WARP;
  if (t > want) t = want;
  t = t / threads_multiple * threads_multiple;
  if (t < threads_multiple) t = threads_multiple;
  long long b = n < 1 ? 1 : kp_backend_grid_stride_blocks(be, k, n, t);
  if (min_grid > 0 && b > min_grid) b = min_grid;
  long long max_grid = lim ? lim->max_grid[0] : 2147483647LL;
  if (b > max_grid) b = max_grid;
  *blocks = (kp_extent){b, 1, 1};
  *threads = (kp_extent){t, 1, 1};
}

/* ---- launch ------------------------------------------------------------------------------ */

kp_error kp_launch_generated(kp_kernel_desc *k, kp_extent blocks, kp_extent threads,
                             kp_stream stream, void **args, const char *what) {
  const kp_backend *be = kp_backend_get();
  if (!be) return KP_ERROR_NO_DEVICE; /* kp_backend_get reported why */
  kp_launch_config cfg = {k->host_fn, k->name, blocks, threads, 0, stream};
  return kp_launch_checked(be, k, &cfg, args, what);
}

int kp_generated_has_range(const kp_kernel_desc *k) {
  const kp_backend *be = kp_backend_get();
  return be && be->launch_range && k->cpu_range_entry;
}

kp_error kp_launch_generated_range(kp_kernel_desc *k, long long n, long long serial_below,
                                   kp_stream stream, void **args, const char *what) {
  const kp_backend *be = kp_backend_get();
  if (!be) return KP_ERROR_NO_DEVICE; /* kp_backend_get reported why */
  /* One block of one thread passes every limit: what is left to check is the stream. */
  kp_launch_config cfg = {k->host_fn, k->name, {1, 1, 1}, {1, 1, 1}, 0, stream};
  kp_error err = kp_launch_check(be, k, &cfg, what);
  if (err) return err;
  return be->launch_range(k, n, serial_below, args);
}
