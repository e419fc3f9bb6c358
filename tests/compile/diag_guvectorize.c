// guvectorize: the layout grammar (NumPy's gufunc signatures), located inside
// the string, and its agreement with the prototype, located at the parameter.
#include <kernplug.h>

// ---- malformed layouts
__attribute__((guvectorize("(i->()"))) void unclosed(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:31: error: malformed guvectorize layout "(i->()": expected ',' or ')' at '->()'
__attribute__((guvectorize("(i)"))) void no_arrow(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:31: error: malformed guvectorize layout "(i)": expected ',' or '->' at '<end>'
__attribute__((guvectorize("(i,)->()"))) void empty_name(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:32: error: malformed guvectorize layout "(i,)->()": expected a dimension name at ')->()'
__attribute__((guvectorize("(i-j)->()"))) void bad_char(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:31: error: malformed guvectorize layout "(i-j)->()": expected ',' or ')' at '-j)->()'
__attribute__((guvectorize("(i)->(#)"))) void bad_char2(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:35: error: malformed guvectorize layout "(i)->(#)": unexpected character '#' at '#)' (a core dimension is a name or a positive integer)
__attribute__((guvectorize("(1i)->()"))) void digit_name(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:30: error: malformed guvectorize layout "(1i)->()": '1i' is not a dimension name (names start with a letter or '_') or a size
__attribute__((guvectorize("(i)->"))) void no_output(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:33: error: malformed guvectorize layout "(i)->": expected '(' at '<end>'; a layout needs at least one output
__attribute__((guvectorize("(i)->()x"))) void trailing(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:36: error: malformed guvectorize layout "(i)->()x": unexpected text after the layout: 'x'
__attribute__((guvectorize("(n?)->()"))) void flexible(const float *x, float *o, int n);
// DIAG: [[@LINE-1]]:30: error: malformed guvectorize layout "(n?)->()": flexible dimension 'n?' is not supported
__attribute__((guvectorize("(0)->()"))) void zero_size(const float *x, float *o);
// DIAG: [[@LINE-1]]:30: error: malformed guvectorize layout "(0)->()": fixed dimension size must be positive, not '0'
__attribute__((guvectorize("(i)(j)->()"))) void no_comma(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:32: error: malformed guvectorize layout "(i)(j)->()": expected ',' or '->' at '(j)->()'
__attribute__((guvectorize("(i),->()"))) void dangling_comma(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:33: error: malformed guvectorize layout "(i),->()": expected '(' at '->()'
__attribute__((guvectorize(""))) void empty(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:29: error: malformed guvectorize layout "": expected '(' at '<end>'

// ---- the attribute's arguments and the function's shape
__attribute__((guvectorize)) void no_layout(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:16: error: 'guvectorize' needs a layout string
__attribute__((guvectorize(3))) void not_string(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:28: error: the guvectorize layout must be a string literal such as "(n),(n)->()"
__attribute__((guvectorize("(i)->()", "(float32[:], float32[:])"))) void numba_types(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:39: error: 'guvectorize' takes only the layout string; the element types are the parameter types of 'numba_types'
__attribute__((guvectorize("(i)->()"))) int returns(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:16: error: guvectorize function 'returns' must return void (it returns 'int'); write results through its output operands
__attribute__((guvectorize("(i)->()"))) void variadic(const float *x, float *o, int i, ...);
// DIAG: [[@LINE-1]]:16: error: guvectorize function 'variadic' cannot be variadic
__attribute__((kernel, guvectorize("(i)->()"))) void with_kernel(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:24: error: 'guvectorize' and 'kernel' cannot be combined on 'with_kernel'
__attribute__((guvectorize("(i)->()"), vectorize("f32(f32)"))) void with_vectorize(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:40: error: 'vectorize' and 'guvectorize' cannot be combined on 'with_vectorize'
__attribute__((guvectorize("(i)->()"), reduce)) void with_reduce(const float *x, float *o, int i);
// DIAG: [[@LINE-1]]:40: error: 'reduce' and 'guvectorize' cannot be combined on 'with_reduce'

// ---- the prototype against the layout
__attribute__((guvectorize("(i)->()"))) void missing_size(const float *x, float *o);
// DIAG: [[@LINE-1]]:28: error: guvectorize layout "(i)->()" has 2 operands and 1 dimension name (i), so 'missing_size' needs 3 parameters: a pointer per operand, then an integer per dimension name; it has 2
__attribute__((guvectorize("(m,n)->(m,n)"))) void extra(const float *x, float *o, int m, int n, int k);
// DIAG: [[@LINE-1]]:28: error: guvectorize layout "(m,n)->(m,n)" has 2 operands and 2 dimension names (m, n), so 'extra' needs 4 parameters: a pointer per operand, then an integer per dimension name; it has 5
__attribute__((guvectorize("(3)->()"))) void fixed_only(const float *x, float *o, int n);
// DIAG: [[@LINE-1]]:28: error: guvectorize layout "(3)->()" has 2 operands and 0 dimension names, so 'fixed_only' needs 2 parameters
__attribute__((guvectorize("(i)->()"))) void scalar_operand(float x, float *o, int i);
// DIAG: [[@LINE-1]]:67: error: parameter 'x' of guvectorize function 'scalar_operand' must be a pointer to the elements of input 1 (it has type 'float')
__attribute__((guvectorize("(i),(i)->()"))) void second_output(const float *x, const float *y, float o, int i);
// DIAG: [[@LINE-1]]:102: error: parameter 'o' of guvectorize function 'second_output' must be a pointer to the elements of output 1 (it has type 'float')
// A "()" input may be a number by value; a struct may not, nor a "(i)" input.
typedef struct two_ints { int a, b; } two_ints;
__attribute__((guvectorize("(i),()->(i)"))) void by_struct(const float *x, two_ints s, float *o, int i);
// DIAG: [[@LINE-1]]:85: error: parameter 's' of guvectorize function 'by_struct' must be an integer, float or double (it has type 'two_ints'
__attribute__((guvectorize("(i),()->(i)"))) void by_value_ok(const float *x, float a, float *o, int i);
__attribute__((guvectorize("(i)->()"))) void const_output(const float *x, const float *o, int i);
// DIAG: [[@LINE-1]]:88: error: parameter 'o' of guvectorize function 'const_output' is output 1 of the layout and cannot point to const (it has type 'const float *')
__attribute__((guvectorize("(i)->()"))) void float_size(const float *x, float *o, float i);
// DIAG: [[@LINE-1]]:89: error: parameter 'i' of guvectorize function 'float_size' receives the size of dimension 'i' and must have an integer type (it has type 'float')
__attribute__((guvectorize("(i)->()"))) void pointer_size(const float *x, float *o, int *i);
// DIAG: [[@LINE-1]]:90: error: parameter 'i' of guvectorize function 'pointer_size' receives the size of dimension 'i' and must have an integer type (it has type 'int *')
__attribute__((guvectorize("(i)->()"))) void bool_size(const float *x, float *o, _Bool i);
// DIAG: [[@LINE-1]]:88: error: parameter 'i' of guvectorize function 'bool_size' receives the size of dimension 'i' and must have an integer type (it has type '_Bool')
__attribute__((guvectorize("(i)->()"))) void void_elems(const void *x, float *o, int i);
// DIAG: [[@LINE-1]]:69: error: parameter 'x' of guvectorize function 'void_elems' must point to integer, float or double elements (it has type 'const void *')
struct pt { float x, y; };
__attribute__((guvectorize("(i)->()"))) void structs(const struct pt *x, float *o, int i);
// DIAG: [[@LINE-1]]:71: error: parameter 'x' of guvectorize function 'structs' must point to integer, float or double elements (it has type 'const struct pt *')
__attribute__((guvectorize("(i)->()"))) void long_doubles(const float *x, long double *o, int i);
// DIAG: [[@LINE-1]]:88: error: parameter 'o' of guvectorize function 'long_doubles' must point to integer, float or double elements
__attribute__((guvectorize("(m,n)->(m,n)"))) void swapped(const float *x, float *o, int n, int m);
// DIAG: [[@LINE-1]]:89: warning: parameter 'n' receives the size of dimension 'm', not of 'n': sizes follow the order in which the layout first names them
// DIAG: [[@LINE-2]]:96: warning: parameter 'm' receives the size of dimension 'n', not of 'm'

// Accepted: blanks, repeated and fixed sizes, names only outputs use, no
// inputs, several outputs, any integer type for sizes, _Bool and char elements.
__attribute__((guvectorize(" ( m , m ) , (3) -> () , (k) "))) void fine1(const double *a, const float *b, double *det, long *c, unsigned m, short k) {
  det[0] = a[0] * m + b[2]; c[0] = k;
}
__attribute__((guvectorize("->(n)"))) void fine2(int *o, long long n) { for (long long i = 0; i < n; i++) o[i] = (int)i; }
__attribute__((guvectorize("()->()"))) void fine3(const _Bool *p, char *q) { *q = *p ? 'y' : 'n'; }
// DIAG-NOT: fine

// ---- the body is device code
int counter;
static int bump(int v) { return v + counter; }
// DIAG: [[@LINE-1]]:37: error: device code cannot use the non-const global variable 'counter'
__attribute__((guvectorize("(i)->()"))) void uses_global(const int *x, int *o, int i) { o[0] = bump(x[0] + i); }
// DIAG: [[@LINE-1]]:46: note: 'bump' is device code because guvectorize function 'uses_global' reaches it
