/* kernplug/ufunc.h — running vectorize, guvectorize and reduce functions from the host
 * (docs/ufuncs.md).
 *
 * ufunc(f, n, out, in...) runs a vectorize function element-wise. Each argument is packed
 * with its element type: a typed pointer is an array of n elements (host or device), an
 * arithmetic value is a scalar broadcast to every element. The array element types pick the
 * signature among those f declares.
 *
 * gufunc(f, n, args...) runs a guvectorize function over n stacked blocks (docs/ufuncs.md,
 * "guvectorize and gufunc()"). The arguments are exactly f's: one pointer per operand of f's
 * layout, to n blocks of the operand's core dimensions one after another (host or device
 * arrays), then the size of each named core dimension. For f = l2_norm with layout
 * "(i)->()", gufunc(l2_norm, 10, &xy[0][0], norms, 2) computes the norms of the 10 rows of
 * float xy[10][2]. At most 12 arguments after n.
 *
 * kp_reduce(f, in, n) folds the n elements of in (a host or device array) with the reduce
 * function T f(T, T) (docs/ufuncs.md, "reduce and kp_reduce()"):
 *   kp_reduce(f, in, n)                        f over in[0..n-1]; 0 when n == 0
 *   kp_reduce_init(f, in, n, init)             f(init, that); init when n == 0
 *   kp_reduce_stream(f, in, n, init, stream)   the same, its kernels on `stream`
 * Each returns a T, the element type of *in, which must be f's type: the compiler checks f
 * against it and the runtime checks f's kernel. f must be associative; it need not be
 * commutative (elements are combined in index order, grouped as a tree). The name `reduce`
 * is the attribute and is never a macro: there is no short name for kp_reduce.
 */
#ifndef KERNPLUG_UFUNC_H
#define KERNPLUG_UFUNC_H

#include "stream.h"
#include "runtime.h"
#include "detail/ufunc.h"
#include "detail/reduce.h"

/* kp_ufunc(f, n, out, in...) and kp_ufunc_stream(stream, f, n, out, in...). */
#define kp_ufunc(f, n, ...) kp_ufunc_stream((kp_stream)0, f, n, __VA_ARGS__)
#ifndef __cplusplus
#define kp_ufunc_stream(stream, f, n, ...)                                                     \
  kp_ufunc_call((const void *)(f), #f, (long long)(n), (stream), KP_NARGS(__VA_ARGS__),        \
                (const kp_ufunc_arg[]){KP_UARGS(__VA_ARGS__)})
#else /* detail/ufunc.h */
#define kp_ufunc_stream(stream, f, n, ...)                                                     \
  kp_ufunc_call_of((const void *)(f), #f, (long long)(n), (stream), __VA_ARGS__)
#endif

/* kp_gufunc(f, n, args...) and kp_gufunc_stream(stream, f, n, args...). The branch that
 * never runs calls f itself, so that the compiler checks the arguments against f's
 * prototype (their number, the pointer types); only kp_gufunc_call is evaluated. */
#define kp_gufunc(f, n, ...) kp_gufunc_stream((kp_stream)0, f, n, __VA_ARGS__)
#ifndef __cplusplus
#define kp_gufunc_stream(stream, f, n, ...)                                                    \
  (0 ? ((void)(f)(__VA_ARGS__), KP_SUCCESS)                                                    \
     : kp_gufunc_call((const void *)(f), #f, (long long)(n), (stream), KP_NARGS(__VA_ARGS__),  \
                      (const kp_ufunc_arg[]){KP_UARGS(__VA_ARGS__)}))
#else
#define kp_gufunc_stream(stream, f, n, ...)                                                    \
  (0 ? ((void)(f)(__VA_ARGS__), KP_SUCCESS)                                                    \
     : kp_gufunc_call_of((const void *)(f), #f, (long long)(n), (stream), __VA_ARGS__))
#endif

#define kp_reduce(f, in, n)                                                                    \
  KP_REDUCE_PICK(in)((f), #f, (in), (long long)(n), 0, 0, (kp_stream)0)
#define kp_reduce_init(f, in, n, init)                                                         \
  KP_REDUCE_PICK(in)((f), #f, (in), (long long)(n), 1, (init), (kp_stream)0)
#define kp_reduce_stream(f, in, n, init, stream)                                               \
  KP_REDUCE_PICK(in)((f), #f, (in), (long long)(n), 1, (init), (stream))

#endif /* KERNPLUG_UFUNC_H */
