/* kernplug/forall.h — one thread per task, the block size from the occupancy calculator
 * (numba's kernel.forall(ntasks)), and the occupancy query itself:
 *   kp_forall(k, n)(args...)
 *   kp_forall(k, n, shared_bytes)(args...)
 *   kp_forall(k, n, shared_bytes, stream)(args...)
 * launches k on ceil(n / block) blocks of `block` threads, `block` being the size the backend's
 * occupancy answer gives for k with shared_bytes of dynamic shared memory (CUDA's
 * cuOccupancyMaxPotentialBlockSize), capped at n rounded up to whole warps. The kernel
 * guards its index: `int i = grid(1); if (i < n) ...`. n = 0 runs nothing; n < 0 is an
 * error naming the kernel (docs/runtime.md, "forall and occupancy"). */
#ifndef KERNPLUG_FORALL_H
#define KERNPLUG_FORALL_H

#include <stddef.h>
#include <stdint.h>
#include "runtime.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The block size that maximises occupancy for `kernel` with `dynamic_shared` bytes of
 * dynamic shared memory per block, and the smallest grid that fills the device at that size
 * (on the CPU backend: the block size its block entries vectorise well with, and a grid as
 * large as allowed). Either output may be NULL. Reports an error naming the kernel when it
 * is not a registered kernel. */
kp_error kp_occupancy_max_potential_block_size(const void *kernel, const char *kernel_expr,
                                               size_t dynamic_shared, int *block,
                                               int *min_grid);
#define kp_occupancy(k, dynamic_shared, block, min_grid)                                       \
  kp_occupancy_max_potential_block_size((const void *)(k), #k, (dynamic_shared), (block),      \
                                        (min_grid))

/* The most blocks of `threads_per_block` threads (and `shared_bytes` of dynamic shared
 * memory) a cooperative launch of `kernel` may have: every block resident at once (numba's
 * max_cooperative_grid_blocks, CUDA's occupancy per multiprocessor times the multiprocessors;
 * on the CPU backend what the memory for every thread's fiber stack allows). A kernel that
 * reaches grid_sync() is launched cooperatively, and a larger grid fails the launch naming
 * the kernel, the grid and this limit. Returns 0 after reporting an error (not a registered
 * kernel, a block size the kernel cannot have). */
long long kp_max_cooperative_grid_blocks_of(const void *kernel, const char *kernel_expr,
                                            long long threads_per_block, size_t shared_bytes);
#define kp_max_cooperative_grid_blocks(k, threads_per_block, shared_bytes)                     \
  kp_max_cooperative_grid_blocks_of((const void *)(k), #k, (threads_per_block), (shared_bytes))

/* Records a launch of `kernel` over n tasks (see above) for the kernel's stub, as
 * kp_configure_launch does; returns 0 when nothing is to run (n = 0, or an error). */
int kp_configure_forall(const void *kernel, const char *kernel_expr, long long n,
                        size_t shared_bytes, kp_stream stream);
void kp_launch_refused(void);

#define KP_FORALL_PICK(_1, _2, _3, _4, NAME, ...) NAME
#define KP_FORALL_2(k, n) KP_FORALL_4(k, n, 0, (kp_stream)0)
#define KP_FORALL_3(k, n, s) KP_FORALL_4(k, n, s, (kp_stream)0)
/* As kp_launch: (k), or kp_launch_refused in k's pointer type when nothing is to run. */
#define KP_FORALL_4(k, n, s, st)                                                               \
  (kp_configure_forall((const void *)(k), #k, (long long)(n), (size_t)(s), (st))               \
       ? (k)                                                                                   \
       : (__typeof__(&*(k)))(uintptr_t)kp_launch_refused)
/* kp_forall(k, n[, shared_bytes[, stream]])(args...) */
#define kp_forall(...) KP_FORALL_PICK(__VA_ARGS__, KP_FORALL_4, KP_FORALL_3, KP_FORALL_2, , )(__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* KERNPLUG_FORALL_H */
