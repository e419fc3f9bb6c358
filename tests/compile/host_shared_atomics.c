// kernplug-cpu-shared-atomics through clang: the shared-memory histogram's atomic_add is a
// plain load and store in the CPU entries (tagged !kernplug.shared_rmw), the one on global
// memory keeps its atomicrmw; the remark says where.
#include <kernplug.h>

__attribute__((kernel)) void hist(const unsigned char *data, int n, unsigned *counts) {
  static __attribute__((shared)) unsigned h[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
  syncthreads();
  int i = grid(1);
  if (i < n) atomic_add(&h[data[i]], 1u);
  syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) atomic_add(&counts[b], h[b]);
}

// HOST-LABEL: define internal void @hist.kp.cpu_block(
// HOST: load i32, ptr {{.*}}, !kernplug.shared_rmw
// HOST: store i32 {{.*}}, !kernplug.shared_rmw
// HOST: atomicrmw add ptr %{{.*}} monotonic
// HOST: ret void
// REMARK: remark: kernplug: 1 atomic on shared memory in 'hist.kp.cpu_block' is a plain load and store on the CPU backend
