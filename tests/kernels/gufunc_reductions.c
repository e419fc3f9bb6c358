/* gufunc_reductions.c — guvectorize functions that reduce their core dimension ("(i)->()"
 * and kin) run with gufunc() over n stacked rows: L2 norms (seed 002), row sums, dot products
 * of two inputs, two outputs from one input, and "()->()" (one element per index). Element
 * types f32, f64, i64, u8, u32, i16, i32; loop counts 0, 1, odd, the seed's 10 and more rows
 * than one grid has threads; core sizes 0, 1, odd; host and device arrays. Inputs are small
 * integers, so the GPU's arithmetic and the host's agree exactly. */
#include <math.h>

#include "kernel_test.h"

__attribute__((guvectorize("(i)->()"))) void l2_norm(const float *vec, float *out, int i) {
  float acc = 0;
  for (int k = 0; k < i; k++) acc += vec[k] * vec[k];
  out[0] = sqrtf(acc);
}

__attribute__((guvectorize("(n)->()"))) void row_sum(const double *row, double *sum, long n) {
  double s = 0;
  for (long k = 0; k < n; k++) s += row[k];
  *sum = s;
}

__attribute__((guvectorize("(n),(n)->()")))
void dot(const long long *a, const long long *b, long long *out, int n) {
  long long s = 0;
  for (int k = 0; k < n; k++) s += a[k] * b[k];
  out[0] = s;
}

/* Two outputs; the size is a short. */
__attribute__((guvectorize("(n)->(),()")))
void byte_stats(const unsigned char *v, unsigned *sum, unsigned char *max, short n) {
  unsigned s = 0;
  unsigned char m = 0;
  for (short k = 0; k < n; k++) {
    s += v[k];
    if (v[k] > m) m = v[k];
  }
  *sum = s;
  *max = m;
}

/* No core dimensions: one element of each operand per index. */
__attribute__((guvectorize("()->()"))) void square(const short *x, int *y) { *y = *x * *x; }

enum { LARGE = (1 << 20) + 3 }; /* more rows than one grid of the GPU has threads */
static const long long counts[] = {0, 1, 7, 10, 1000, LARGE};
enum { NCOUNTS = sizeof counts / sizeof counts[0] };

static void check_l2(long long n, int i, int on_device) {
  size_t elems = (size_t)n * (size_t)i;
  float *x = malloc((elems ? elems : 1) * sizeof *x), *out = malloc((size_t)(n + 1) * sizeof *out);
  for (size_t e = 0; e < elems; e++) x[e] = (float)((int)(e % 7) - 3);
  for (long long k = 0; k <= n; k++) out[k] = -1; /* out[n] must stay as it is */
  if (on_device) {
    float *dx = to_device(x, elems ? elems : 1), *dout = to_device(out, n + 1);
    gufunc(l2_norm, n, dx, dout, i);
    copy_to_host(out, dout, n + 1);
    kp_free(dx);
    kp_free(dout);
  } else {
    gufunc(l2_norm, n, x, out, i);
  }
  for (long long k = 0; k < n; k++) {
    double acc = 0;
    for (int j = 0; j < i; j++) acc += (double)x[k * i + j] * x[k * i + j];
    KT_CHECK(out[k] == (float)sqrt(acc), "l2_norm n=%lld i=%d device=%d: out[%lld] = %g, want %g",
             n, i, on_device, k, out[k], sqrt(acc));
  }
  KT_CHECK(out[n] == -1, "l2_norm n=%lld: wrote past the last row", n);
  free(x);
  free(out);
}

/* Seed 002's shape: the norms of 10 points on a circle of radius 5 (3-4-5 triangles). */
static void check_seed(void) {
  float coords[10][2];
  float norms[10];
  for (int k = 0; k < 10; k++) {
    coords[k][0] = (float)(k % 2 ? 3 : -4);
    coords[k][1] = (float)(k % 2 ? (k % 3 ? -4 : 4) : (k % 3 ? 3 : -3));
  }
  gufunc(l2_norm, 10, &coords[0][0], norms, 2);
  for (int k = 0; k < 10; k++) {
    float want = sqrtf(coords[k][0] * coords[k][0] + coords[k][1] * coords[k][1]);
    KT_CHECK(norms[k] == want, "seed: norms[%d] = %g, want %g", k, norms[k], want);
  }
  /* The same on the default stream, named; the result is the error code. */
  memset(norms, 0, sizeof norms);
  KT_CHECK(kp_gufunc_stream((kp_stream)0, l2_norm, 10, &coords[0][0], norms, 2) == KP_SUCCESS,
           "gufunc_stream failed");
  for (int k = 0; k < 10; k++) KT_CHECK(norms[k] == 5, "stream: norms[%d] = %g", k, norms[k]);
}

static void check_row_sum(long long n, long cols) {
  size_t elems = (size_t)n * (size_t)cols;
  double *m = malloc((elems ? elems : 1) * sizeof *m), *sums = malloc((size_t)(n ? n : 1) * sizeof *sums);
  for (size_t e = 0; e < elems; e++) m[e] = (double)(e % 11) - 5;
  gufunc(row_sum, n, m, sums, cols);
  for (long long k = 0; k < n; k++) {
    double s = 0;
    for (long j = 0; j < cols; j++) s += m[k * cols + j];
    KT_CHECK(sums[k] == s, "row_sum n=%lld cols=%ld: sums[%lld] = %g, want %g", n, cols, k,
             sums[k], s);
  }
  free(m);
  free(sums);
}

/* Two inputs, one on the device and one on the host. */
static void check_dot(long long n, int len) {
  size_t elems = (size_t)n * (size_t)len + 1;
  long long *a = malloc(elems * sizeof *a), *b = malloc(elems * sizeof *b);
  long long *out = malloc((size_t)(n + 1) * sizeof *out);
  for (size_t e = 0; e < elems; e++) a[e] = (long long)(e % 5) - 2, b[e] = (long long)(e % 9) + 1000000000LL;
  long long *da = to_device(a, elems);
  gufunc(dot, n, da, b, out, len);
  for (long long k = 0; k < n; k++) {
    long long s = 0;
    for (int j = 0; j < len; j++) s += a[k * len + j] * b[k * len + j];
    KT_CHECK(out[k] == s, "dot n=%lld len=%d: out[%lld] = %lld, want %lld", n, len, k, out[k], s);
  }
  kp_free(da);
  free(a);
  free(b);
  free(out);
}

static void check_byte_stats(long long n, short len) {
  size_t elems = (size_t)n * (size_t)len + 1;
  unsigned char *v = malloc(elems);
  unsigned *sum = malloc((size_t)(n + 1) * sizeof *sum);
  unsigned char *max = malloc((size_t)(n + 1));
  for (size_t e = 0; e < elems; e++) v[e] = (unsigned char)(e * 37 % 256);
  gufunc(byte_stats, n, v, sum, max, len);
  for (long long k = 0; k < n; k++) {
    unsigned s = 0;
    unsigned char m = 0;
    for (short j = 0; j < len; j++) {
      s += v[k * len + j];
      m = v[k * len + j] > m ? v[k * len + j] : m;
    }
    KT_CHECK(sum[k] == s && max[k] == m, "byte_stats n=%lld len=%d: [%lld] = (%u, %u), want (%u, %u)",
             n, len, k, sum[k], max[k], s, m);
  }
  free(v);
  free(sum);
  free(max);
}

static void check_square(long long n) {
  short *x = malloc((size_t)(n + 1) * sizeof *x);
  int *y = malloc((size_t)(n + 1) * sizeof *y);
  for (long long k = 0; k <= n; k++) x[k] = (short)(k % 30001 - 15000);
  int *dy = device_array(int, n + 1);
  gufunc(square, n, x, dy);
  copy_to_host(y, dy, n + 1);
  for (long long k = 0; k < n; k++)
    KT_CHECK(y[k] == x[k] * x[k], "square n=%lld: y[%lld] = %d, want %d", n, k, y[k], x[k] * x[k]);
  kp_free(dy);
  free(x);
  free(y);
}

int main(void) {
  kt_start("gufunc_reductions");
  check_seed();
  for (int c = 0; c < NCOUNTS; c++) {
    long long n = counts[c];
    check_l2(n, 2, 0);
    check_l2(n, 3, 1);
    check_row_sum(n, 5);
    check_dot(n, 3);
    check_byte_stats(n, 9);
    check_square(n);
  }
  /* Core sizes 0 and 1, odd and larger than the loop count. */
  check_l2(5, 0, 0);
  check_l2(5, 1, 1);
  check_row_sum(3, 1001);
  check_dot(2, 0);
  check_byte_stats(4, 1);
  printf("gufunc_reductions: OK\n");
  return 0;
}
