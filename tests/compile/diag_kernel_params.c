// Kernel parameters travel in the GPU's parameter space: at most 4352 bytes in all for the
// PTX kernplug emits (ptxas: "uses too much parameter space (0x1108 bytes, 0x1100 max)").
#include <kernplug.h>

struct Big { float v[2048]; }; // 8 KiB
__attribute__((kernel)) void big(struct Big b, float *out) { out[0] = b.v[0]; }
// DIAG-DAG: diag_kernel_params.c:[[@LINE-1]]:45: error: the parameters of kernel 'big' take 8192 bytes up to 'b' (8192 bytes); a GPU kernel's parameters may take at most 4352 bytes in all: pass large data through a pointer to a device array

struct Half { char c[2200]; };
__attribute__((kernel)) void two_halves(int n, struct Half a, struct Half b, float *out) {
  // DIAG-DAG: diag_kernel_params.c:[[@LINE-1]]:75: error: the parameters of kernel 'two_halves' take 4408 bytes up to 'b' (2200 bytes)
  out[n] = a.c[0] + b.c[0];
}

struct Fits { char c[4344]; };
__attribute__((kernel)) void at_the_limit(struct Fits f, float *out) { out[0] = f.c[0]; }
