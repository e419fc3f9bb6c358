// Errors located at the attribute: the shape of a kernel.
#include <kernplug.h>

__attribute__((kernel)) int returns_value(int *p) { return p[0]; }
// DIAG: diag_kernel_attribute.c:[[@LINE-1]]:16: error: kernel 'returns_value' must return void (it returns 'int')

__attribute__((kernel)) void variadic(int *p, ...) { (void)p; }
// DIAG: diag_kernel_attribute.c:[[@LINE-1]]:16: error: kernel 'variadic' cannot be variadic

__attribute__((kernel)) int not_a_function;
// DIAG: diag_kernel_attribute.c:[[@LINE-1]]:16: error: 'kernel' attribute only applies to functions

__attribute__((device)) int not_a_function_either;
// DIAG: diag_kernel_attribute.c:[[@LINE-1]]:16: error: 'device' attribute only applies to functions

__attribute__((kernel, vectorize("f32(f32)"))) void both(float x) { (void)x; }
// DIAG: diag_kernel_attribute.c:[[@LINE-1]]:24: error: 'vectorize' and 'kernel' cannot be combined on 'both'

__attribute__((kernel)) __attribute__((device)) void kernel_and_device(int *p) { p[0] = 1; }
// DIAG: diag_kernel_attribute.c:[[@LINE-1]]:54: error: 'kernel_and_device' cannot be both 'kernel' and 'device'

__attribute__((kernel)) void launched(int *p) { p[0] = 1; }
__attribute__((kernel)) void caller(int *p) { launched(p); }
// DIAG: diag_kernel_attribute.c:[[@LINE-1]]:47: error: kernel 'launched' cannot be called from device code; kernels are launched from the host with launch(launched, blocks, threads)
