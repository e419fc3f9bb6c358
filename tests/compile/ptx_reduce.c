// A reduce function yields one kernel __kp_reduce_<f>(n, in, out): per-warp ordered shuffle
// trees over 32-byte pieces per lane (vector loads when the input is aligned), per-warp
// partials in one shared array, one barrier. Widths 1, 4 and 8 bytes, float and integer,
// _Bool; the scalar functions stay callable on the host.
#include <kernplug.h>
__attribute__((reduce)) float fsum(float a, float b) { return a + b; }
__attribute__((reduce)) double dmax(double a, double b) { return a > b ? a : b; }
__attribute__((reduce)) unsigned char umax8(unsigned char a, unsigned char b) {
  return a > b ? a : b;
}
__attribute__((reduce)) long long lsum(long long a, long long b) { return a + b; }
__attribute__((reduce)) _Bool any(_Bool a, _Bool b) { return a || b; }
float host_use(float a, float b) { return fsum(a, b) + (float)dmax(a, b); }
// PTX-DAG: .shared .align 16 .b8 kp_reduce_partials[256];
// PTX-LABEL: .visible .entry __kp_reduce_fsum(
// PTX: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_reduce_fsum_param_0,
// PTX: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_reduce_fsum_param_1,
// PTX: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_reduce_fsum_param_2
// PTX-DAG: ld.global.nc.v4.{{f32|b32}}
// PTX-DAG: add.rn.f32
// PTX-DAG: shfl.sync.down.b32 {{.*}}, 1, 31, -1;
// PTX-DAG: shfl.sync.down.b32 {{.*}}, 16, 31, -1;
// PTX-DAG: st.shared.{{f32|b32}}
// PTX-DAG: bar.sync 0;
// PTX-DAG: ld.shared.{{f32|b32}}
// PTX-DAG: st.global.{{f32|b32}}
// PTX-LABEL: .visible .entry __kp_reduce_dmax(
// PTX-DAG: ld.global.nc.v2.{{f64|b64}}
// PTX-DAG: shfl.sync.down.b32
// PTX-DAG: st.shared.{{f64|b64}}
// PTX-DAG: bar.sync 0;
// PTX-DAG: st.global.{{f64|b64}}
// PTX-LABEL: .visible .entry __kp_reduce_umax8(
// PTX-DAG: ld.global.nc.v4.{{u32|b32}}
// PTX-DAG: max.u16
// PTX-DAG: st.shared.{{u8|b8}}
// PTX-DAG: bar.sync 0;
// PTX-DAG: st.global.{{u8|b8}}
// PTX-LABEL: .visible .entry __kp_reduce_lsum(
// PTX-DAG: add.s64
// PTX-DAG: st.shared.{{u64|b64}}
// PTX-DAG: st.global.{{u64|b64}}
// PTX-LABEL: .visible .entry __kp_reduce_any(
// PTX-DAG: st.global.{{u8|b8}}
