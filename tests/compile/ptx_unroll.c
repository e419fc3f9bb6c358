// Device loops are unrolled to nvcc's factor (plugin/device/DeviceUnroll.cpp): a
// counted loop with a run-time trip count 16x per trip, as nvcc + ptxas do for
// a naive matmul's k loop; the user's #pragma unroll wins; grid-stride loops
// (step known only at run time) stay rolled, as in nvcc's code.
#include <kernplug.h>

__attribute__((kernel)) void dot_rows(const float *A, const float *B, float *C, int n) {
  int row = grid(1);
  if (row < n) {
    float tmp = 0.0f;
    for (int k = 0; k < n; k++) tmp += A[row * n + k] * B[k * n + row];
    C[row] = tmp;
  }
}
// PTX-LABEL: .entry dot_rows(
// PTX: and.b32 {{.*}}, 15;
// PTX: [[LOOP:\$L__BB[0-9_]+]]:{{[[:space:]]+}}.pragma "nounroll";
// PTX-COUNT-16: fma.rn.f32
// PTX-NOT: fma.rn.f32
// PTX: bra.uni [[LOOP]];

__attribute__((kernel)) void dot_rows_pragma(const float *A, const float *B, float *C, int n) {
  int row = grid(1);
  if (row < n) {
    float tmp = 0.0f;
#pragma unroll 2
    for (int k = 0; k < n; k++) tmp += A[row * n + k] * B[k * n + row];
    C[row] = tmp;
  }
}
// PTX-LABEL: .entry dot_rows_pragma(
// PTX: [[LOOP:\$L__BB[0-9_]+]]:{{[[:space:]]+}}.pragma "nounroll";
// PTX-COUNT-2: fma.rn.f32
// PTX-NOT: fma.rn.f32
// PTX: bra.uni [[LOOP]];

__attribute__((kernel)) void strided_dot(const float *x, const float *w, float *out, int n) {
  float s = 0.0f;
  for (int i = grid(1); i < n; i += gridsize(1)) s += x[i] * w[i];
  out[grid(1)] = s;
}
// PTX-LABEL: .entry strided_dot(
// PTX: fma.rn.f32
// PTX-NOT: fma.rn.f32
// PTX: ret;
