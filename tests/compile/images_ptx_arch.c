// ptx-arch= with arch=: PTX for ptx-arch (the oldest GPU it runs on), cubins for arch=.
#include <kernplug.h>
__attribute__((kernel)) void scale(float *x, float a, int n) {
  int i = grid(1);
  if (i < n) x[i] *= a;
}
// HOST: @__kp_ptx = private constant {{.*}}.target sm_75{{.*}}, section ".kp_ptx"
// HOST-NEXT: @__kp_cubin_sm80 = private constant {{.*}} c"\7FELF{{.*}}", section ".kp_cubin", align 8
// HOST-NEXT: @__kp_cubin_sm89 = private constant {{.*}} c"\7FELF{{.*}}", section ".kp_cubin", align 8
// HOST-NEXT: @__kp_images = private constant [3 x {{.*}}] [{{.*}} { i64 0, i64 75, {{.*}} { i64 1, i64 80, {{.*}} { i64 1, i64 89, {{.*}}]
