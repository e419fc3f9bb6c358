/* gufunc_errors_expect.c — gufunc() calls that must stop with a message naming the gufunc
 * and the argument (gufunc.cmake checks each). What the compiler sees is checked there (the
 * header type-checks the arguments against f's prototype: tests/compile/diag_gufunc_call.c);
 * the scenarios that pass the compiler's checks call kp_gufunc_call() directly, as a
 * function pointer or a wrapper might.
 * Two scenarios, staged and large, only show on the fake CUDA driver what a call does.
 *   gufunc_errors_expect <scenario>   (scenarios: see main) */
#include <string.h>

#include "kernel_test.h"

__attribute__((guvectorize("(i)->()"))) void l2_norm(const float *vec, float *out, int i) {
  float acc = 0;
  for (int k = 0; k < i; k++) acc += vec[k] * vec[k];
  out[0] = acc;
}

__attribute__((guvectorize("(m,m)->()"))) void trace(const int *a, int *t, unsigned char m) {
  int s = 0;
  for (int k = 0; k < m; k++) s += a[k * m + k];
  *t = s;
}

__attribute__((vectorize("f32(f32)"))) float twice(float x) { return 2 * x; }

__attribute__((kernel)) void fill(float *x) { x[threadIdx.x] = 1; }

static void plain(const float *vec, float *out, int i) { out[0] = vec[0] * (float)i; }

#define ARGS(...) KP_NARGS(__VA_ARGS__), (const kp_ufunc_arg[]){KP_UARGS(__VA_ARGS__)}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gufunc_errors_expect <scenario>\n");
    return 2;
  }
  const char *s = argv[1];
  kt_start("gufunc_errors");
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4] = {0};
  const float *cout = out;
  double xd[8] = {0};
  int a[9] = {0}, t[2];
  if (strcmp(s, "negative_n") == 0) {
    gufunc(l2_norm, -1, x, out, 2);
  } else if (strcmp(s, "negative_size") == 0) {
    gufunc(l2_norm, 3, x, out, -2);
  } else if (strcmp(s, "size_too_big") == 0) {
    unsigned m = 200; /* trace's size parameter is an unsigned char */
    gufunc(trace, 1, a, t, m);
  } else if (strcmp(s, "float_size") == 0) {
    double two = 2; /* converts silently to f's int parameter; the call passes a double */
    gufunc(l2_norm, 3, x, out, two);
  } else if (strcmp(s, "not_gufunc") == 0) {
    void (*fp)(const float *, float *, int) = plain;
    gufunc(fp, 3, x, out, 2);
  } else if (strcmp(s, "vectorize") == 0) {
    kp_gufunc_call((const void *)twice, "twice", 4, 0, ARGS(out, x));
  } else if (strcmp(s, "kernel") == 0) {
    kp_gufunc_call((const void *)fill, "fill", 4, 0, ARGS(out, x));
  } else if (strcmp(s, "launched") == 0) {
    launch(l2_norm, 1, 32)(x, out, 2); /* a guvectorize function is no kernel */
  } else if (strcmp(s, "count") == 0) {
    kp_gufunc_call((const void *)l2_norm, "l2_norm", 4, 0, ARGS(x, out));
  } else if (strcmp(s, "element_type") == 0) {
    kp_gufunc_call((const void *)l2_norm, "l2_norm", 4, 0, ARGS(xd, out, 2));
  } else if (strcmp(s, "scalar_operand") == 0) {
    kp_gufunc_call((const void *)l2_norm, "l2_norm", 4, 0, ARGS(x, 1.5f, 2));
  } else if (strcmp(s, "array_size") == 0) {
    kp_gufunc_call((const void *)l2_norm, "l2_norm", 4, 0, ARGS(x, out, out));
  } else if (strcmp(s, "const_output") == 0) {
    kp_gufunc_call((const void *)l2_norm, "l2_norm", 4, 0, ARGS(x, cout, 2));
  } else if (strcmp(s, "null_input") == 0) {
    float *none = NULL;
    gufunc(l2_norm, 3, none, out, 2);
  } else if (strcmp(s, "small_device") == 0) {
    float *d = device_array(float, 5); /* 3 rows of 2 need 6 */
    gufunc(l2_norm, 3, d, out, 2);
  } else if (strcmp(s, "zero_count") == 0) {
    float *none = NULL; /* n = 0 touches no operand */
    gufunc(l2_norm, 0, none, none, 2);
    gufunc(trace, 0, (int *)NULL, (int *)NULL, 3);
  } else if (strcmp(s, "staged") == 0 || strcmp(s, "large") == 0) {
    /* For the fake driver (gufunc.cmake), which logs but runs nothing: host arrays staged
     * through device copies, the output copied in and back, one grid-stride launch. */
    long long n = s[0] == 's' ? 10 : 1000000;
    float *hx = calloc((size_t)n * 2, sizeof *hx), *hout = calloc((size_t)n, sizeof *hout);
    gufunc(l2_norm, n, hx, hout, 2);
    free(hx);
    free(hout);
  } else if (strcmp(s, "return_mode") == 0) {
    kp_set_error_mode(KP_ERRORS_RETURN);
    KT_CHECK(gufunc(l2_norm, -5, x, out, 2) == KP_ERROR_INVALID_VALUE, "negative n");
    CHECK_ERROR(KP_ERROR_INVALID_VALUE, "gufunc(l2_norm, -5, ...): the loop count n");
    KT_CHECK(gufunc(l2_norm, 2, x, out, -1) == KP_ERROR_INVALID_VALUE, "negative size");
    CHECK_ERROR(KP_ERROR_INVALID_VALUE, "sizes must not be negative");
    KT_CHECK(gufunc(l2_norm, 2, x, out, 2) == KP_SUCCESS, "a good call after errors");
    KT_CHECK(out[0] == 5 && out[1] == 25, "results after errors: %g %g", out[0], out[1]);
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    return 2;
  }
  printf("gufunc_errors %s: finished\n", s);
  return 0;
}
