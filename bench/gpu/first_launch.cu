// first_launch.cu — kp_first_launch.c in CUDA C: the time of the first launch of a kernel
// (the module load, lazy since CUDA 12.2) and of the second. run.sh builds it with SASS for
// the device (-arch=native) and with PTX only (-gencode arch=compute_XX,code=compute_XX, so
// that the driver JIT-compiles it), and runs each several times with CUDA_CACHE_DISABLE=1.
#include <cuda_runtime.h>

#include <cstdio>

#include "bench_util.h"

__global__ void fl_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float sA[16][16];
  __shared__ float sB[16][16];
  int gx = blockIdx.x * blockDim.x + threadIdx.x, gy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  float tmp = 0.0f;
  for (int i = 0; i < (n + 15) / 16; i++) {
    int a_col = (int)tx + i * 16, b_row = (int)ty + i * 16;
    sA[ty][tx] = gy < n && a_col < n ? A[gy * n + a_col] : 0.0f;
    sB[ty][tx] = gx < n && b_row < n ? B[b_row * n + gx] : 0.0f;
    __syncthreads();
    for (int j = 0; j < 16; j++) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (gy < n && gx < n) C[gy * n + gx] = tmp;
}
__global__ void fl_empty(float *) {}

int main() {
  float *d;
  if (cudaMalloc(&d, 256 * sizeof(float)) != cudaSuccess) {  // creates the context
    fprintf(stderr, "first_launch: no CUDA device\n");
    return 77;
  }
  cudaDeviceSynchronize();
  double t0 = bench_now_ms();
  fl_empty<<<1, 32>>>(d);
  cudaError_t e1 = cudaDeviceSynchronize();
  double t1 = bench_now_ms();
  fl_empty<<<1, 32>>>(d);
  cudaError_t e2 = cudaDeviceSynchronize();
  double t2 = bench_now_ms();
  if (e1 != cudaSuccess || e2 != cudaSuccess) {
    fprintf(stderr, "first_launch: %s\n", cudaGetErrorString(e1 ? e1 : e2));
    return 1;
  }
#ifdef BENCH_PTX_ONLY
  const char *name = "first launch (module load), PTX only";
#else
  const char *name = "first launch (module load), cubin";
#endif
  printf("{\"impl\": \"nvcc\", \"section\": \"first launch\", \"case\": \"%s\", \"n\": 1, "
         "\"ms\": %.4f, \"reps\": 1, \"bytes\": 0, \"flops\": 0, \"check\": \"ok\", "
         "\"timer\": \"host clock\", \"note\": \"second launch %.4f ms\"}\n",
         name, t1 - t0, t2 - t1);
  cudaFree(d);
  return 0;
}
