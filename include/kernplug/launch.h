/* kernplug/launch.h — launching kernels from the host:
 *   kp_launch(k, blocks, threads)(args...)
 *   kp_launch(k, blocks, threads, shared_bytes)(args...)
 *   kp_launch(k, blocks, threads, shared_bytes, stream)(args...)
 * blocks and threads are integers or kp_dim3(x[, y[, z]]). Calling a kernel without a launch
 * is a runtime error that names it (docs/runtime.md, "Launching"). */
#ifndef KERNPLUG_LAUNCH_H
#define KERNPLUG_LAUNCH_H

#include "detail/launch.h"

/* kp_dim3(x), kp_dim3(x, y), kp_dim3(x, y, z): the missing sizes are 1. */
#define kp_dim3(...) KP_DIM3_PICK(__VA_ARGS__, KP_DIM3_3, KP_DIM3_2, KP_DIM3_1, )(__VA_ARGS__)
/* kp_launch(k, blocks, threads[, shared_bytes[, stream]])(args...) */
#define kp_launch(...)                                                                         \
  KP_LAUNCH_PICK(__VA_ARGS__, KP_LAUNCH_5, KP_LAUNCH_4, KP_LAUNCH_3, , )(__VA_ARGS__)

#endif /* KERNPLUG_LAUNCH_H */
