// A `constant` static local: constant memory is one variable per program, at file scope.
#include <kernplug.h>

__attribute__((kernel)) void k(float *out) {
  static __attribute__((constant)) float local[4];
  // DIAG: diag_constant_local.c:[[@LINE-1]]:42: error: constant variable 'local' must be declared at file scope
  out[0] = local[0];
}
