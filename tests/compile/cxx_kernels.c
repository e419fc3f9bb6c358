// The kernels cxx_host.cpp launches: kernels are C, compiled by kpcc (tests/compile/cxx_link.sh).
#include <kernplug.h>

__attribute__((kernel)) void cxx_axpy(float *y, const float *x, float a, int n) {
  int i = grid(1);
  if (i < n)
    y[i] += a * x[i];
}

__attribute__((kernel)) void cxx_iota2d(int *out, int w, int h) {
  kp_int2 p = grid(2);
  if (p.x < w && p.y < h)
    out[p.y * w + p.x] = p.y * 1000 + p.x;
}

__attribute__((vectorize("int64(int64, int64)", "float32(float32, float32)")))
double cxx_add(double x, double y) {
  return x + y;
}

__attribute__((guvectorize("(i)->()"))) void cxx_sum_rows(const float *row, float *out, int i) {
  float s = 0;
  for (int k = 0; k < i; k++)
    s += row[k];
  out[0] = s;
}

__attribute__((reduce)) int cxx_max(int a, int b) { return a > b ? a : b; }
