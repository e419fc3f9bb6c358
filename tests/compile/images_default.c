// The images of the default settings: PTX for sm_75, which any newer GPU JIT-compiles, and
// one cubin for sm_90; filled in at the end of the host pipeline (the device job ran beside it).
#include <kernplug.h>
__attribute__((kernel)) void scale(float *x, float a, int n) {
  int i = grid(1);
  if (i < n) x[i] *= a;
}
// HOST: @__kp_module = internal global {{.*}} i64 2, ptr @__kp_images
// HOST: @__kp_ptx = private constant [{{[1-9][0-9]*}} x i8] c"{{.*}}.target sm_75{{.*}}.visible .entry scale({{.*}}\00", section ".kp_ptx"
// HOST-NEXT: @__kp_cubin_sm90 = private constant [{{[1-9][0-9]*}} x i8] c"\7FELF{{.*}}", section ".kp_cubin", align 8
// HOST-NEXT: @__kp_images = private constant [2 x {{.*}}] [{{.*}} { i64 0, i64 75, ptr @__kp_ptx, i64 {{[1-9][0-9]*}} }, {{.*}} { i64 1, i64 90, ptr @__kp_cubin_sm90, i64 {{[1-9][0-9]*}} }]
// HOST-NOT: __kp_cubin
