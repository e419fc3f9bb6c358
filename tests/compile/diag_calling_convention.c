// Calling conventions kernplug cannot use: a swiftcall kernel (Swift lowering may pass a struct
// by reference, which the launch cannot tell from a pointer parameter), and any convention on
// a reduce function (kp_reduce calls it through a plain C function pointer).
#include <kernplug.h>
__attribute__((kernel, swiftcall)) void k(int *a) { a[grid(1)] = 1; }
// DIAG: diag_calling_convention.c:[[@LINE-1]]:24: error: kernel 'k' cannot use the 'swiftcall' calling convention; kernels may use the default one, ms_abi
__attribute__((reduce, ms_abi)) int add(int a, int b) { return a + b; }
// DIAG: diag_calling_convention.c:[[@LINE-1]]:24: error: reduce function 'add' cannot use the 'ms_abi' calling convention: kp_reduce calls it through a plain C function pointer
// Everything else may use one: helpers, vectorize functions, other kernels.
__attribute__((vectorcall)) static int helper(int a) { return a + 1; }
__attribute__((vectorize("i32(i32)"), swiftcall)) int inc(int x) { return helper(x); }
__attribute__((kernel, ms_abi)) void fine(int *a) { a[grid(1)] = helper(1); }
// DIAG-NOT: error:
// DIAG: 2 errors generated.
