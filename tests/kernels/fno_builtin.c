/* fno_builtin.c — memset, memcpy and memmove in device code, built with -fno-builtin
 * (fno_builtin.cmake): clang then leaves them as calls, which the GPU has no library for;
 * the plugin turns them into LLVM's memory intrinsics. */
#include "kernel_test.h"

#include <string.h>

enum { W = 8, N = 64 };

__attribute__((kernel)) void fill(int *out, const int *in, int n) {
  int i = grid(1);
  if (i >= n) return;
  int buf[W + 2];
  memset(buf, i % 3 ? 0 : 0xff, sizeof buf);           /* a byte only known at run time */
  memcpy(buf + 1, in + W * i, W * sizeof(int));
  memmove(buf + 2, buf + 1, (W - 1) * sizeof(int));     /* overlapping: shifts by one */
  memcpy(out + W * i, buf, W * sizeof(int));
}

int main(void) {
  kt_start("fno_builtin");
  int in[W * N], out[W * N];
  for (int k = 0; k < W * N; k++) in[k] = k;
  int *din = to_device(in, W * N), *dout = device_array(int, W * N);
  launch(fill, 2, 32)(dout, din, N);
  copy_to_host(out, dout, W * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < W; j++) {
      int want = j == 0 ? (i % 3 ? 0 : -1) : j == 1 ? in[W * i] : in[W * i + j - 2];
      KT_CHECK(out[W * i + j] == want, "out[%d][%d] = %d, expected %d", i, j, out[W * i + j],
               want);
    }
  kp_free(din);
  kp_free(dout);
  puts("fno_builtin: OK");
  return 0;
}
