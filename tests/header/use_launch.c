// Launches with kernplug/launch.h alone (kernels are plain functions without the plugin).
#include "kernplug/launch.h"

void kernel_body(float *x, int n);

void use_launch(float *x, int n, kp_stream stream) {
  kp_launch(kernel_body, 4, 128)(x, n);
  kp_launch(kernel_body, kp_dim3(2, 2), kp_dim3(8, 8, 2), 256)(x, n);
  kp_launch(kernel_body, kp_dim3(4), 32u, (size_t)0, stream)(x, n);
}
