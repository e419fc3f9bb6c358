// Signature grammar and agreement with the prototype.
#include <kernplug.h>

__attribute__((vectorize("f32(f32"))) float unclosed(float x) { return x; }
// DIAG: [[@LINE-1]]:{{[0-9]+}}: error: malformed vectorize signature "f32(f32": expected ')' at '<end>'

__attribute__((vectorize("float32(flaot32)"))) float typo(float x) { return x; }
// DIAG: [[@LINE-1]]:{{[0-9]+}}: error: malformed vectorize signature "float32(flaot32)": unknown type name 'flaot32'

__attribute__((vectorize("f32(f32, f32)"))) float arity(float x) { return x; }
// DIAG: [[@LINE-1]]:26: error: vectorize signature "f32(f32, f32)" has 2 arguments but 'arity' has 1 parameter

__attribute__((vectorize("f32(f32) extra"))) float trailing(float x) { return x; }
// DIAG: [[@LINE-1]]:{{[0-9]+}}: error: malformed vectorize signature "f32(f32) extra": unexpected text after the signature: 'extra'

__attribute__((vectorize)) float none(float x) { return x; }
// DIAG: [[@LINE-1]]:16: error: 'vectorize' needs at least one signature string

__attribute__((vectorize(42))) float not_string(float x) { return x; }
// DIAG: [[@LINE-1]]:26: error: vectorize signatures must be string literals

__attribute__((vectorize("f32(f32)"))) void returns_void(float x) { (void)x; }
// DIAG: [[@LINE-1]]:16: error: vectorize function 'returns_void' must return an arithmetic value

__attribute__((vectorize("f32(f32)"))) float pointer_param(float *x) { return *x; }
// DIAG: [[@LINE-1]]:67: error: parameter 'x' of vectorize function 'pointer_param' must have an arithmetic type

// Both spellings, several signatures, spaces: accepted (no diagnostic).
__attribute__((vectorize("float32(float32, int32)", "f64( f64 ,i64 )", "u8(u16,u32)")))
float fine(float a, int b) { return a + b; }
// DIAG-NOT: fine
