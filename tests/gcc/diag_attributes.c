/* gcc -fplugin=kernplug_gcc.so: attribute errors come from GCC, at the declaration, with the
 * clang plugin's messages; clang's half does not run (each error is printed once). */
#include <kernplug.h>

__attribute__((kernel)) int k_returns(float *x) { return (int)x[0]; }
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: kernel 'k_returns' must return void (it returns 'int'); write results through a pointer argument
__attribute__((vectorize("f32(f32"))) float v_bad(float x) { return x; }
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: malformed vectorize signature 'f32(f32': expected ')'
__attribute__((vectorize("f32(f32, f32)"))) float v_count(float x) { return x; }
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: vectorize signature 'f32(f32, f32)' has 2 arguments but 'v_count' has 1 parameter
__attribute__((guvectorize("(n)->()"))) void g_count(const float *x, float *out) { *out = x[0]; }
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: guvectorize layout '(n)->()' needs 3 parameters
__attribute__((reduce)) int r_bad(int a, float b) { return a + (int)b; }
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: reduce function 'r_bad' must have the form
__attribute__((shared)) void s_fn(void) {}
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: 'shared' attribute only applies to variables
__attribute__((constant)) void c_fn(void) {}
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: 'constant' attribute only applies to variables
__attribute__((kernel, reduce)) void both(float *x) { x[0] = 0; }
// DIAG: diag_attributes.c:[[@LINE-1]]:{{[0-9]+}}: error: 'kernel' and 'reduce' cannot be combined on 'both'
// DIAG-NOT: kernel side
