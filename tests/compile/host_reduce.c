// Reduce kernels in the host object: a descriptor per reduce function whose host_fn is the
// function itself (kp_reduce finds the kernel through it), flag KP_KERNEL_REDUCE (32) only —
// the host copy is the per-block fold, without barriers or shuffles, so no fibers —, the
// three parameters n, in, out, the element type as the signature, the 256 bytes of shared
// partials; no stub replaces the function, which stays callable.
#include <kernplug.h>
__attribute__((reduce)) float fsum(float a, float b) { return a + b; }
__attribute__((reduce)) unsigned char umax8(unsigned char a, unsigned char b) {
  return a > b ? a : b;
}
float twice(float x) { return fsum(x, x); }
// HOST: @__kp_kernels = internal global [2 x {{.*}}] [{{.*}} { ptr @{{.*}}, ptr @fsum, ptr @__kp_reduce_fsum.kp.cpu, ptr @__kp_module, i64 32, i64 3, ptr @__kp_params.__kp_reduce_fsum, ptr @{{.*}}, i64 256, {{.*}} { ptr @{{.*}}, ptr @umax8, ptr @__kp_reduce_umax8.kp.cpu, ptr @__kp_module, i64 32, i64 3,
// HOST: c"f32\00"
// HOST: c"in\00"
// HOST: c"u8\00"
// HOST: define {{.*}}float @fsum(float
// HOST-NEXT: fadd
// HOST-NOT: call {{.*}}@kp_dev_syncthreads
// HOST-NOT: call {{.*}}@kp_dev_shfl_down
// HOST-NOT: call {{.*}}@__kp_launch
