// kernplug.h and the CUDA runtime headers, in either order (issue 17): CUDA's headers name
// fields and parameters gridDim and blockDim, which the short names define as macros.
// KP_CUDA_FIRST picks the order; cuda_include_order.sh builds both with kpcc and runs them on
// the CPU backend (no CUDA runtime call: only the headers are under test).
#ifdef KP_CUDA_FIRST
#include <cuda_runtime.h>
#include <kernplug.h>
#else
#include <kernplug.h>
#include <cuda_runtime.h>
#endif

#include <stdio.h>

__attribute__((kernel)) void dims(unsigned *out) {
  if (grid(1) == 0) {
    out[0] = gridDim.x;
    out[1] = blockDim.x;
  }
}

#ifndef KP_KERNEL_ONLY /* cuda_include_order.cpp's kernel object */
int main(void) {
  cudaError_t status = cudaSuccess; // CUDA's types stay usable
  unsigned *out = managed_array(unsigned, 2);
  launch(dims, 3, 32)(out);
  kp_synchronize();
  if (status != cudaSuccess || out[0] != 3 || out[1] != 32) {
    fprintf(stderr, "FAIL: gridDim.x %u blockDim.x %u, expected 3 and 32\n", out[0], out[1]);
    return 1;
  }
  kp_free(out);
  printf("ok\n");
  return 0;
}
#endif
