// A vectorize function yields grid-stride kernels per signature: the general
// one, which tests the scalar mask per operand, and variants that test nothing:
// _arrays loads every input, _first_array loads input 0 and takes the others'
// scalars. All index with 32 bits (n <= 2^30 per launch, kp_abi.h): no 64-bit
// compare. The scalar function stays callable on the host.
#include <kernplug.h>
__attribute__((vectorize("f32(f32, f32)", "int64(int64, int64)")))
static float add(float a, float b) { return a + b; }
float host_add(float a, float b) { return add(a, b); }
// PTX-LABEL: .visible .entry __kp_vec_add_0(
// PTX: .param .f32 __kp_vec_add_0_param_3,
// PTX: .param .u32 __kp_vec_add_0_param_6
// PTX: ld.param.{{u32|b32}} {{%r[0-9]+}}, [__kp_vec_add_0_param_0];
// PTX-NOT: setp.{{[a-z]+}}.{{[su]}}64
// PTX: ld.param.{{u32|b32}} {{%r[0-9]+}}, [__kp_vec_add_0_param_6];
// PTX-NOT: setp.{{[a-z]+}}.{{[su]}}64
// PTX: ret;

// PTX-LABEL: .visible .entry __kp_vec_add_0_arrays(
// PTX: ld.param.{{u32|b32}} {{%r[0-9]+}}, [__kp_vec_add_0_arrays_param_0];
// PTX-NOT: {{_param_[356]\]|setp.[a-z]+.[su]64}}
// PTX: %nctaid.x;
// PTX-NOT: {{_param_[356]\]|setp.[a-z]+.[su]64}}
// PTX: ld.global.{{f32|b32}}
// PTX-NOT: {{_param_[356]\]|setp.[a-z]+.[su]64}}
// PTX: ld.global.{{f32|b32}}
// PTX-NOT: {{_param_[356]\]|setp.[a-z]+.[su]64}}
// PTX: add.rn.f32
// PTX-NOT: {{_param_[356]\]|setp.[a-z]+.[su]64}}
// PTX: st.global.{{f32|b32}}
// PTX-NOT: {{_param_[356]\]|setp.[a-z]+.[su]64}}
// PTX: setp.lt.u32
// PTX-NOT: {{_param_[356]\]|setp.[a-z]+.[su]64}}
// PTX: ret;

// PTX-LABEL: .visible .entry __kp_vec_add_0_first_array(
// PTX-NOT: {{_param_[346]\]|setp.[a-z]+.[su]64}}
// PTX: ld.param.{{f32|b32}} {{%[fr][0-9]+}}, [__kp_vec_add_0_first_array_param_5];
// PTX-NOT: {{_param_[346]\]|setp.[a-z]+.[su]64}}
// PTX: ld.global.{{f32|b32}}
// PTX-NOT: {{_param_[346]\]|setp.[a-z]+.[su]64|ld.global}}
// PTX: add.rn.f32
// PTX-NOT: {{_param_[346]\]|setp.[a-z]+.[su]64|ld.global}}
// PTX: ret;

// PTX-LABEL: .visible .entry __kp_vec_add_1(
// PTX: .param .u64 {{(\.ptr \.align [0-9]+ )?}}__kp_vec_add_1_param_3,
// PTX-DAG: %nctaid.x;
// PTX-DAG: cvt.rn.f32.s64
// PTX-DAG: cvt.rzi.s64.f32
// PTX-DAG: st.global.{{u64|b64}}
// PTX-LABEL: .visible .entry __kp_vec_add_1_arrays(
// PTX-DAG: cvt.rn.f32.s64
// PTX-DAG: st.global.{{u64|b64}}
// PTX-LABEL: .visible .entry __kp_vec_add_1_first_array(
// PTX-DAG: cvt.rn.f32.s64
// PTX-DAG: st.global.{{u64|b64}}
