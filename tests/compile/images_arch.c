// arch= alone: PTX for the lowest listed arch and a cubin for each, as before ptx-arch=
// existed (compiled at -O0: the images are filled in at that level too).
#include <kernplug.h>
__attribute__((kernel)) void scale(float *x, float a, int n) {
  int i = grid(1);
  if (i < n) x[i] *= a;
}
// HOST: @__kp_ptx = private constant {{.*}}.target sm_80{{.*}}, section ".kp_ptx"
// HOST-NEXT: @__kp_cubin_sm80 = private constant {{.*}} c"\7FELF{{.*}}", section ".kp_cubin", align 8
// HOST-NEXT: @__kp_cubin_sm86 = private constant {{.*}} c"\7FELF{{.*}}", section ".kp_cubin", align 8
// HOST-NEXT: @__kp_cubin_sm90 = private constant {{.*}} c"\7FELF{{.*}}", section ".kp_cubin", align 8
// HOST-NEXT: @__kp_images = private constant [4 x {{.*}}] [{{.*}} { i64 0, i64 80, {{.*}} { i64 1, i64 80, {{.*}} { i64 1, i64 86, {{.*}} { i64 1, i64 90, {{.*}}]
