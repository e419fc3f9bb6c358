/* What GCC's half can compile but the kernels' half cannot is a GCC error naming the
 * construct: a kernel parameter of type __int128 (GCC 12 and clang 19 pass the argument
 * after it differently) and clang's ext_vector_type (tests/kernels/barrier_split_adversarial.c
 * uses it in kernels). `constant` variables are no such construct (GCC defines them, clang's
 * half refers to them): no error about `taps`. */
#include <kernplug.h>

__attribute__((kernel)) void k_wide(__int128 big, long *out) { out[0] = (long)big; }
// DIAG: diag_gnu_only.c:[[@LINE-1]]:{{[0-9]+}}: error: parameter 'big' of 'k_wide' has type '__int128': GCC 12 and clang 19 pass 128-bit integer arguments differently

typedef float kp_f4 __attribute__((ext_vector_type(4)));
// DIAG: diag_gnu_only.c:[[@LINE-1]]:{{[0-9]+}}: error: 'ext_vector_type' is a clang extension GCC does not have

__attribute__((constant)) float taps[4];
// DIAG-NOT: taps

__attribute__((kernel)) void k(float *x) { x[0] = 1; }
