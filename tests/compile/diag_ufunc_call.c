// ufunc() calls checked against the declared signatures at compile time.
#include <kernplug.h>
#include <stdint.h>

__attribute__((vectorize("f32(f32, f32)", "i64(i64, i64)"))) double add(double a, double b) {
  return a + b;
}
// DIAG-DAG: [[@LINE-3]]:69: note: 'add' declared here

__attribute__((vectorize("u8(u8)"))) unsigned char inc(unsigned char x) { return x + 1; }

// A prototype carrying the attribute, defined later.
__attribute__((vectorize("f64(f64, f64, f64)"))) double fma3(double a, double b, double c);

float (*pick(int i))(float);

void calls(float *xf, double *xd, int64_t *xl, int *xi, const float *cf, uint8_t *u8,
           _Bool *flags, float two_d[4][4], int n) {
  ufunc(add, n, xf, xf, xf);      // f32(f32, f32)
  ufunc(add, n, xl, xl, 3);       // i64(i64, i64); 3 converted
  ufunc(add, n, xf, cf, 2.5);     // scalars convert to the signature's type
  ufunc(add, n, xf, 1, 2);        // only the output's type decides
  ufunc(inc, n, u8, flags);       // _Bool is a byte
  ufunc(fma3, n, xd, xd, 1.0, xd);
  ufunc(add, n, &two_d[0][0], cf, cf); // a 2D array, flattened
  ufunc_stream((kp_stream)0, add, n, xf, xf, xf);

  ufunc(add, n, xd, xd, xd);
  // DIAG-DAG: [[@LINE-1]]:3: error: no signature of vectorize function 'add' matches ufunc() with output f64[] and inputs (f64[], f64[]); declared signatures: "f32(f32,f32)", "i64(i64,i64)" (arrays must have the signature's element type exactly; scalars are converted)
  ufunc(add, n, xf, xf, xi);
  // DIAG-DAG: [[@LINE-1]]:3: error: no signature of vectorize function 'add' matches ufunc() with output f32[] and inputs (f32[], i32[]);
  ufunc(add, n, xl, xl, xf);
  // DIAG-DAG: [[@LINE-1]]:3: error: no signature of vectorize function 'add' matches ufunc() with output i64[] and inputs (i64[], f32[]);
  ufunc(add, n, xf, xf);
  // DIAG-DAG: [[@LINE-1]]:3: error: vectorize function 'add' takes 2 inputs but ufunc() passes 1 after the output array (declared signatures: "f32(f32,f32)", "i64(i64,i64)")
  ufunc(add, n, xf, xf, xf, xf);
  // DIAG-DAG: [[@LINE-1]]:3: error: vectorize function 'add' takes 2 inputs but ufunc() passes 3 after the output array
  ufunc(inc, n, u8);
  // DIAG-DAG: [[@LINE-1]]:3: error: vectorize function 'inc' takes 1 input but ufunc() passes 0 after the output array (declared signatures: "u8(u8)")
  ufunc(add, n, 1.0f, xf, xf);
  // DIAG-DAG: [[@LINE-1]]:3: error: the output of ufunc(add, ...) must be an array (a typed pointer), not a f32 scalar
  ufunc(add, n, cf, xf, xf);
  // DIAG-DAG: [[@LINE-1]]:3: error: the output of ufunc(add, ...) is a pointer to const f32; ufunc writes it
  ufunc_stream((kp_stream)0, fma3, n, xf, xd, xd, xd);
  // DIAG-DAG: [[@LINE-1]]:3: error: no signature of vectorize function 'fma3' matches ufunc() with output f32[] and inputs (f64[], f64[], f64[]); declared signatures: "f64(f64,f64,f64)"
  // DIAG-DAG: note: 'fma3' declared here

  // A function pointer: checked at run time only.
  ufunc(pick(n), n, xd, xd);
  // DIAG-NOT: pick
  // Exactly the errors above: the valid calls at the top pass.
  // DIAG: 9 errors generated.
}

double fma3(double a, double b, double c) { return a * b + c; }
