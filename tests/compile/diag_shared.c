#include <kernplug.h>

__attribute__((shared)) float file_scope[16];
// DIAG-DAG: [[@LINE-1]]:31: error: 'shared' variable 'file_scope' must be a static variable declared inside a kernel or device function

__attribute__((kernel)) void k(float *out) {
  __attribute__((shared)) float not_static[16];
  // DIAG-DAG: [[@LINE-1]]:33: error: 'shared' variable 'not_static' must be declared static
  static __attribute__((shared)) float scalar; // a scalar is fine
  static __attribute__((shared)) float init[2] = {1, 2};
  // DIAG-DAG: [[@LINE-1]]:40: error: 'shared' variable 'init' cannot have an initializer
  not_static[0] = scalar + init[0];
  out[0] = not_static[0];
}

void host_function(float *out) {
  static __attribute__((shared)) float s[4];
  // DIAG-DAG: [[@LINE-1]]:40: error: 'shared' variable 's' is declared in 'host_function', which is not device code
  s[0] = 1;
  out[0] = s[0];
}
