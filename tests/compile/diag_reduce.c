#include <kernplug.h>
__attribute__((reduce)) float mixed(float a, int b) { return a + b; }
// DIAG: [[@LINE-1]]:16: error: reduce function 'mixed' must have the form 'T mixed(T, T)' with one arithmetic type T (it is 'float (float, int)')
__attribute__((reduce)) float three(float a, float b, float c) { return a + b + c; }
// DIAG: [[@LINE-1]]:16: error: reduce function 'three' must have the form
__attribute__((kernel, reduce)) void rk(float *a) { (void)a; }
// DIAG: [[@LINE-1]]:24: error: 'reduce' and 'kernel' cannot be combined on 'rk'
__attribute__((reduce)) double good(double a, double b) { return a > b ? a : b; }
// DIAG-NOT: good
