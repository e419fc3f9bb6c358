// ufunc(), gufunc() and kp_reduce() with kernplug/ufunc.h alone (the functions are plain C
// without the plugin).
#include "kernplug/ufunc.h"

float axpb(float a, float x, float b);
void row_sum(const double *row, double *sum, int n);
int add(int a, int b);

int use_ufunc(float *out, const float *x, const double *rows, double *sums, const int *v,
              kp_stream stream) {
  kp_error e = kp_ufunc(axpb, 100, out, 2.0f, x, 1.0f);
  e |= kp_ufunc_stream(stream, axpb, 100, out, out, x, 0.5);
  e |= kp_gufunc(row_sum, 10, rows, sums, 3);
  e |= kp_gufunc_stream(stream, row_sum, 10, rows, sums, 3);
  return (int)e + kp_reduce(add, v, 100) + kp_reduce_init(add, v, 100, 7) +
         kp_reduce_stream(add, v, 100, 0, stream);
}
