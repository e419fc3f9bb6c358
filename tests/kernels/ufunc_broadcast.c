/* ufunc_broadcast.c — scalars broadcast in every argument position: each of the 8 patterns
 * of array/scalar over three inputs, scalars of other C types converted to the signature's
 * type (as C assignment does), and the rule that picks among signatures that all accept the
 * arrays: the one whose types also equal the scalars' wins, else the first declared. The 8
 * patterns run every generated kernel of a signature: all arrays the _arrays variant, only the
 * first input an array the _first_array variant, the other six the general kernel. */
#include <stdint.h>

#include "kernel_test.h"

/* Positions matter: a - 2b + 4c tells which operand went where. */
__attribute__((vectorize("f64(f64, f64, f64)", "i32(i32, i32, i32)")))
double combine(double a, double b, double c) {
  return a - 2 * b + 4 * c;
}

/* Two signatures that both take (f32[], scalar): the scalar's type picks. */
__attribute__((vectorize("f32(f32, f32)", "f32(f32, f64)", "f32(f32, i16)")))
double add_scaled(double a, double b) {
  return a + b * 4096.0; /* exact product: a fused multiply-add rounds the same */
}

enum { N = 1003 };

static double operand(int which, long long i) { return (double)(which * 1000 + i % 97); }

static void check_positions(void) {
  static double in[3][N], out[N];
  static int32_t iin[3][N], iout[N];
  for (int w = 0; w < 3; w++)
    for (int i = 0; i < N; i++) in[w][i] = operand(w + 1, i), iin[w][i] = (int32_t)in[w][i];
  const double s[3] = {-1.5, 2.25, 7.0}; /* scalars, one per position */
  const int32_t is[3] = {-3, 11, 5};
  for (int mask = 0; mask < 8; mask++) {
    /* Every pattern spelled out: each operand is either an array or a scalar expression. */
    switch (mask) {
    case 0: ufunc(combine, N, out, in[0], in[1], in[2]); break;
    case 1: ufunc(combine, N, out, s[0], in[1], in[2]); break;
    case 2: ufunc(combine, N, out, in[0], s[1], in[2]); break;
    case 3: ufunc(combine, N, out, s[0], s[1], in[2]); break;
    case 4: ufunc(combine, N, out, in[0], in[1], s[2]); break;
    case 5: ufunc(combine, N, out, s[0], in[1], s[2]); break;
    case 6: ufunc(combine, N, out, in[0], s[1], s[2]); break;
    default: ufunc(combine, N, out, s[0], s[1], s[2]); break;
    }
    switch (mask) {
    case 0: ufunc(combine, N, iout, iin[0], iin[1], iin[2]); break;
    case 1: ufunc(combine, N, iout, is[0], iin[1], iin[2]); break;
    case 2: ufunc(combine, N, iout, iin[0], is[1], iin[2]); break;
    case 3: ufunc(combine, N, iout, is[0], is[1], iin[2]); break;
    case 4: ufunc(combine, N, iout, iin[0], iin[1], is[2]); break;
    case 5: ufunc(combine, N, iout, is[0], iin[1], is[2]); break;
    case 6: ufunc(combine, N, iout, iin[0], is[1], is[2]); break;
    default: ufunc(combine, N, iout, is[0], is[1], is[2]); break;
    }
    for (int i = 0; i < N; i++) {
      double x[3];
      int32_t ix[3];
      for (int w = 0; w < 3; w++) {
        x[w] = mask & (1 << w) ? s[w] : in[w][i];
        ix[w] = mask & (1 << w) ? is[w] : iin[w][i];
      }
      double want = combine(x[0], x[1], x[2]);
      int32_t iwant = (int32_t)combine(ix[0], ix[1], ix[2]);
      KT_CHECK(out[i] == want, "f64 mask %d i=%d: %g != %g", mask, i, out[i], want);
      KT_CHECK(iout[i] == iwant, "i32 mask %d i=%d: %d != %d", mask, i, iout[i], iwant);
    }
  }
}

/* Scalars of any arithmetic C type convert to the signature's element type. */
static void check_conversions(void) {
  static double a[N], out[N];
  static int32_t ia[N], iout[N];
  for (int i = 0; i < N; i++) a[i] = i * 0.5, ia[i] = i - 500;
  ufunc(combine, N, out, a, 3, (unsigned char)200); /* ints into f64 */
  for (int i = 0; i < N; i++) KT_CHECK(out[i] == combine(a[i], 3.0, 200.0), "int->f64 i=%d", i);
  ufunc(combine, N, iout, ia, 2.9, -1.9f); /* floats into i32: truncation, as C does */
  for (int i = 0; i < N; i++)
    KT_CHECK(iout[i] == (int32_t)combine(ia[i], 2, -1), "float->i32 i=%d: %d", i, iout[i]);
  ufunc(combine, N, iout, ia, 5000000000ll, (_Bool)1); /* i64 scalar wraps into i32 */
  for (int i = 0; i < N; i++)
    KT_CHECK(iout[i] == (int32_t)combine(ia[i], (int32_t)5000000000ll, 1), "i64->i32 i=%d", i);
}

/* 0.1 as f64 and as f32 differ; which one the kernel used shows in the result. */
static void check_preference(void) {
  static float a[N], out[N];
  for (int i = 0; i < N; i++) a[i] = (float)i / 7.0f;
  ufunc(add_scaled, N, out, a, 0.1); /* double scalar: "f32(f32, f64)" */
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == (float)add_scaled(a[i], 0.1), "f64 scalar i=%d", i);
  ufunc(add_scaled, N, out, a, 0.1f); /* float scalar: "f32(f32, f32)" */
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == (float)add_scaled(a[i], (double)0.1f), "f32 scalar i=%d", i);
  ufunc(add_scaled, N, out, a, (short)-7); /* short: "f32(f32, i16)" */
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == (float)add_scaled(a[i], -7.0), "i16 scalar i=%d", i);
  ufunc(add_scaled, N, out, a, 3); /* int matches none exactly: the first, f32 */
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == (float)add_scaled(a[i], 3.0f), "int scalar i=%d", i);
  /* The difference is real: f32(0.1) and f64(0.1) give different results somewhere. */
  int differs = 0;
  for (int i = 0; i < N; i++)
    differs += (float)add_scaled(a[i], 0.1) != (float)add_scaled(a[i], (double)0.1f);
  KT_CHECK(differs > 0, "the preference test cannot tell the signatures apart");
}

/* Only the output decides when every input is a scalar; n elements all get the value. */
static void check_all_scalars(void) {
  static int32_t iout[N];
  ufunc(combine, N, iout, 1, 2, 3);
  for (int i = 0; i < N; i++) KT_CHECK(iout[i] == 9, "all scalars i=%d: %d", i, iout[i]);
}

int main(void) {
  kt_start("ufunc_broadcast");
  check_positions();
  check_conversions();
  check_preference();
  check_all_scalars();
  printf("ufunc_broadcast: OK\n");
  return 0;
}
