/* gufunc_shapes.c — guvectorize functions whose operands are blocks of several core
 * dimensions: seed 003's doubled_gufunc "(m,n)->(m,n)", a stacked matrix product
 * "(m,n),(n,p)->(m,p)", fixed sizes "(3),(3)->(3)", a repeated name "(m,m)->()", an output
 * size no input has "->(n)", outputs f writes only in part (the rest keeps its values), the
 * same array as input and output, and sizes of several integer types. Host and device arrays;
 * loop counts 0, 1, odd and more blocks than one grid has threads; zero-sized cores. */
#include "kernel_test.h"

__attribute__((guvectorize("(m,n)->(m,n)")))
void doubled_gufunc(const float *arr, float *out, int m, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) out[i * n + j] = arr[i * n + j] * 2;
}

__attribute__((guvectorize("(m,n),(n,p)->(m,p)")))
void matmul(const double *a, const double *b, double *c, long m, long n, long p) {
  for (long i = 0; i < m; i++)
    for (long j = 0; j < p; j++) {
      double s = 0;
      for (long k = 0; k < n; k++) s += a[i * n + k] * b[k * p + j];
      c[i * p + j] = s;
    }
}

/* Fixed sizes need no parameter. */
__attribute__((guvectorize("(3),(3)->(3)")))
void cross(const float *u, const float *v, float *w) {
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
}

/* A name twice in one operand: square matrices; the size is unsigned char. */
__attribute__((guvectorize("(m,m)->()")))
void trace(const int *a, long long *t, unsigned char m) {
  long long s = 0;
  for (int i = 0; i < m; i++) s += a[i * m + i];
  *t = s;
}

/* No inputs, and a size only the output has; the size is size_t. */
__attribute__((guvectorize("->(n)"))) void iota(int *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = (int)i;
}

/* Writes only the even elements: the odd ones keep what the caller had there. */
__attribute__((guvectorize("(n)->(n)")))
void evens_negated(const signed char *x, signed char *y, int n) {
  for (int i = 0; i < n; i += 2) y[i] = (signed char)-x[i];
}

static void check_doubled(long long count, int m, int n, int on_device) {
  size_t elems = (size_t)count * (size_t)(m * n) + 1;
  float *a = malloc(elems * sizeof *a), *out = malloc(elems * sizeof *out);
  for (size_t e = 0; e < elems; e++) a[e] = (float)e * 0.5f - 100, out[e] = 7;
  if (on_device) {
    float *da = to_device(a, elems), *dout = device_array_like(da);
    copy_to_device(dout, out, elems);
    gufunc(doubled_gufunc, count, da, dout, m, n);
    copy_to_host(out, dout, elems);
    kp_free(da);
    kp_free(dout);
  } else {
    gufunc(doubled_gufunc, count, a, out, m, n);
  }
  size_t used = elems - 1;
  for (size_t e = 0; e < used; e++)
    KT_CHECK(out[e] == a[e] * 2, "doubled %lldx(%d,%d) device=%d: out[%zu] = %g, want %g", count,
             m, n, on_device, e, out[e], a[e] * 2);
  KT_CHECK(out[used] == 7, "doubled %lldx(%d,%d): wrote past the end", count, m, n);
  free(a);
  free(out);
}

/* The seed: one 3x3 float32 matrix, out from device_array_like. */
static void check_seed(void) {
  float arr[3][3] = {{0.5f, -1, 2}, {3.25f, 4, -5}, {6, 7.75f, 8}};
  float out[3][3];
  float *d_out = device_array(float, 9);
  gufunc(doubled_gufunc, 1, &arr[0][0], d_out, 3, 3);
  copy_to_host(&out[0][0], d_out, 9);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      KT_CHECK(out[i][j] == arr[i][j] * 2, "seed: out[%d][%d] = %g", i, j, out[i][j]);
  kp_free(d_out);
}

/* In place: the same host array as input and output. */
static void check_in_place(void) {
  float a[4 * 2 * 3];
  for (int e = 0; e < 24; e++) a[e] = (float)e;
  gufunc(doubled_gufunc, 4, a, a, 2, 3);
  for (int e = 0; e < 24; e++) KT_CHECK(a[e] == 2.0f * e, "in place: a[%d] = %g", e, a[e]);
}

static void check_matmul(long long count, long m, long n, long p) {
  size_t na = (size_t)(count * m * n) + 1, nb = (size_t)(count * n * p) + 1;
  size_t nc = (size_t)(count * m * p) + 1;
  double *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c = malloc(nc * sizeof *c);
  for (size_t e = 0; e < na; e++) a[e] = (double)(e % 13) - 6;
  for (size_t e = 0; e < nb; e++) b[e] = (double)(e % 7) * 0.25;
  double *db = to_device(b, nb);
  gufunc(matmul, count, a, db, c, m, n, p);
  for (long long s = 0; s < count; s++)
    for (long i = 0; i < m; i++)
      for (long j = 0; j < p; j++) {
        double want = 0;
        for (long k = 0; k < n; k++) want += a[(s * m + i) * n + k] * b[(s * n + k) * p + j];
        double got = c[(s * m + i) * p + j];
        KT_CHECK(got == want, "matmul %lldx(%ld,%ld,%ld): c[%lld][%ld][%ld] = %g, want %g",
                 count, m, n, p, s, i, j, got, want);
      }
  kp_free(db);
  free(a);
  free(b);
  free(c);
}

static void check_cross(long long count) {
  size_t elems = (size_t)count * 3 + 1;
  float *u = malloc(elems * sizeof *u), *v = malloc(elems * sizeof *v), *w = malloc(elems * sizeof *w);
  for (size_t e = 0; e < elems; e++) u[e] = (float)(e % 5) - 2, v[e] = (float)(e % 3) + 1;
  gufunc(cross, count, u, v, w);
  for (long long k = 0; k < count; k++) {
    const float *a = u + 3 * k, *b = v + 3 * k, *c = w + 3 * k;
    KT_CHECK(c[0] == a[1] * b[2] - a[2] * b[1] && c[1] == a[2] * b[0] - a[0] * b[2] &&
                 c[2] == a[0] * b[1] - a[1] * b[0],
             "cross: block %lld = (%g, %g, %g)", k, c[0], c[1], c[2]);
  }
  free(u);
  free(v);
  free(w);
}

static void check_trace(long long count, unsigned char m) {
  size_t elems = (size_t)count * m * m + 1;
  int *a = malloc(elems * sizeof *a);
  long long *t = malloc((size_t)(count + 1) * sizeof *t);
  for (size_t e = 0; e < elems; e++) a[e] = (int)(e % 1000) * 1000003;
  int *da = to_device(a, elems);
  gufunc(trace, count, da, t, m);
  for (long long k = 0; k < count; k++) {
    long long want = 0;
    for (int i = 0; i < m; i++) want += a[(size_t)k * m * m + (size_t)i * m + i];
    KT_CHECK(t[k] == want, "trace %lldx(%d,%d): t[%lld] = %lld, want %lld", count, m, m, k, t[k],
             want);
  }
  kp_free(da);
  free(a);
  free(t);
}

static void check_iota(long long count, size_t n) {
  size_t elems = (size_t)count * n + 1;
  int *out = malloc(elems * sizeof *out);
  gufunc(iota, count, out, n);
  for (size_t e = 0; e + 1 < elems; e++)
    KT_CHECK(out[e] == (int)(e % n), "iota %lldx(%zu): out[%zu] = %d", count, n, e, out[e]);
  free(out);
}

/* Outputs are copied in as well as out, for host and device arrays alike. */
static void check_partial(long long count, int n, int on_device) {
  size_t elems = (size_t)count * (size_t)n + 1;
  signed char *x = malloc(elems), *y = malloc(elems);
  for (size_t e = 0; e < elems; e++) x[e] = (signed char)(e % 100), y[e] = 55;
  if (on_device) {
    signed char *dy = to_device(y, elems);
    gufunc(evens_negated, count, x, dy, n);
    copy_to_host(y, dy, elems);
    kp_free(dy);
  } else {
    gufunc(evens_negated, count, x, y, n);
  }
  for (size_t e = 0; e + 1 < elems; e++) {
    int want = (e % (size_t)n) % 2 == 0 ? -x[e] : 55;
    KT_CHECK(y[e] == want, "partial %lldx(%d) device=%d: y[%zu] = %d, want %d", count, n,
             on_device, e, y[e], want);
  }
  KT_CHECK(y[elems - 1] == 55, "partial: wrote past the end");
  free(x);
  free(y);
}

int main(void) {
  kt_start("gufunc_shapes");
  check_seed();
  check_in_place();
  static const long long counts[] = {0, 1, 5, 333, (1 << 19) + 1};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    long long k = counts[c];
    check_doubled(k, 3, 3, 0);
    check_doubled(k, 2, 5, 1);
    check_cross(k);
    check_iota(k, 4);
    check_partial(k, 5, 0);
    check_partial(k, 3, 1);
    if (k < 100000) {
      check_matmul(k, 3, 4, 2);
      check_trace(k, 5);
    }
  }
  /* Zero-sized and unit cores, a core larger than the loop. */
  check_doubled(3, 0, 4, 0);
  check_doubled(3, 4, 0, 1);
  check_doubled(2, 1, 1, 0);
  check_matmul(2, 3, 0, 2); /* n = 0: every product is an empty sum */
  check_matmul(3, 17, 9, 11);
  check_trace(2, 0);
  check_trace(3, 100);
  check_iota(7, 1);
  printf("gufunc_shapes: OK\n");
  return 0;
}
