// ptx_math_all.c under -ffast-math: most calls arrive as llvm.* intrinsics
// (llvm.sin.f32, llvm.pow.f64, …), which map to the same libdevice functions.
#include "ptx_math_all.c"
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry all_float(
// PTX: ret;
// PTX-LABEL: .visible .entry all_double(
// PTX: ret;
