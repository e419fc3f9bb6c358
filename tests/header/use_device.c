// The device language with kernplug/device.h alone.
#include "kernplug/device.h"

int use_device(float *out) {
  kp_dim3 t = kp_thread_idx(), b = kp_block_idx(), d = kp_block_dim(), g = kp_grid_dim();
  int i = kp_grid(1);
  kp_int2 ij = kp_grid(2);
  kp_int3 ijk = kp_grid(3);
  int n = kp_gridsize(1);
  kp_int2 n2 = kp_gridsize(2);
  kp_int3 n3 = kp_gridsize(3);
  float *dynamic = kp_dynamic_shared(float);
  kp_syncthreads();
  int c = kp_syncthreads_count(i > 0) + kp_syncthreads_and(1) + kp_syncthreads_or(0);
  kp_syncwarp(0xffffffffu);
  kp_threadfence();
  kp_threadfence_block();
  kp_threadfence_system();
  out[i] = dynamic[0];
  return (int)(t.x + b.y + d.z + g.x) + ij.y + ijk.z + n + n2.x + n3.z + c + kp_laneid() +
         kp_warpsize;
}
