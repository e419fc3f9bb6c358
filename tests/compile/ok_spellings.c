// Every spelling compiles without a warning under -Wall -Wextra -Werror:
// directly, through a macro, on a prototype and on the definition.
#include <kernplug.h>
#define KERNEL __attribute__((kernel))
#define DEVICE __attribute__((device))
KERNEL void proto_kernel(float *out);
DEVICE float twice(float x);
__attribute__((vectorize("f32(f32)"))) float square(float x);
void proto_kernel(float *out) { out[grid(1)] = twice(out[0]); }
float twice(float x) { return 2 * x; }
float square(float x) { return x * x; }
__attribute__((kernel)) void direct(float *out) {
  static __attribute__((shared)) float tmp[32];
  tmp[threadIdx.x] = out[0];
  syncthreads();
  out[1] = tmp[0];
}
__attribute__((reduce)) float sum(float a, float b) { return a + b; }
