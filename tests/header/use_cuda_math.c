// CUDA's extra math functions with kernplug/cuda_math.h alone (the kp_ names).
#include "kernplug/cuda_math.h"

double use_cuda_math(float f, double d) {
  float s, c, v[2] = {f, f};
  kp_sincospif(f, &s, &c);
  return kp_rsqrtf(f) + kp_erfinv(d) + kp_normcdff(f) + kp_cyl_bessel_i0(d) + kp_norm3df(f, f, f) +
         kp_rnormf(2, v) + kp_fast_expf(f) + kp_fast_fdividef(f, f) + kp_saturatef(f) + s + c;
}
