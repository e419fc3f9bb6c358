/* cublas_sgemm.c — cuBLAS beside kernplug (docs/cuda-libraries.md): a kernplug kernel fills
 * the matrices, cublasSgemm multiplies kernplug device arrays on a kernplug stream, a second
 * kernel adds a bias and applies ReLU to the product on the same stream, and a ufunc scales an
 * array that cudaMalloc allocated. Checked against the same computation on the host.
 *
 * cuBLAS runs on a GPU only: on the CPU backend the program says why it skips and exits 77.
 * Built when the CUDA toolkit has cuBLAS (examples/CMakeLists.txt); by hand:
 *   kpcc -O2 cublas_sgemm.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcublas -lcudart
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "example_util.h"

enum { M = 96, K = 80, N = 72 }; /* C (M x N) = A (M x K) @ B (K x N), row-major */

__attribute__((kernel)) void fill(float *a, int rows, int cols, float scale) {
  int i = grid(1);
  if (i < rows * cols) a[i] = scale * (float)((i * 37 % 23) - 11) / 11.0f;
}

/* C[i][j] = max(C[i][j] + bias[j], 0) */
__attribute__((kernel)) void bias_relu(float *c, const float *bias, int rows, int cols) {
  int i = grid(1);
  if (i < rows * cols) {
    float v = c[i] + bias[i % cols];
    c[i] = v > 0 ? v : 0;
  }
}

__attribute__((vectorize("f32(f32, f32)"))) float times(float x, float s) { return x * s; }

#define CUDA_OK(call)                                                                          \
  do {                                                                                         \
    cudaError_t e_ = (call);                                                                   \
    if (e_ != cudaSuccess) {                                                                   \
      fprintf(stderr, "cublas_sgemm: %s: %s\n", #call, cudaGetErrorString(e_));                \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)
#define CUBLAS_OK(call)                                                                        \
  do {                                                                                         \
    cublasStatus_t s_ = (call);                                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      fprintf(stderr, "cublas_sgemm: %s: cuBLAS status %d\n", #call, (int)s_);                 \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)

int main(void) {
  const char *backend = example_start("cublas_sgemm");
  if (strcmp(backend, "cuda") != 0) {
    printf("cublas_sgemm: skipped: cuBLAS runs on a GPU, and kernels run on the %s backend "
           "here (KP_BACKEND=%s, or no usable GPU: kp_detect() says which)\n",
           backend, getenv("KP_BACKEND") ? getenv("KP_BACKEND") : "auto");
    return 77;
  }
  float *a = device_array(float, M * K), *b = device_array(float, K * N);
  float *c = device_array(float, M * N);
  kp_stream s = kp_stream_create();
  launch(fill, (M * K + 255) / 256, 256, 0, s)(a, M, K, 1.0f);
  launch(fill, (K * N + 255) / 256, 256, 0, s)(b, K, N, 0.5f);

  /* cuBLAS on kernplug's stream: ordered after the fills, before bias_relu. */
  cublasHandle_t h;
  CUBLAS_OK(cublasCreate(&h));
  CUBLAS_OK(cublasSetStream(h, (cudaStream_t)kp_cuda_stream(s)));
  const float one = 1.0f, zero = 0.0f;
  /* Row-major C = A B is column-major C^T = B^T A^T: swap the operands. */
  CUBLAS_OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, N, a, K, &zero, c, N));

  /* A bias from cudaMalloc: device memory to ufunc and launch like a device_array. */
  float *bias = NULL;
  CUDA_OK(cudaMalloc((void **)&bias, N * sizeof(float)));
  float host_bias[N];
  for (int j = 0; j < N; j++) host_bias[j] = (float)(j % 7) - 3.0f;
  copy_to_device(bias, host_bias, N);
  ufunc_stream(s, times, N, bias, bias, 0.25f);
  launch(bias_relu, (M * N + 255) / 256, 256, 0, s)(c, bias, M, N);

  float got[M * N];
  copy_to_host_async(got, c, M * N, s);
  kp_stream_synchronize(s);

  /* The same on the host. */
  static float ha[M * K], hb[K * N];
  for (int i = 0; i < M * K; i++) ha[i] = (float)((i * 37 % 23) - 11) / 11.0f;
  for (int i = 0; i < K * N; i++) hb[i] = 0.5f * (float)((i * 37 % 23) - 11) / 11.0f;
  int bad = 0;
  for (int i = 0; i < M && bad < 5; i++)
    for (int j = 0; j < N && bad < 5; j++) {
      double want = 0;
      for (int k = 0; k < K; k++) want += (double)ha[i * K + k] * hb[k * N + j];
      want += 0.25 * host_bias[j];
      if (want < 0) want = 0;
      if (fabs(got[i * N + j] - want) > 1e-3 * (1 + fabs(want))) {
        fprintf(stderr, "cublas_sgemm: C[%d][%d] = %g, expected %g\n", i, j, got[i * N + j],
                want);
        bad++;
      }
    }
  CUBLAS_OK(cublasDestroy(h));
  CUDA_OK(cudaFree(bias));
  kp_stream_destroy(s);
  kp_free(a);
  kp_free(b);
  kp_free(c);
  printf("cublas_sgemm: %s backend, %dx%d @ %dx%d with cuBLAS on kernplug arrays: %s\n", backend,
         M, K, K, N, bad ? "FAIL" : "OK");
  return bad ? 1 : 0;
}
