/* kp_first_launch.c — how long the first launch of a kernel takes, module load included:
 * kernplug loads a translation unit's GPU code when one of its kernels is first launched,
 * from the embedded cubin for the device's architecture when there is one, else by having
 * the driver JIT-compile the embedded PTX. Built twice (bench/gpu/CMakeLists.txt): with
 * cubins (kp_first_launch) and with PTX only (kp_first_launch_ptx, ptxas=none). One
 * measurement per process, so run.sh runs each several times (with CUDA_CACHE_DISABLE=1,
 * so that the driver's JIT cache does not hide the compile). first_launch.cu is the same
 * program in CUDA C. */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "kernplug.h"

/* The module: the tiled matmul of the benchmark and an empty kernel. */
__attribute__((kernel)) void fl_tiled(const float *A, const float *B, float *C, int n) {
  static __attribute__((shared)) float sA[16][16];
  static __attribute__((shared)) float sB[16][16];
  kp_int2 g = grid(2);
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  float tmp = 0.0f;
  for (int i = 0; i < (n + 15) / 16; i++) {
    int a_col = (int)tx + i * 16, b_row = (int)ty + i * 16;
    sA[ty][tx] = g.y < n && a_col < n ? A[g.y * n + a_col] : 0.0f;
    sB[ty][tx] = g.x < n && b_row < n ? B[b_row * n + g.x] : 0.0f;
    syncthreads();
    for (int j = 0; j < 16; j++) tmp += sA[ty][j] * sB[j][tx];
    syncthreads();
  }
  if (g.y < n && g.x < n) C[g.y * n + g.x] = tmp;
}
__attribute__((kernel)) void fl_empty(float *p) { (void)p; }

int main(void) {
  const char *backend = kp_backend_name();
  float *d = device_array(float, 256); /* the context exists before the clock starts */
  kp_synchronize();
  double t0 = bench_now_ms();
  launch(fl_empty, 1, 32)(d);
  kp_synchronize();
  double t1 = bench_now_ms();
  launch(fl_empty, 1, 32)(d);
  kp_synchronize();
  double t2 = bench_now_ms();
#ifdef KP_BENCH_PTX_ONLY
  const char *name = "first launch (module load), PTX only";
#else
  const char *name = "first launch (module load), cubin";
#endif
  printf("{\"impl\": \"kernplug\", \"section\": \"first launch\", \"case\": \"%s\", \"n\": 1, "
         "\"ms\": %.4f, \"reps\": 1, \"bytes\": 0, \"flops\": 0, \"check\": \"ok\", "
         "\"timer\": \"host clock\", \"note\": \"second launch %.4f ms; backend %s\"}\n",
         name, t1 - t0, t2 - t1, backend);
  kp_free(d);
  return strcmp(backend, "cuda") == 0 ? 0 : 77;
}
