/* physics.c — device functions for other files (tests/rdc): no kernels here. */
#include "physics.h"

__attribute__((device)) float physics_force(float x, float k) { return -k * x; }

/* static: this file's own, not exported to other files' device code. */
static __attribute__((device)) float square(float v) { return v * v; }

__attribute__((device)) float physics_energy(float x, float k) { return 0.5f * k * square(x); }

/* Thread indices, shared memory and barriers in another file than the kernel's: on the CPU
 * backend the calling kernel runs on fibers. Blocks of at most 256 threads. */
__attribute__((device)) float physics_block_sum(float v) {
  static __attribute__((shared)) float partial[256];
  partial[threadIdx.x] = v;
  syncthreads();
  float s = 0;
  for (unsigned i = 0; i < blockDim.x; i++) s += partial[i];
  syncthreads();
  return s;
}
