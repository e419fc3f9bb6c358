/* sanitized_kernels.c — kernels in a file compiled with -fsanitize=undefined (and, as the
 * .asan/.tsan variants of sanitizers.cmake, address and thread): they compile (the device
 * code gets no sanitizer runtime references) and compute the same results on the CPU, where
 * the checks stay in (ubsan_overflow_expect.c shows one firing). */
#include "kernel_test.h"

enum { N = 1000, BLOCK = 128 };

__attribute__((kernel)) void affine(int *a, int n) {
  int i = grid(1);
  if (i < n) a[i] = a[i] * 3 + i;
}

/* Reverses each block's slice through shared memory (a barrier: the split CPU entry). */
__attribute__((kernel)) void reverse_blocks(const float *in, float *out, int n) {
  static __attribute__((shared)) float tile[BLOCK];
  int t = threadIdx.x, i = grid(1);
  tile[t] = i < n ? in[i] : 0.0f;
  syncthreads();
  int j = blockIdx.x * BLOCK + (BLOCK - 1 - t);
  if (j < n) out[j] = tile[t];
}

__attribute__((vectorize("f32(f32, f32)"))) float hypot2(float x, float y) { return x * x + y * y; }

int main(void) {
  kt_start("sanitized_kernels");
  int h[N];
  for (int i = 0; i < N; i++) h[i] = i - 500;
  int *d = to_device(h, N);
  launch(affine, (N + BLOCK - 1) / BLOCK, BLOCK)(d, N);
  copy_to_host(h, d, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(h[i] == (i - 500) * 3 + i, "affine[%d] = %d", i, h[i]);

  static float x[N], y[N], r[N];
  for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = (float)(N - i);
  float *dx = to_device(x, N), *dy = to_device(y, N), *dr = device_array(float, N);
  int blocks = (N + BLOCK - 1) / BLOCK;
  launch(reverse_blocks, blocks, BLOCK)(dx, dr, N);
  copy_to_host(r, dr, N);
  for (int i = 0; i < N; i++) {
    int b = i / BLOCK, t = i % BLOCK, src = b * BLOCK + (BLOCK - 1 - t);
    if (src < N) KT_CHECK(r[i] == x[src], "reverse_blocks[%d] = %g", i, r[i]);
  }

  ufunc(hypot2, N, dr, dx, dy);
  copy_to_host(r, dr, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(r[i] == x[i] * x[i] + y[i] * y[i], "hypot2[%d] = %g", i, r[i]);

  kp_free(d), kp_free(dx), kp_free(dy), kp_free(dr);
  printf("sanitized_kernels: ok\n");
  return 0;
}
