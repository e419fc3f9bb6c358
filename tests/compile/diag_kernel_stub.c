// Function attributes that make a kernel's launch stub impossible, at the attribute.
#include <kernplug.h>

__attribute__((kernel, naked)) void naked_kernel(int *a) {}
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:24: error: 'naked' cannot be used on device code ('naked_kernel'): a naked function is host assembly, and a kernel's host symbol is a launch stub that reads its arguments

__attribute__((device, naked)) static int naked_helper(int x) {}
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:24: error: 'naked' cannot be used on device code ('naked_helper')
__attribute__((kernel)) void calls_naked(int *a) { a[0] = naked_helper(a[1]); }
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:30: note: 'naked_helper' is device code because kernel 'calls_naked' reaches it

_Noreturn __attribute__((kernel)) void noreturn_kernel(int *a) { for (;;) a[0]++; }
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:1: error: kernel 'noreturn_kernel' cannot be 'noreturn': launch(noreturn_kernel, ...)(...) returns to its caller

__attribute__((kernel, noreturn)) void gnu_noreturn(int *a) { for (;;) a[0]++; }
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:40: error: kernel 'gnu_noreturn' cannot be 'noreturn'

__attribute__((kernel, constructor)) void ctor_kernel(int *a) { a[0] = 1; }
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:24: error: kernel 'ctor_kernel' cannot be a constructor: kernels run only through launch(ctor_kernel, blocks, threads)(args...)

__attribute__((kernel, destructor(200))) void dtor_kernel(int *a) { a[0] = 1; }
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:24: error: kernel 'dtor_kernel' cannot be a destructor

__attribute__((kernel)) void real_kernel(int *a) { a[0] = 1; }
__attribute__((kernel)) void alias_kernel(int *a) __attribute__((alias("real_kernel")));
// DIAG-DAG: diag_kernel_stub.c:[[@LINE-1]]:66: error: kernel 'alias_kernel' cannot be an alias: mark the function that has the body as kernel

// What works: weak and friends, and an alias of a kernel without the attribute.
__attribute__((kernel, weak, used, cold, noinline, aligned(32))) void weak_kernel(int *a) { a[0] = 1; }
void launches_too(int *a) __attribute__((alias("real_kernel")));
