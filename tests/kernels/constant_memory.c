/* constant_memory.c — file-scope `constant` variables filled at run time with
 * kp_copy_to_constant (CUDA C's __constant__ + cudaMemcpyToSymbol): kernels read the values
 * copied last, a refill between launches takes effect, an offset copy changes only its
 * range, a struct and an initialised scalar work, and host code reads the host copy. */
#include "kernel_test.h"

typedef struct affine {
  float scale, shift;
} affine;

enum { TAPS = 16, N = 4000 };

__attribute__((constant)) float taps[TAPS];
__attribute__((constant)) affine transform;
static __attribute__((constant)) int bias = 7; /* an initial value, replaced later */

/* out[i] = transform(sum_k taps[k] * in[i + k]) + bias */
__attribute__((kernel)) void fir(const float *in, float *out, int n) {
  int i = grid(1);
  if (i >= n) return;
  float acc = 0;
  for (int k = 0; k < TAPS; k++) acc += taps[k] * in[i + k];
  out[i] = acc * transform.scale + transform.shift + (float)bias;
}

static void check(const float *in, const float *out, const float *t, affine a, int b,
                  const char *what) {
  for (int i = 0; i < N; i++) {
    float acc = 0;
    for (int k = 0; k < TAPS; k++) acc += t[k] * in[i + k];
    float want = acc * a.scale + a.shift + (float)b;
    KT_CHECK(out[i] == want, "%s: out[%d] = %g, expected %g", what, i, out[i], want);
  }
}

int main(void) {
  kt_start("constant_memory");
  float *in = managed_array(float, N + TAPS), *out = managed_array(float, N);
  for (int i = 0; i < N + TAPS; i++) in[i] = (float)(i % 13) - 6;
  float t[TAPS];
  for (int k = 0; k < TAPS; k++) t[k] = (float)(k + 1) / 8;
  affine a = {2.0f, -1.0f};

  KT_CHECK(bias == 7, "the host copy starts with the initializer: %d", bias);
  KT_CHECK(kp_copy_to_constant(taps, t, sizeof t) == KP_SUCCESS, "copy taps");
  KT_CHECK(kp_copy_to_constant(transform, &a, sizeof a) == KP_SUCCESS, "copy transform");
  launch(fir, (N + 127) / 128, 128)(in, out, N);
  kp_synchronize();
  check(in, out, t, a, 7, "first fill, initial bias");

  /* A refill between launches, a partial copy at an offset, a new scalar. */
  for (int k = 0; k < TAPS; k++) t[k] = k % 2 ? 0.5f : -0.25f;
  kp_copy_to_constant(taps, t, sizeof t);
  float tail[4] = {3, 3, 3, 3};
  kp_copy_to_constant_offset(taps, tail, sizeof tail, 12 * sizeof(float));
  for (int k = 12; k < 16; k++) t[k] = 3;
  int b = -2;
  kp_copy_to_constant(bias, &b, sizeof b);
  KT_CHECK(bias == -2 && taps[13] == 3, "host copy after the copies: bias %d, taps[13] %g", bias,
           taps[13]);
  launch(fir, (N + 127) / 128, 128)(in, out, N);
  kp_synchronize();
  check(in, out, t, a, -2, "refilled");
  kp_free(in);
  kp_free(out);
  printf("constant_memory: kernels read the values copied last\n");
  return 0;
}
