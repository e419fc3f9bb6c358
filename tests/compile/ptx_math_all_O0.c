// ptx_math_all.c at -O0: the math calls arrive unoptimised (the device code is
// still optimised), and must resolve the same way.
#include "ptx_math_all.c"
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry all_float(
// PTX: ret;
// PTX-LABEL: .visible .entry all_double(
// PTX: ret;
