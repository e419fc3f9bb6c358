/* kernplug/device.h — the device language: thread indexing, barriers, fences and dynamic
 * shared memory, for functions marked __attribute__((kernel)) / ((device)) / ((vectorize)).
 * Atomics are in atomics.h, warp functions in warp.h. Static shared arrays need no header:
 *   static __attribute__((shared)) float tile[16][16];
 */
#ifndef KERNPLUG_DEVICE_H
#define KERNPLUG_DEVICE_H

#include "types.h"
#include "detail/config.h"
#include "detail/primitives.h"
#include "detail/grid.h"

/* ------------------------------------------------------------------------------------------
 * Indexing
 * ---------------------------------------------------------------------------------------- */

KP_ALWAYS_INLINE kp_dim3 kp_thread_idx(void) {
  kp_dim3 d = {kp_dev_tid_x(), kp_dev_tid_y(), kp_dev_tid_z()};
  return d;
}
KP_ALWAYS_INLINE kp_dim3 kp_block_idx(void) {
  kp_dim3 d = {kp_dev_ctaid_x(), kp_dev_ctaid_y(), kp_dev_ctaid_z()};
  return d;
}
KP_ALWAYS_INLINE kp_dim3 kp_block_dim(void) {
  kp_dim3 d = {kp_dev_ntid_x(), kp_dev_ntid_y(), kp_dev_ntid_z()};
  return d;
}
KP_ALWAYS_INLINE kp_dim3 kp_grid_dim(void) {
  kp_dim3 d = {kp_dev_nctaid_x(), kp_dev_nctaid_y(), kp_dev_nctaid_z()};
  return d;
}

/* kp_grid(1) → int, kp_grid(2) → kp_int2, kp_grid(3) → kp_int3; likewise kp_gridsize. */
#define kp_grid(ndim) kp_grid_##ndim()
#define kp_gridsize(ndim) kp_gridsize_##ndim()
#define kp_warpsize 32
#define kp_laneid() ((int)kp_dev_laneid())

/* ------------------------------------------------------------------------------------------
 * Barriers and fences
 * ---------------------------------------------------------------------------------------- */

#define kp_syncthreads() kp_dev_syncthreads()
#define kp_syncthreads_count(p) kp_dev_syncthreads_count((p) != 0)
#define kp_syncthreads_and(p) kp_dev_syncthreads_and((p) != 0)
#define kp_syncthreads_or(p) kp_dev_syncthreads_or((p) != 0)
#define kp_syncwarp(mask) kp_dev_syncwarp(mask)
/* Grid-wide barrier (CUDA's cg::this_grid().sync(), numba's cuda.cg.this_grid().sync()):
 * every thread of the grid must call it; a kernel that reaches it is launched cooperatively,
 * its grid at most kp_max_cooperative_grid_blocks(k, threads, shared) blocks (forall.h). */
#define kp_grid_sync() kp_dev_grid_sync()
#define kp_threadfence() kp_dev_threadfence()
#define kp_threadfence_block() kp_dev_threadfence_block()
#define kp_threadfence_system() kp_dev_threadfence_system()

/* Dynamic shared memory: launch(k, blocks, threads, bytes) sizes it. */
#define kp_dynamic_shared(T) ((T *)kp_dev_dynamic_shared())

#endif /* KERNPLUG_DEVICE_H */
