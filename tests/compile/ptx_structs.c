// Structs by value: as kernel parameters (split by the host ABI or byval) and
// as return values of device functions.
#include <kernplug.h>
typedef struct pair { float x, y; } pair;
typedef struct quad { double a, b; } quad;
typedef struct big { double v[4]; } big;
__attribute__((device)) pair polar_to_cartesian(float rho, float theta) {
  pair p = {rho * theta, rho - theta};
  return p;
}
__attribute__((kernel)) void k(pair p, quad q, big b, float *out) {
  pair c = polar_to_cartesian(p.x, p.y);
  out[grid(1)] = c.x + c.y + (float)(q.a + q.b + b.v[3]);
}
// PTX-LABEL: .visible .entry k(
// PTX: .param .align 8 .b8 k_param_{{[0-9]}}[32],
// PTX: st.global.{{f32|b32}}
