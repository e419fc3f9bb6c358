/* scale.c — a shared library with kernels for Python (ctypes): see scale.py and
 * docs/getting-started.md, "From Python (ctypes)".
 *
 * Built with the plugin as a shared library (kpcc -shared -fPIC scale.c -o libscale.so), it
 * needs libkernplug_rt, which comes in with it: the Python process does not link the runtime.
 * The exported functions take host pointers (NumPy arrays' data) and do the transfers
 * themselves, so the caller needs nothing from kernplug.h. Each returns 0, or the kernplug
 * error code (the message: kp_last_error_message(), which the runtime exports and ctypes
 * finds through this library). */
#include <kernplug.h>

__attribute__((kernel)) void scale_k(float *x, int n, float a) {
  for (int i = grid(1); i < n; i += gridsize(1)) x[i] *= a;
}

/* A block sum through shared memory and barriers: the thread-local copies of a shared array
 * on the CPU backend live in this library's TLS, which dlopen() must find room for too. */
__attribute__((kernel)) void block_sums_k(const float *x, int n, float *sums) {
  static __attribute__((shared)) float part[256];
  int i = grid(1);
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}

__attribute__((vectorize("f32(f32, f32)"))) float axpb(float x, float a) { return a * x + 1.0f; }

/* x[i] *= a for i < n, on the device. */
int scale(float *x, int n, float a) {
  float *d = to_device(x, n);
  launch(scale_k, 64, 256)(d, n, a);
  copy_to_host(x, d, n);
  kp_free(d);
  return (int)kp_last_error();
}

/* The sums of x's blocks of 256 elements: sums has (n + 255) / 256 elements. */
int block_sums(const float *x, int n, float *sums) {
  int blocks = (n + 255) / 256;
  float *dx = to_device(x, n), *ds = device_array(float, blocks);
  launch(block_sums_k, blocks, 256)(dx, n, ds);
  copy_to_host(sums, ds, blocks);
  kp_free(dx);
  kp_free(ds);
  return (int)kp_last_error();
}

/* out[i] = a * x[i] + 1: a ufunc on host arrays, the scalar broadcast. */
int axpb_all(const float *x, int n, float a, float *out) {
  ufunc(axpb, n, out, x, a);
  return (int)kp_last_error();
}
