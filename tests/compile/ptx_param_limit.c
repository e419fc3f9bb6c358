// The largest parameter list diag_kernel_params.c lets through assembles for sm_75 and sm_90.
#include <kernplug.h>

struct Fits { char c[4344]; };
__attribute__((kernel)) void at_the_limit(struct Fits f, float *out) { out[0] = f.c[0]; }
// PTX: .visible .entry at_the_limit(
// PTX-NEXT: .param .align 8 .b8 at_the_limit_param_0[4344],
// PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}at_the_limit_param_1
