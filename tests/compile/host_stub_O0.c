// At -O0 the body keeps optnone on the host while the stub is rewritten; the
// device code is still optimised (device-opt defaults to 3).
#include <kernplug.h>
__attribute__((device)) static int lane_plus_y(void) { return laneid() + (int)threadIdx.y; }
__attribute__((kernel)) void foo(const float *in, float *out) {
  int i = grid(1);
  out[i] = in[i] * 2 + lane_plus_y();
}
// HOST-LABEL: define {{.*}}void @foo(ptr noundef %0, ptr noundef %1)
// HOST-NOT: optnone
// HOST: call void @__kp_launch(
// A device function that reads thread indices gets a copy for the CPU block
// entry that reads them from its last parameter (laneid: linear id % 32).
// HOST-LABEL: define internal i32 @lane_plus_y.kp.blk(ptr
// HOST-NOT: call i32 @kp_dev_
// HOST: urem i32 %{{[0-9]+}}, 32
// HOST-NOT: call i32 @kp_dev_
// HOST-LABEL: define internal void @foo.kp.cpu_block(
// HOST: call i32 @kp_dev_ctaid_x()
// The body is inlined even at -O0 (always_inline), the helper is not.
// HOST: call i32 @lane_plus_y.kp.blk(ptr
// HOST-LABEL: define internal void @foo.kp.cpu(
// HOST: call void @foo.kp.cpu_block(
