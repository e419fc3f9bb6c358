// Attribute arguments of unexpected shapes: located errors, never a crash. clang parses a lone
// identifier argument of a plugin attribute as an identifier, not an expression.
#include <kernplug.h>

__attribute__((vectorize(f32))) float ident(float a) { return a; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:26: error: 'vectorize' expects a string literal such as "f32(f32)", not the identifier 'f32'

__attribute__((vectorize(f32, "f32(f32)"))) float ident_first(float a) { return a; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:26: error: 'vectorize' expects a string literal such as "f32(f32)", not the identifier 'f32'

__attribute__((vectorize(1))) float number(float a) { return a; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:26: error: vectorize signatures must be string literals such as "f32(f32)"

__attribute__((vectorize((("f32(f32)"))))) float nested_parens(float a) { return a; }

__attribute__((guvectorize(n))) void gu_ident(const float *a, float *o, int n) { o[0] = a[n - 1]; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:28: error: 'guvectorize' expects a string literal such as "(n),(n)->()", not the identifier 'n'

__attribute__((guvectorize(1))) void gu_number(const float *a, float *o, int n) { o[0] = a[n - 1]; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:28: error: the guvectorize layout must be a string literal such as "(n),(n)->()"

__attribute__((reduce(x))) int red_ident(int a, int b) { return a + b; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:16: error: 'reduce' attribute takes no arguments

__attribute__((kernel(1))) void kernel_number(int *p) { p[0] = 1; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:16: error: 'kernel' attribute takes no arguments

__attribute__((device(1))) int device_number(int a) { return a; }
// DIAG: diag_attribute_args.c:[[@LINE-1]]:16: error: 'device' attribute takes no arguments

__attribute__((kernel)) void shared_number(int *p) {
  static __attribute__((shared(4))) int t[4];
  // DIAG: diag_attribute_args.c:[[@LINE-1]]:25: error: 'shared' attribute takes no arguments
  p[0] = t[0];
}
