/* Built twice into one -fPIC shared library, with -DSCALE=2 and -DSCALE=3: two static
 * kernels named k, two static helpers named twice and two static `constant` variables named
 * scale, each file's own (their per-file names differ by the -D), none exported. */
#include <kernplug.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

static float twice(float x) { return 2 * x; }
static __attribute__((constant)) float scale = SCALE;

__attribute__((kernel)) static void k(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] = scale * twice(x[i]);
}

/* x[i] = 2 * SCALE * x[i] */
void CAT(run_part, SCALE)(float *x, int n) {
  float *d = kp_to_device_bytes(x, sizeof *x * (size_t)n);
  launch(k, 1, n)(d, n);
  kp_copy_to_host_bytes(x, d, sizeof *x * (size_t)n);
  kp_free(d);
}
