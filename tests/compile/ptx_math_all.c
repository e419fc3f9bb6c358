// Every math.h function device code may call, float and double: each maps to
// libdevice (or a native instruction) and no external call is left for the
// driver to resolve. The _O0 and _fastmath variants include this file.
#define _GNU_SOURCE // exp10, sincos
#include <kernplug.h>
#include <math.h>

#define F1(f) *r++ = f(x);
#define F2(f) *r++ = f(x, y);

__attribute__((kernel)) void all_float(const float *in, float *out, int *iout, long *lout) {
  int t = grid(1);
  float x = in[3 * t], y = in[3 * t + 1], z = in[3 * t + 2];
  int n = iout[t];
  float *r = out + 96 * t;
  F1(acosf) F1(acoshf) F1(asinf) F1(asinhf) F1(atanf) F1(atanhf) F1(cbrtf) F1(ceilf)
  F1(cosf) F1(coshf) F1(erff) F1(erfcf) F1(expf) F1(exp10f) F1(exp2f) F1(expm1f)
  F1(fabsf) F1(floorf) F1(j0f) F1(j1f) F1(lgammaf) F1(logf) F1(log10f) F1(log1pf)
  F1(log2f) F1(logbf) F1(nearbyintf) F1(rintf) F1(roundf) F1(sinf) F1(sinhf) F1(sqrtf)
  F1(tanf) F1(tanhf) F1(tgammaf) F1(truncf) F1(y0f) F1(y1f)
  F2(atan2f) F2(copysignf) F2(fdimf) F2(fmaxf) F2(fminf) F2(fmodf) F2(hypotf)
  F2(nextafterf) F2(powf) F2(remainderf)
  *r++ = fmaf(x, y, z);
  *r++ = ldexpf(x, n);
  *r++ = scalbnf(x, n);
  *r++ = jnf(n, x);
  *r++ = ynf(n, x);
  *r++ = nanf("");
  *r++ = NAN + INFINITY + HUGE_VALF;
  int e, q;
  *r++ = frexpf(x, &e);
  *r++ = remquof(x, y, &q);
  float ip, s, c;
  *r++ = modff(x, &ip);
  *r++ = ip;
  sincosf(x, &s, &c);
  *r++ = s + c;
  iout[t] = e + q + ilogbf(x) + isnan(x) + isinf(x) + isfinite(x) + isnormal(x) +
            signbit(x) + fpclassify(x) + isgreater(x, y) + isgreaterequal(x, y) +
            isless(x, y) + islessequal(x, y) + islessgreater(x, y) + isunordered(x, y);
  lout[t] = lrintf(x) + llrintf(y) + lroundf(z) + llroundf(x); // llvm.lround & co. under -ffast-math
}

__attribute__((kernel)) void all_double(const double *in, double *out, int *iout, long *lout) {
  int t = grid(1);
  double x = in[3 * t], y = in[3 * t + 1], z = in[3 * t + 2];
  int n = iout[t];
  double *r = out + 96 * t;
  F1(acos) F1(acosh) F1(asin) F1(asinh) F1(atan) F1(atanh) F1(cbrt) F1(ceil)
  F1(cos) F1(cosh) F1(erf) F1(erfc) F1(exp) F1(exp10) F1(exp2) F1(expm1)
  F1(fabs) F1(floor) F1(j0) F1(j1) F1(lgamma) F1(log) F1(log10) F1(log1p)
  F1(log2) F1(logb) F1(nearbyint) F1(rint) F1(round) F1(sin) F1(sinh) F1(sqrt)
  F1(tan) F1(tanh) F1(tgamma) F1(trunc) F1(y0) F1(y1)
  F2(atan2) F2(copysign) F2(fdim) F2(fmax) F2(fmin) F2(fmod) F2(hypot)
  F2(nextafter) F2(pow) F2(remainder)
  *r++ = fma(x, y, z);
  *r++ = ldexp(x, n);
  *r++ = scalbn(x, n);
  *r++ = jn(n, x);
  *r++ = yn(n, x);
  *r++ = nan("");
  *r++ = NAN + INFINITY + HUGE_VAL;
  int e, q;
  *r++ = frexp(x, &e);
  *r++ = remquo(x, y, &q);
  double ip, s, c;
  *r++ = modf(x, &ip);
  *r++ = ip;
  sincos(x, &s, &c);
  *r++ = s + c;
  iout[t] = e + q + ilogb(x) + isnan(x) + isinf(x) + isfinite(x) + isnormal(x) +
            signbit(x) + fpclassify(x) + isgreater(x, y) + isgreaterequal(x, y) +
            isless(x, y) + islessequal(x, y) + islessgreater(x, y) + isunordered(x, y);
  lout[t] = lrint(x) + llrint(y) + lround(z) + llround(x);
}
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry all_float(
// sqrtf is IEEE-rounded, as C and nvcc's default -prec-sqrt=true want.
// PTX: sqrt.rn.f32
// PTX: ret;
// PTX-LABEL: .visible .entry all_double(
// PTX: sqrt.rn.f64
// PTX: ret;
