// At -O0 the body keeps optnone on the host while the stub is rewritten; the
// device code is still optimised (device-opt defaults to 3).
#include <kernplug.h>
__attribute__((kernel)) void foo(const float *in, float *out) {
  int i = grid(1);
  out[i] = in[i] * 2;
}
// HOST-LABEL: define {{.*}}void @foo(ptr noundef %0, ptr noundef %1)
// HOST-NOT: optnone
// HOST: call void @__kp_launch(
// HOST-LABEL: define internal void @foo.kp.body(
// HOST-LABEL: define internal void @foo.kp.cpu(
// HOST: call void @foo.kp.body(
