// gufunc() calls are checked against the guvectorize function's prototype at
// compile time: the header's never-taken branch calls f with the same arguments.
#include <kernplug.h>

__attribute__((guvectorize("(i)->()")))
void l2(const float *vec, float *out, int i) {
  float a = 0;
  for (int k = 0; k < i; k++) a += vec[k] * vec[k];
  out[0] = a;
}

void calls(float *x, double *xd, const float *cx, float *out) {
  gufunc(l2, 10, x, out);
  // DIAG: [[@LINE-1]]:3: error: too few arguments to function call, expected 3, have 2
  gufunc(l2, 10, x, out, 2, 3);
  // DIAG: [[@LINE-1]]:29: error: too many arguments to function call, expected 3, have 4
  gufunc(l2, 10, xd, out, 2);
  // (a warning in clang 19, an error by default in clang 22)
  // DIAG: [[@LINE-2]]:18: {{warning|error}}: incompatible pointer types passing 'double *' to parameter of type 'const float *'
  gufunc(l2, 10, x, cx, 2);
  // DIAG: [[@LINE-1]]:21: warning: passing 'const float *' to parameter of type 'float *' discards qualifiers
  gufunc(l2, 10, x, 2, out);
  // DIAG: [[@LINE-1]]:21: error: incompatible integer to pointer conversion passing 'int' to parameter of type 'float *'
  // DIAG: [[@LINE-2]]:24: error: incompatible pointer to integer conversion passing 'float *' to parameter of type 'int'
  kp_error ok = gufunc(l2, 10, x, out, 2); // DIAG-NOT: :[[@LINE]]:
  (void)ok;
}
