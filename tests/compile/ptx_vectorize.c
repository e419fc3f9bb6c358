// A vectorize function yields one grid-stride kernel per signature; the scalar
// function stays callable on the host.
#include <kernplug.h>
__attribute__((vectorize("f32(f32, f32)", "int64(int64, int64)")))
static float add(float a, float b) { return a + b; }
float host_add(float a, float b) { return add(a, b); }
// PTX-LABEL: .visible .entry __kp_vec_add_0(
// PTX: .param .f32 __kp_vec_add_0_param_3,
// PTX-DAG: %nctaid.x;
// PTX-DAG: ld.global.f32
// PTX-DAG: add.rn.f32
// PTX-DAG: st.global.f32
// PTX-LABEL: .visible .entry __kp_vec_add_1(
// PTX: .param .u64 __kp_vec_add_1_param_3,
// PTX-DAG: cvt.rn.f32.s64
// PTX-DAG: cvt.rzi.s64.f32
// PTX-DAG: st.global.u64
