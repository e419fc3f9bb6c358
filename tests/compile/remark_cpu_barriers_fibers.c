// cpu-barriers=fibers keeps every kernel with barriers on fibers (to test that path).
#include <kernplug.h>

// REMARK: remark: kernplug: kernel 'uniform': barriers kept on fibers on the CPU: cpu-barriers=fibers
__attribute__((kernel)) void uniform(float *x) {
  x[threadIdx.x] += 1;
  syncthreads();
  x[threadIdx.x] *= 2;
}
