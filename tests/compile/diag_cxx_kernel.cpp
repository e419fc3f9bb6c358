// C++ translation units cannot define kernels or device code: an error at each attribute,
// not clang's "attribute ignored" warning and then a launch that fails at run time.
#include <kernplug.h>

__attribute__((kernel)) void scale(float *x, float a) { x[0] *= a; }
// DIAG: diag_cxx_kernel.cpp:[[@LINE-1]]:16: error: kernplug: 'kernel' cannot be used in C++: kernels and device code are written in C; define them in a .c file and declare them here inside extern "C" (docs/getting-started.md, "C++")

__attribute__((device)) float twice(float x) { return 2 * x; }
// DIAG: diag_cxx_kernel.cpp:[[@LINE-1]]:16: error: kernplug: 'device' cannot be used in C++

__attribute__((vectorize("f32(f32)"))) float half(float x) { return x / 2; }
// DIAG: diag_cxx_kernel.cpp:[[@LINE-1]]:16: error: kernplug: 'vectorize' cannot be used in C++

__attribute__((reduce)) int add(int a, int b) { return a + b; }
// DIAG: diag_cxx_kernel.cpp:[[@LINE-1]]:16: error: kernplug: 'reduce' cannot be used in C++

static __attribute__((shared)) float tile[16];
// DIAG: diag_cxx_kernel.cpp:[[@LINE-1]]:23: error: kernplug: 'shared' cannot be used in C++

// The supported pattern compiles: a C kernel declared extern "C" and launched.
extern "C" void c_kernel(float *x, int n);
void host(float *d, int n) { launch(c_kernel, 1, 32)(d, n); }
