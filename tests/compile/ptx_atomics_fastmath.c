// -ffast-math lets the compiler assume no NaNs, yet atomic max/min keep numba-cuda's NaN
// rules: kernplug.h tests NaN on the bits (above 0x7f800000 / 0x7ff0000000000000), which no
// fast-math flag can fold away.
#include <kernplug.h>
__attribute__((kernel)) void fm_f32(float *p, float v, float *out) {
  *out = atomic_max(p, v) + atomic_nanmin(p + 1, v);
}
// PTX-LABEL: .visible .entry fm_f32(
// PTX-COUNT-2: setp.{{gt|lt}}.u32 {{.*}}, 213909504{{0|1}};
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX: 213909504{{0|1}};
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: call
// PTX: ret;
__attribute__((kernel)) void fm_f64(double *p, double v, double *out) {
  *out = atomic_nanmax(p, v) + atomic_min(p + 1, v);
}
// PTX-LABEL: .visible .entry fm_f64(
// PTX: 921886843722740531{{2|3}};
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX: 921886843722740531{{2|3}};
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: call
// PTX: ret;
