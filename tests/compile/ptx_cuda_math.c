// Every function of kernplug/cuda_math.h under its CUDA name, in float and double: each is
// libdevice's __nv_<name> on the GPU, inlined, so nothing external is left and the PTX
// assembles (sm_75, sm_90). The fast intrinsics are the approximate instructions.
#include <kernplug.h>

__attribute__((kernel)) void cuda_float(float *f, int n) {
  int i = grid(1);
  float x = f[i], y = f[i + 1], s, c, v[3] = {x, y, 1.0f};
  f[i] = rsqrtf(x) + rcbrtf(x) + sinpif(x) + cospif(x) + erfinvf(x) + erfcinvf(x) +
         erfcxf(x) + normcdff(x) + normcdfinvf(x) + cyl_bessel_i0f(x) + cyl_bessel_i1f(x) +
         rhypotf(x, y) + norm3df(x, y, x) + rnorm3df(x, y, x) + norm4df(x, y, x, y) +
         rnorm4df(x, y, x, y) + normf(3, v) + rnormf(n, v);
  sincospif(x, &s, &c);
  f[i + 2] = s + c;
  f[i + 3] = __expf(x) + __exp10f(x) + __logf(y) + __log2f(y) + __log10f(y) + __sinf(x) +
             __cosf(x) + __tanf(x) + __powf(x, y) + __fdividef(x, y) + __saturatef(x);
  __sincosf(y, &s, &c);
  f[i + 4] = s * c;
}

__attribute__((kernel)) void cuda_double(double *d, int n) {
  int i = grid(1);
  double x = d[i], y = d[i + 1], s, c, v[3] = {x, y, 1.0};
  d[i] = rsqrt(x) + rcbrt(x) + sinpi(x) + cospi(x) + erfinv(x) + erfcinv(x) + erfcx(x) +
         normcdf(x) + normcdfinv(x) + cyl_bessel_i0(x) + cyl_bessel_i1(x) + rhypot(x, y) +
         norm3d(x, y, x) + rnorm3d(x, y, x) + norm4d(x, y, x, y) + rnorm4d(x, y, x, y) +
         norm(3, v) + rnorm(n, v);
  sincospi(x, &s, &c);
  d[i + 2] = s + c;
}
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry cuda_float(
// PTX-DAG: rsqrt.approx
// PTX-DAG: ex2.approx
// PTX-DAG: sin.approx
// PTX-DAG: lg2.approx
// PTX-DAG: div.approx
// PTX-DAG: cvt.sat.f32.f32
// PTX: ret;
// PTX-LABEL: .visible .entry cuda_double(
// PTX: ret;
