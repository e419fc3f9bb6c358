/* ufunc_float16.c — f16 (numba's float16, C's _Float16) in vectorize signatures: a signature
 * of f16 arrays, one mixing f16 and f32, a broadcast f16 scalar, and a double scalar converted
 * to f16 by the runtime; the arrays' element types pick the signature, as for every type.
 * Each result is compared with the host's evaluation, rounded to half where the signature
 * says so. The PTX of the generated kernels assembles (compile.ptx.ufunc_float16). */
#include "kernel_test.h"

__attribute__((vectorize("f16(f16, f16)", "float32(float16, float32)")))
_Float16 axpy(_Float16 x, _Float16 y) { return (_Float16)2 * x + y; }

enum { N = 5000 };

static _Float16 host_axpy(_Float16 x, _Float16 y) { return (_Float16)2 * x + y; }

int main(void) {
  kt_start("ufunc_float16");
  static _Float16 x[N], y[N], out[N];
  static float yf[N], outf[N];
  for (int i = 0; i < N; i++) {
    x[i] = (_Float16)((float)i * 0.37f - 900.0f);
    y[i] = (_Float16)(1.0f / (float)(i + 1));
    yf[i] = (float)i * 0.001f;
  }
  int bad = 0;
  ufunc(axpy, N, out, x, y); /* f16(f16, f16) */
  for (int i = 0; i < N; i++) bad += memcmp(&out[i], &(_Float16){host_axpy(x[i], y[i])}, 2) != 0;
  ufunc(axpy, N, out, x, (_Float16)0.5f); /* a broadcast f16 scalar */
  for (int i = 0; i < N; i++) bad += (float)out[i] != (float)host_axpy(x[i], (_Float16)0.5f);
  ufunc(axpy, N, outf, x, yf); /* float32(float16, float32): y converted to f16 for axpy */
  for (int i = 0; i < N; i++) bad += outf[i] != (float)host_axpy(x[i], (_Float16)yf[i]);
  _Float16 *d_x = to_device(x, N), *d_out = device_array(_Float16, N);
  ufunc(axpy, N, d_out, d_x, (_Float16)-2); /* device arrays stay there */
  copy_to_host(out, d_out, N);
  for (int i = 0; i < N; i++) bad += (float)out[i] != (float)host_axpy(x[i], (_Float16)-2);
  kp_free(d_x), kp_free(d_out);
  KT_CHECK(bad == 0, "%d results differ from the host's", bad);
  printf("ufunc_float16: 4 calls of %d elements agree with the host\n", N);
  return 0;
}

/* PTX-LABEL: .entry __kp_vec_axpy_0(
 * PTX: ld.global.b16
 * PTX: ret;
 */
