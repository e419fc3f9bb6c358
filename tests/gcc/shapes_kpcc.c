/* Built by kpcc (clang with kernplug.so) and linked with GCC-built objects: a static kernel k
 * and a non-static helper of its own. */
#include <kernplug.h>

float add_one(float x) { return x + 1; }

__attribute__((kernel)) static void k(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] = add_one(x[i]);
}

void run_kpcc(float *x, int n) {
  float *d = kp_to_device_bytes(x, sizeof *x * (size_t)n);
  launch(k, 1, n)(d, n);
  kp_copy_to_host_bytes(x, d, sizeof *x * (size_t)n);
  kp_free(d);
}
