/* A kernel that calls every kp_dev_* primitive, the way plugin-generated device code does.
 * Linked with the device runtime, internalized and optimised at O3 (as the plugin does), no
 * call may be left: each primitive must become its PTX instruction inline.
 *
 * CHECK: .entry all_primitives(
 * CHECK-NOT: call
 * CHECK-DAG: %tid.x
 * CHECK-DAG: %ctaid.y
 * CHECK-DAG: %ntid.z
 * CHECK-DAG: %nctaid.x
 * CHECK-DAG: %laneid
 * CHECK-DAG: bar.sync 0
 * CHECK-DAG: bar.red.popc.u32
 * CHECK-DAG: bar.red.and.pred
 * CHECK-DAG: bar.red.or.pred
 * CHECK-DAG: bar.warp.sync
 * CHECK-DAG: membar.gl
 * CHECK-DAG: membar.cta
 * CHECK-DAG: membar.sys
 * CHECK-DAG: shfl.sync.idx.b32
 * CHECK-DAG: shfl.sync.up.b32
 * CHECK-DAG: shfl.sync.down.b32
 * CHECK-DAG: shfl.sync.bfly.b32
 * CHECK-DAG: vote.sync.ballot.b32
 * CHECK-DAG: vote.sync.all.pred
 * CHECK-DAG: vote.sync.any.pred
 * CHECK-DAG: activemask.b32
 * CHECK-DAG: atom{{(.global)?}}.inc.u32
 * CHECK-DAG: atom{{(.global)?}}.dec.u32
 * CHECK-DAG: kp_dynamic_shared_mem
 * CHECK-NOT: call
 */
#define KP_NO_SHORT_NAMES
#include "kernplug.h"

/* nvptx_kernel stands in for the plugin's kernel calling convention. */
__attribute__((nvptx_kernel)) void all_primitives(unsigned *out, unsigned *counter) {
  unsigned i = kp_dev_tid_x() + kp_dev_ctaid_y() * kp_dev_ntid_z() + kp_dev_nctaid_x();
  unsigned v = kp_dev_laneid();
  int *scratch = (int *)kp_dev_dynamic_shared();
  scratch[i % 32] = (int)v;
  kp_dev_syncthreads();
  v += (unsigned)kp_dev_syncthreads_count((int)v & 1);
  v += (unsigned)kp_dev_syncthreads_and(v > 3);
  v += (unsigned)kp_dev_syncthreads_or(v > 7);
  kp_dev_syncwarp(0xffffffffu);
  kp_dev_threadfence();
  kp_dev_threadfence_block();
  kp_dev_threadfence_system();
  v += (unsigned)kp_dev_shfl_idx(~0u, scratch[v % 32], 0);
  v += (unsigned)kp_dev_shfl_up(~0u, (int)v, 1);
  v += (unsigned)kp_dev_shfl_down(~0u, (int)v, 2);
  v += (unsigned)kp_dev_shfl_xor(~0u, (int)v, 4);
  v += kp_dev_ballot(~0u, v & 2);
  v += (unsigned)kp_dev_all(~0u, v & 4);
  v += (unsigned)kp_dev_any(~0u, v & 8);
  v += kp_dev_activemask();
  v += kp_dev_atomic_inc_u32(counter, 100);
  v += kp_dev_atomic_dec_u32(counter + 1, 100);
  out[i] = v;
}
