// Pointer arguments of another element type than the kernel's parameter: C only warns
// (-Wincompatible-pointer-types), kernplug makes it an error at every kernel call, through
// launch(), forall(), kp_generic and a plain call; void pointers, added const and explicit
// casts pass.
#include <kernplug.h>

__attribute__((kernel)) void scale(float *x, float a, int n) {
  int i = grid(1);
  if (i < n) x[i] *= a;
}
__attribute__((kernel)) void copy(float *dst, const float *src, int n) {
  int i = grid(1);
  if (i < n) dst[i] = src[i];
}
#define COPY_BODY(NAME, T)                                                                     \
  __attribute__((kernel)) void NAME(T *dst, const T *src, int n) {                             \
    int i = grid(1);                                                                           \
    if (i < n) dst[i] = src[i];                                                                \
  }
KP_GENERIC_KERNELS(gcopy, COPY_BODY, KP_GENERIC_REAL_TYPES)

void host(int *ip, double *dp, float *fp, void *vp, const float *cfp, long n) {
  launch(scale, 1, 32)(ip, 2.0f, 4);
  // DIAG: diag_launch_args.c:[[@LINE-1]]:24: error: argument 1 of kernel 'scale' has type 'int *', but parameter 'x' is 'float *': the kernel would read the memory as another type (cast explicitly if that is meant)
  launch(copy, 1, 32)(fp, dp, 4);
  // DIAG: diag_launch_args.c:[[@LINE-1]]:27: error: argument 2 of kernel 'copy' has type 'double *', but parameter 'src' is 'const float *'
  forall(copy, 4)(dp, fp, 4);
  // DIAG: diag_launch_args.c:[[@LINE-1]]:19: error: argument 1 of kernel 'copy' has type 'double *', but parameter 'dst' is 'float *'
  launch(kp_generic(gcopy, KP_GENERIC_REAL_TYPES, dp), 1, 32)(dp, fp, 4);
  // DIAG: diag_launch_args.c:[[@LINE-1]]:67: error: argument 2 of kernel 'gcopy_f64' has type 'float *', but parameter 'src' is 'const double *'
  scale((float *)ip, 1.0f, 4); // an explicit cast says it is meant
  launch(scale, 1, 32)(vp, 2.0f, 4);
  launch(copy, 1, 32)(fp, cfp, 4);
  launch(copy, 1, 32)(fp, fp, (int)n);
  launch(kp_generic(gcopy, KP_GENERIC_REAL_TYPES, cfp), 1, 32)(fp, cfp, 4);
  copy(fp, (const float *)dp, 4);
}
// DIAG-NOT: error: argument
