// The guard-free copy of a thread loop is only made where the vectoriser could use it: a call
// of a function without a vector version (expf, which sets errno, without -fveclib) keeps the
// loop scalar either way, so such a block entry has one thread loop and one call.
#include <kernplug.h>
#include <math.h>
__attribute__((kernel)) void exp_guarded(const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) y[i] = expf(x[i]);
}
// A kernel without calls still gets its guard-free, vectorised copy.
__attribute__((kernel)) void add_guarded(const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) y[i] += x[i];
}
// HOST-LABEL: define internal void @exp_guarded.kp.cpu_block(
// HOST: call float @expf
// HOST-NOT: call float @expf
// HOST-LABEL: define internal void @exp_guarded.kp.cpu(
// HOST-LABEL: define internal void @add_guarded.kp.cpu_block(
// HOST: load <{{[0-9]+}} x float>
// HOST-LABEL: define internal void @add_guarded.kp.cpu(
