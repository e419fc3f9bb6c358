// A guvectorize function yields one grid-stride kernel __kp_guvec_<f>(n, <f's
// parameters>) that calls f on each block of core dimensions; f stays callable
// on the host.
#include <kernplug.h>
#include <math.h>

__attribute__((guvectorize("(i)->()")))
void l2_norm(const float *vec, float *out, int i) {
  float acc = 0;
  for (int k = 0; k < i; k++) acc += vec[k] * vec[k];
  out[0] = sqrtf(acc);
}
// PTX-LABEL: .visible .entry __kp_guvec_l2_norm(
// PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_guvec_l2_norm_param_0,
// PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_guvec_l2_norm_param_1,
// PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_guvec_l2_norm_param_2,
// PTX-NEXT: .param .u32 __kp_guvec_l2_norm_param_3
// PTX-DAG: %nctaid.x;
// PTX-DAG: ld.global.{{f32|b32}}
// PTX-DAG: sqrt.rn.f32
// PTX-DAG: st.global.{{f32|b32}}

// Sizes of any integer type; a fixed dimension needs no parameter.
__attribute__((guvectorize("(m,n),(3)->(m,n)")))
static void scaled(const double *a, const double *w, double *out, long m, unsigned char n) {
  for (long i = 0; i < m * n; i++) out[i] = a[i] * w[i % 3];
}
// PTX-LABEL: .visible .entry __kp_guvec_scaled(
// PTX: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_guvec_scaled_param_4,
// PTX-NEXT: .param .u8 __kp_guvec_scaled_param_5
// PTX-DAG: mul.rn.f64
// PTX-DAG: st.global.{{f64|b64}}

// A "()" input by value: a .f32 parameter of the kernel, not a pointer, used for every block.
__attribute__((guvectorize("(n),()->(n)")))
void axpb(const float *x, float a, float *out, int n) {
  for (int i = 0; i < n; i++) out[i] = a * x[i];
}
// PTX-LABEL: .visible .entry __kp_guvec_axpb(
// PTX: .param .f32 __kp_guvec_axpb_param_2,
// PTX: ld.param.{{f32|b32}}
// PTX: mul.rn.f32

float host_norm(const float *v, int n) {
  float r;
  l2_norm(v, &r, n);
  return r;
}
