/* gufunc.c — gufunc(f, n, args...): a guvectorize function over n stacked blocks.
 *
 * The plugin generates one loop kernel per guvectorize function (kp_abi.h: GUVECTORIZE):
 * __kp_guvec_<f>(n, <f's parameters>) calls f on block k of every operand for k < n. A call
 * passes exactly f's arguments: one pointer per operand of the layout, to n blocks of its
 * core dimensions one after another (or, for a "()" input f takes by value, one number that
 * every block gets), then the size of each named core dimension. The header
 * checks those arguments against f's prototype at compile time; this file checks what only
 * the run time knows (a function pointer's target, negative sizes, too-small device arrays)
 * and stages host arrays: inputs are copied in, outputs copied in (so that elements f does
 * not write keep their values) and back. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ufunc/ufunc_common.h"

enum {
  KP_GUFUNC_MAX_ARGS = 12, /* KP_UARGS packs at most 12 */
  KP_GUFUNC_MAX_CORE = 16, /* core dimensions of one operand */
  KP_GUFUNC_WHAT = 192     /* room for an operand's description in messages */
};

/* The layout of f's kernel, from its kp_signature_desc: per operand (inputs first) its core
 * dimensions, each the index of a named size (in order of first appearance, as f's size
 * parameters) or a fixed size stored as -size. */
typedef struct layout {
  int nops, nins, nnames;
  const char *text; /* "(m,n),(n)->(m)", for messages */
  int ndims[KP_GUFUNC_MAX_ARGS];
  const int64_t *dims[KP_GUFUNC_MAX_ARGS];
  const char *const *names;
} layout;

/* Reads the descriptor's layout into L; 0 if it holds none this runtime can use. */
static int load_layout(const kp_signature_desc *s, layout *L) {
  memset(L, 0, sizeof *L);
  if (!s || s->num_operands < 1 || s->num_operands > KP_GUFUNC_MAX_ARGS ||
      s->num_inputs >= s->num_operands || s->num_dim_names > KP_GUFUNC_MAX_ARGS ||
      !s->operand_dims || (s->num_dim_names && !s->dim_names))
    return 0;
  L->nops = (int)s->num_operands;
  L->nins = (int)s->num_inputs;
  L->nnames = (int)s->num_dim_names;
  L->text = s->text ? s->text : "?";
  L->names = s->dim_names;
  const int64_t *next = s->dims;
  for (int j = 0; j < L->nops; j++) {
    if (s->operand_dims[j] > KP_GUFUNC_MAX_CORE || (s->operand_dims[j] && !next)) return 0;
    L->ndims[j] = (int)s->operand_dims[j];
    L->dims[j] = next;
    for (int d = 0; d < L->ndims[j]; d++)
      if (next[d] >= L->nnames || next[d] < -(int64_t)INT_MAX) return 0;
    if (L->ndims[j]) next += L->ndims[j];
  }
  return 1;
}

/* Elements of one block of operand j: the product of its core sizes; -1 on overflow. */
static long long block_elems(const layout *L, int j, const long long *sizes) {
  long long e = 1;
  for (int d = 0; d < L->ndims[j]; d++) {
    long long s = L->dims[j][d] >= 0 ? sizes[L->dims[j][d]] : -L->dims[j][d];
    if (__builtin_mul_overflow(e, s, &e)) return -1;
  }
  return e;
}

static const char *op_kind(const layout *L, int j) { return j < L->nins ? "input" : "output"; }
static int op_number(const layout *L, int j) { return j < L->nins ? j + 1 : j - L->nins + 1; }

/* Whether operand j is a "()" input that f takes by value (one number for every block). */
static int by_value(const kp_kernel_desc *k, const layout *L, int j) {
  return j < L->nins && L->ndims[j] == 0 && k->params[1 + j].kind == KP_PARAM_VALUE;
}

/* The by-value operand a, converted to its parameter's type as a C assignment would, at dst
 * (a slot of the parameter's size). */
static void convert_by_value(const kp_ufunc_arg *a, const kp_param_desc *p, void *dst) {
  int from = kp_elem_class_of(a->type);
#define KP_GUFUNC_CONVERT(CType)                                                                 do {                                                                                             CType t_ = from == KP_ELEM_CLASS_FLOAT  ? (CType)a->v.f                                                   : from == KP_ELEM_CLASS_SINT ? (CType)a->v.i                                                                                : (CType)a->v.u;                                       memcpy(dst, &t_, sizeof t_);                                                                 } while (0)
  int is_float = (p->flags & KP_PARAM_FLOAT) != 0, is_signed = (p->flags & KP_PARAM_SIGNED) != 0;
  if (is_float && p->size == 4) KP_GUFUNC_CONVERT(float);
  else if (is_float) KP_GUFUNC_CONVERT(double);
  else if (p->size == 1 && is_signed) KP_GUFUNC_CONVERT(int8_t);
  else if (p->size == 1) KP_GUFUNC_CONVERT(uint8_t);
  else if (p->size == 2 && is_signed) KP_GUFUNC_CONVERT(int16_t);
  else if (p->size == 2) KP_GUFUNC_CONVERT(uint16_t);
  else if (p->size == 4 && is_signed) KP_GUFUNC_CONVERT(int32_t);
  else if (p->size == 4) KP_GUFUNC_CONVERT(uint32_t);
  else if (is_signed) KP_GUFUNC_CONVERT(int64_t);
  else KP_GUFUNC_CONVERT(uint64_t);
#undef KP_GUFUNC_CONVERT
}

/* The guvectorize kernel of f and its layout, or the reported error. */
static kp_error find_kernel(const void *f, const char *fx, layout *L, kp_kernel_desc **out) {
  kp_kernel_desc *k = NULL;
  if (!f) return kp_fail(KP_ERROR_INVALID_VALUE, "gufunc(%s, ...): the function is NULL", fx);
  if (kp_registry_find_all(f, KP_KERNEL_GUVECTORIZE, &k, 1) == 0)
    return kp_registry_wrong_kind("gufunc", f, fx, KP_FUNCTION_GUVECTORIZE);
  int ok = load_layout(k->signature, L) && k->num_params == (uint64_t)(1 + L->nops + L->nnames);
  for (int j = 0; ok && j < L->nops + L->nnames; j++)
    ok = k->params[1 + j].kind == (j < L->nops ? KP_PARAM_POINTER : KP_PARAM_VALUE) ||
         by_value(k, L, j); /* a "()" input f takes by value */
  if (!ok)
    return kp_fail(KP_ERROR_INTERNAL,
                   "gufunc(%s, ...): kernel '%s' does not match the layout in its descriptor; "
                   "rebuild it with the matching plugin",
                   fx, k->name);
  *out = k;
  return KP_SUCCESS;
}

/* Checks operand argument j (a pointer to the parameter's element type). */
static kp_error check_operand(const kp_kernel_desc *k, const char *fx, const layout *L, int j,
                              const kp_ufunc_arg *a) {
  const kp_param_desc *p = &k->params[1 + j];
  if (by_value(k, L, j)) {
    if (a->is_array)
      return kp_fail(KP_ERROR_INVALID_VALUE,
                     "gufunc(%s, ...): argument %d ('%s', input %d of layout \"%s\") is taken "
                     "by value: pass a number, not an array of %s",
                     fx, j + 1, p->name, op_number(L, j), L->text,
                     kp_type_short_name(a->type));
    return KP_SUCCESS;
  }
  if (!a->is_array)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, ...): argument %d ('%s', %s %d of layout \"%s\") must be a "
                   "pointer to its elements, not a scalar (%s)",
                   fx, j + 1, p->name, op_kind(L, j), op_number(L, j), L->text,
                   kp_type_short_name(a->type));
  if (kp_type_size(a->type) != p->elem_size)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, ...): argument %d ('%s') points to %s (%zu-byte elements) but "
                   "parameter '%s' of '%s' has %llu-byte elements",
                   fx, j + 1, p->name, kp_type_short_name(a->type), kp_type_size(a->type),
                   p->name, fx, (unsigned long long)p->elem_size);
  if (j >= L->nins && a->is_const)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, ...): argument %d ('%s') is output %d of layout \"%s\" but "
                   "points to const %s; gufunc writes it",
                   fx, j + 1, p->name, op_number(L, j), L->text,
                   kp_type_short_name(a->type));
  return KP_SUCCESS;
}

/* Checks size argument d and stores its value in *out. */
static kp_error check_size(const kp_kernel_desc *k, const char *fx, const layout *L, int d,
                           const kp_ufunc_arg *a, long long *out) {
  int argno = L->nops + d + 1;
  const kp_param_desc *p = &k->params[argno];
  if (a->is_array || kp_elem_class_of(a->type) == KP_ELEM_CLASS_FLOAT)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, ...): argument %d ('%s') is the size of dimension '%s' and "
                   "must be an integer, not %s%s",
                   fx, argno, p->name, L->names[d], a->is_array ? "an array of " : "",
                   kp_type_short_name(a->type));
  int is_unsigned = kp_elem_class_of(a->type) == KP_ELEM_CLASS_UINT;
  long long v = is_unsigned ? (a->v.u > (unsigned long long)LLONG_MAX ? LLONG_MAX
                                                                      : (long long)a->v.u)
                            : a->v.i;
  if (v < 0)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, ...): argument %d ('%s'), the size of dimension '%s', is %lld; "
                   "sizes must not be negative",
                   fx, argno, p->name, L->names[d], v);
  /* The value must survive the parameter's type whatever its signedness. */
  long long max = p->size >= 8 ? LLONG_MAX : (1LL << (8 * p->size - 1)) - 1;
  if (v > max)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, ...): argument %d ('%s'), the size of dimension '%s', is %lld, "
                   "more than its %llu-byte parameter holds",
                   fx, argno, p->name, L->names[d], v, (unsigned long long)p->size);
  *out = v;
  return KP_SUCCESS;
}

/* Bytes of operand j for n blocks, or a reported error when they do not fit in memory. */
static kp_error operand_bytes(const kp_kernel_desc *k, const char *fx, const layout *L, int j,
                              long long n, const long long *sizes, long long *elems,
                              size_t *bytes) {
  long long e = block_elems(L, j, sizes), total;
  size_t b;
  if (e < 0 || __builtin_mul_overflow(e, n, &total) ||
      __builtin_mul_overflow((size_t)total, (size_t)k->params[1 + j].elem_size, &b))
    return kp_fail(KP_ERROR_OUT_OF_MEMORY,
                   "gufunc(%s, %lld, ...): argument %d ('%s') would need more bytes than "
                   "memory has",
                   fx, n, j + 1, k->params[1 + j].name);
  *elems = e;
  *bytes = b;
  return KP_SUCCESS;
}

/* Checks every argument; fills sizes. */
static kp_error check_args(const kp_kernel_desc *k, const char *fx, const layout *L,
                           long long n, int nargs, const kp_ufunc_arg *args, long long *sizes) {
  if (n < 0)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, %lld, ...): the loop count n must not be negative", fx, n);
  if (nargs != L->nops + L->nnames || !args)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "gufunc(%s, ...): '%s' takes %d arguments after n (a pointer for each of the "
                   "%d operands of layout \"%s\", then %d size%s) but the call passes %d",
                   fx, fx, L->nops + L->nnames, L->nops, L->text, L->nnames,
                   L->nnames == 1 ? "" : "s", nargs);
  kp_error err = KP_SUCCESS;
  for (int j = 0; j < L->nops && !err; j++) err = check_operand(k, fx, L, j, &args[j]);
  for (int d = 0; d < L->nnames && !err; d++)
    err = check_size(k, fx, L, d, &args[L->nops + d], &sizes[d]);
  return err;
}

/* A size stored in the width of its parameter (the kernel reads that many bytes). */
typedef union size_slot {
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
} size_slot;

static size_slot make_slot(long long v, uint64_t bytes) {
  size_slot s;
  memset(&s, 0, sizeof s);
  if (bytes == 1) s.i8 = (int8_t)v;
  else if (bytes == 2) s.i16 = (int16_t)v;
  else if (bytes == 4) s.i32 = (int32_t)v;
  else s.i64 = v;
  return s;
}

KP_EXPORT kp_error kp_gufunc_call(const void *f, const char *f_expr, long long n,
                                  kp_stream stream, int nargs, const kp_ufunc_arg *args) {
  const char *fx = f_expr ? f_expr : "?";
  layout L;
  kp_kernel_desc *k = NULL;
  long long sizes[KP_GUFUNC_MAX_ARGS] = {0};
  kp_error err = find_kernel(f, fx, &L, &k);
  if (!err) err = check_args(k, fx, &L, n, nargs, args, sizes);
  if (err || n == 0) return err;

  kp_operand ops[KP_GUFUNC_MAX_ARGS];
  memset(ops, 0, sizeof ops);
  char what[KP_GUFUNC_MAX_ARGS][KP_GUFUNC_WHAT];
  memset(what, 0, sizeof what);
  for (int j = 0; j < L.nops && !err; j++) {
    if (by_value(k, &L, j)) continue; /* passed in a slot below, never staged */
    long long elems;
    size_t bytes;
    err = operand_bytes(k, fx, &L, j, n, sizes, &elems, &bytes);
    if (err) break;
    snprintf(what[j], sizeof what[j], "gufunc(%s, ...): %s %d ('%s': %lld blocks of %lld %s)",
             fx, op_kind(&L, j), op_number(&L, j), k->params[1 + j].name, n, elems,
             kp_type_short_name(args[j].type));
    if (bytes == 0) { /* nothing to read or write: any pointer, even NULL, will do */
      ops[j].device = (void *)(uintptr_t)args[j].v.p;
      continue;
    }
    err = kp_operand_stage(&ops[j], args[j].v.p, bytes, 1, j >= L.nins, what[j]);
  }

  if (!err) {
    /* The kernel's IR parameters: n, then f's (operand pointers, sizes). */
    int64_t count = n;
    size_slot slots[KP_GUFUNC_MAX_ARGS], values[KP_GUFUNC_MAX_ARGS];
    void *kargs[1 + KP_GUFUNC_MAX_ARGS];
    int na = 0;
    kargs[na++] = &count;
    for (int j = 0; j < L.nops; j++) {
      if (by_value(k, &L, j)) {
        memset(&values[j], 0, sizeof values[j]);
        convert_by_value(&args[j], &k->params[1 + j], &values[j]);
        kargs[na++] = &values[j];
      } else {
        kargs[na++] = &ops[j].device;
      }
    }
    for (int d = 0; d < L.nnames; d++) {
      slots[d] = make_slot(sizes[d], k->params[1 + L.nops + d].size);
      kargs[na++] = &slots[d];
    }
    char call[160];
    snprintf(call, sizeof call, "gufunc(%s, ...)", fx);
    if (kp_generated_has_range(k)) { /* CPU: contiguous runs of blocks per worker */
      err = kp_launch_generated_range(k, n, 2, stream, kargs, call);
    } else {
      kp_extent blocks, threads;
      kp_grid_for(k, n, 1, &blocks, &threads);
      err = kp_launch_generated(k, blocks, threads, stream, kargs, call);
    }
  }

  /* Copy the outputs back (only after a successful launch) and free every temporary. */
  for (int j = 0; j < L.nops; j++) {
    if (err) ops[j].is_output = 0;
    kp_error e = kp_operand_finish(&ops[j], what[j]);
    if (!err) err = e;
  }
  return err;
}
