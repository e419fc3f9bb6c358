/* ptx_app.c — a kernel calling cu_affine, a device function of PTX that nvcc made
 * (culib.cu, linked as culib.ptx by kpcc); on the CPU backend culib_host.c's C copy runs. */
#include <stdio.h>
#include <string.h>

#include <kernplug.h>

__attribute__((device)) float cu_affine(float x, float a);

__attribute__((kernel)) void affine(float *y, const float *x, int n) {
  int i = grid(1);
  if (i < n) y[i] = cu_affine(x[i], 3.0f);
}

int main(int argc, char **argv) {
  enum { N = 300 };
  int check = !(argc > 1 && strcmp(argv[1], "launch-only") == 0);
  float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (float)i;
  float *dx = to_device(x, N), *dy = device_array(float, N);
  launch(affine, (N + 127) / 128, 128)(dy, dx, N);
  copy_to_host(y, dy, N);
  kp_free(dx);
  kp_free(dy);
  int bad = 0;
  for (int i = 0; check && i < N; i++) bad += y[i] != 3.0f * x[i] + 1.0f;
  printf("%s: %d wrong\n", bad ? "FAIL" : check ? "ok" : "launched", bad);
  return bad != 0;
}
