/* ufunc.c — ufunc(f, n, out, in...): a vectorize function over n elements.
 *
 * The plugin generates one element-wise kernel per signature of f (kp_abi.h: VECTORIZE). A
 * call picks the signature from the element types of its arrays: the output and every array
 * input must have exactly the signature's type; scalars are converted to it. When several
 * signatures accept the arrays, the one whose types also equal the scalars' wins (the first
 * declared on a tie). The plugin rejects at compile time what it can see; this file reports
 * the rest (a function pointer whose target only the run time knows). Host arrays go through
 * ufunc_common.c's staging; device arrays are used in place.
 *
 * Each signature has a general kernel (kp_abi.h), which tests a mask per operand for broadcast
 * scalars, and variants without the tests for the common shapes of a call: every input an
 * array, or only the first (f(x, mean, sigma)). All index with 32 bits, so more than
 * KP_UFUNC_CHUNK elements go in several launches over consecutive ranges. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ufunc/ufunc_common.h"

enum {
  KP_UFUNC_MAX_SIGNATURES = 64,
  KP_UFUNC_MAX_KERNELS = 3 * KP_UFUNC_MAX_SIGNATURES, /* a general kernel and 2 variants each */
  KP_UFUNC_CHUNK = 1 << 30, /* elements per launch: the kernels' 32-bit index (kp_abi.h) */
  KP_UFUNC_MAX_ARGS = 12, /* KP_UARGS packs at most 12: the output and 11 inputs */
  KP_UFUNC_LIST = 512     /* room for a list of signatures or argument types in messages */
};

/* A canonical signature ("f32(f32,i32)") as type codes. */
typedef struct parsed_sig {
  int result;
  int nparams;
  int params[KP_UFUNC_MAX_ARGS];
} parsed_sig;

static int parse_sig(const char *s, parsed_sig *out) {
  if (!s) return 0;
  const char *open = strchr(s, '(');
  if (!open || (out->result = kp_type_from_short_name(s, (size_t)(open - s))) < 0) return 0;
  out->nparams = 0;
  const char *p = open + 1;
  if (*p == ')') return p[1] == '\0';
  for (;;) {
    size_t len = strcspn(p, ",)");
    int code = kp_type_from_short_name(p, len);
    if (code < 0 || out->nparams == KP_UFUNC_MAX_ARGS) return 0;
    out->params[out->nparams++] = code;
    p += len;
    if (*p == ')') return p[1] == '\0';
    if (*p != ',') return 0;
    p++;
  }
}

static int is_signed_type(int t) { return t >= KP_TYPE_I8 && t <= KP_TYPE_I64; }
static int is_float_type(int t) { return t == KP_TYPE_F32 || t == KP_TYPE_F64; }

/* Stores the scalar a, converted to type `to` as a C assignment would, at dst. */
static void convert_scalar(const kp_ufunc_arg *a, int to, void *dst) {
#define KP_STORE(x)                                                                            \
  switch (to) {                                                                                \
  case KP_TYPE_I8: { int8_t t = (int8_t)(x); memcpy(dst, &t, sizeof t); break; }               \
  case KP_TYPE_I16: { int16_t t = (int16_t)(x); memcpy(dst, &t, sizeof t); break; }            \
  case KP_TYPE_I32: { int32_t t = (int32_t)(x); memcpy(dst, &t, sizeof t); break; }            \
  case KP_TYPE_I64: { int64_t t = (int64_t)(x); memcpy(dst, &t, sizeof t); break; }            \
  case KP_TYPE_U8: { uint8_t t = (uint8_t)(x); memcpy(dst, &t, sizeof t); break; }             \
  case KP_TYPE_U16: { uint16_t t = (uint16_t)(x); memcpy(dst, &t, sizeof t); break; }          \
  case KP_TYPE_U32: { uint32_t t = (uint32_t)(x); memcpy(dst, &t, sizeof t); break; }          \
  case KP_TYPE_U64: { uint64_t t = (uint64_t)(x); memcpy(dst, &t, sizeof t); break; }          \
  case KP_TYPE_F32: { float t = (float)(x); memcpy(dst, &t, sizeof t); break; }                \
  default: { double t = (double)(x); memcpy(dst, &t, sizeof t); break; }                       \
  }
  if (is_float_type(a->type)) {
    KP_STORE(a->v.f)
  } else if (is_signed_type(a->type)) {
    KP_STORE(a->v.i)
  } else {
    KP_STORE(a->v.u)
  }
#undef KP_STORE
}

/* "f32[], i32, f64[]": how the call's arguments look, for messages. */
static void describe_args(const kp_ufunc_arg *args, int nargs, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < nargs && used < size; i++) {
    int w = snprintf(buf + used, size - used, "%s%s%s", i ? ", " : "",
                     kp_type_short_name(args[i].type), args[i].is_array ? "[]" : "");
    if (w < 0) break;
    used += (size_t)w;
  }
}

static void describe_sigs(kp_kernel_desc **ks, size_t count, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < count && used < size; i++) {
    int w = snprintf(buf + used, size - used, "%s\"%s\"", i ? ", " : "",
                     ks[i]->signature ? ks[i]->signature : "?");
    if (w < 0) break;
    used += (size_t)w;
  }
}

/* How well signature s fits the call: -1 if it cannot take it, else the number of scalars
 * whose type it matches exactly (the tie-breaker). */
static int fit(const parsed_sig *s, const kp_ufunc_arg *args, int nargs) {
  if (s->nparams != nargs - 1 || s->result != args[0].type) return -1;
  int exact = 0;
  for (int j = 0; j < s->nparams; j++) {
    const kp_ufunc_arg *a = &args[j + 1];
    if (a->is_array && a->type != s->params[j]) return -1;
    if (!a->is_array && a->type == s->params[j]) exact++;
  }
  return exact;
}

/* The kernel whose signature fits best, or the reported reason why none does. */
static kp_error pick_kernel(const char *fx, kp_kernel_desc **ks, size_t count,
                            const kp_ufunc_arg *args, int nargs, kp_kernel_desc **out,
                            parsed_sig *sig) {
  kp_kernel_desc *best = NULL;
  int best_fit = -1, arity = -1, arity_differs = 1;
  for (size_t i = 0; i < count; i++) {
    parsed_sig s;
    if (!parse_sig(ks[i]->signature, &s)) {
      return kp_fail(KP_ERROR_INTERNAL,
                     "ufunc(%s, ...): kernel '%s' has the malformed signature \"%s\"; rebuild "
                     "it with the matching plugin",
                     fx, ks[i]->name, ks[i]->signature ? ks[i]->signature : "(none)");
    }
    arity = s.nparams;
    if (s.nparams == nargs - 1) arity_differs = 0;
    int f = fit(&s, args, nargs);
    if (f > best_fit) best = ks[i], best_fit = f, *sig = s;
  }
  if ((*out = best)) return KP_SUCCESS;
  char sigs[KP_UFUNC_LIST], have[KP_UFUNC_LIST];
  describe_sigs(ks, count, sigs, sizeof sigs);
  describe_args(args + 1, nargs - 1, have, sizeof have);
  if (arity_differs)
    return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, ...): '%s' takes %d input%s but the call passes %d after the output "
            "array (declared signatures: %s)",
            fx, fx, arity, arity == 1 ? "" : "s", nargs - 1, sigs);
  return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, ...): no signature of '%s' matches the argument types: output %s[], "
            "inputs (%s); declared signatures: %s (arrays must have the signature's element "
            "type exactly; scalars are converted)",
            fx, fx, kp_type_short_name(args[0].type), have, sigs);
}

/* The variant of the general kernel k among f's kernels that has `flag`, or k if none has. */
static kp_kernel_desc *variant_of(kp_kernel_desc *k, uint64_t flag, kp_kernel_desc **all,
                                  size_t count) {
  for (size_t i = 0; i < count; i++)
    if ((all[i]->flags & flag) && all[i]->signature && k->signature &&
        strcmp(all[i]->signature, k->signature) == 0)
      return all[i];
  return k;
}

/* The kernel for this call, after the checks that do not depend on the signature: the
 * general kernel of the best signature, or its variant for the call's shape (no scalar
 * input; only the first input an array), which tests no mask. */
static kp_error resolve(const void *f, const char *fx, long long n, int nargs,
                        const kp_ufunc_arg *args, kp_kernel_desc **out, parsed_sig *sig) {
  if (!f) {
    return kp_fail(KP_ERROR_INVALID_VALUE, "ufunc(%s, ...): the function is NULL", fx);
  }
  if (nargs < 1 || nargs > KP_UFUNC_MAX_ARGS || !args) {
    return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, ...): %d arguments after n; expected the output array and up to %d "
            "inputs",
            fx, nargs, KP_UFUNC_MAX_ARGS - 1);
  }
  kp_kernel_desc *all[KP_UFUNC_MAX_KERNELS], *ks[KP_UFUNC_MAX_KERNELS];
  size_t nall = kp_registry_find_all(f, KP_KERNEL_VECTORIZE, all, KP_UFUNC_MAX_KERNELS);
  if (nall > KP_UFUNC_MAX_KERNELS) nall = KP_UFUNC_MAX_KERNELS;
  size_t count = 0; /* the general kernels: one per signature */
  for (size_t i = 0; i < nall; i++)
    if (!(all[i]->flags & (KP_KERNEL_VECTORIZE_ARRAYS | KP_KERNEL_VECTORIZE_FIRST_ARRAY)))
      ks[count++] = all[i];
  if (count == 0) return kp_registry_wrong_kind("ufunc", f, fx, KP_FUNCTION_VECTORIZE);
  if (n < 0) {
    return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, %lld, ...): the element count must not be negative", fx, n);
  }
  if (!args[0].is_array) {
    return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, ...): the output (the argument after n) must be an array, not a %s "
            "scalar",
            fx, kp_type_short_name(args[0].type));
  }
  if (args[0].is_const) {
    return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, ...): the output array is a pointer to const %s; ufunc writes it",
            fx, kp_type_short_name(args[0].type));
  }
  kp_error err = pick_kernel(fx, ks, count, args, nargs, out, sig);
  if (err) return err;
  int arrays = 0; /* array inputs */
  for (int j = 1; j < nargs; j++) arrays += args[j].is_array;
  if (arrays == nargs - 1)
    *out = variant_of(*out, KP_KERNEL_VECTORIZE_ARRAYS, all, nall);
  else if (arrays == 1 && args[1].is_array)
    *out = variant_of(*out, KP_KERNEL_VECTORIZE_FIRST_ARRAY, all, nall);
  return KP_SUCCESS;
}

KP_EXPORT kp_error kp_ufunc_call(const void *f, const char *f_expr, long long n,
                                 kp_stream stream, int nargs, const kp_ufunc_arg *args) {
  const char *fx = f_expr ? f_expr : "?";
  parsed_sig sig;
  kp_kernel_desc *k = NULL;
  kp_error err = resolve(f, fx, n, nargs, args, &k, &sig);
  if (err) return err;
  if (n == 0) return KP_SUCCESS;
  size_t widest = kp_type_size(sig.result);
  for (int j = 0; j < sig.nparams; j++)
    if (kp_type_size(sig.params[j]) > widest) widest = kp_type_size(sig.params[j]);
  if ((unsigned long long)n > SIZE_MAX / widest)
    return kp_fail(KP_ERROR_OUT_OF_MEMORY, "ufunc(%s, %lld, ...): %lld elements do not fit in "
                                            "memory",
                   fx, n, n);

  /* Operands: inputs first (copied in), then the output. An output that is also an input
   * (ufunc(f, n, a, a, b)) shares the input's staged copy, which then goes back. */
  kp_operand ops[KP_UFUNC_MAX_ARGS];
  memset(ops, 0, sizeof ops);
  char what[KP_UFUNC_MAX_ARGS][160];
  for (int i = 0; i < KP_UFUNC_MAX_ARGS; i++) what[i][0] = '\0';
  int out_shares = -1;
  for (int j = 0; j < sig.nparams && !err; j++) {
    const kp_ufunc_arg *a = &args[j + 1];
    if (!a->is_array) continue;
    snprintf(what[j + 1], sizeof what[j + 1], "ufunc(%s, ...): input %d ('%s', %lld x %s)", fx,
             j + 1, k->params[2 + 2 * j].name, n, kp_type_short_name(sig.params[j]));
    size_t bytes = (size_t)n * kp_type_size(sig.params[j]);
    err = kp_operand_stage(&ops[j + 1], a->v.p, bytes, 1, 0, what[j + 1]);
    if (!err && a->v.p == args[0].v.p && kp_type_size(sig.params[j]) == kp_type_size(sig.result))
      out_shares = j + 1;
  }
  snprintf(what[0], sizeof what[0], "ufunc(%s, ...): the output (%lld x %s)", fx, n,
           kp_type_short_name(sig.result));
  if (!err) {
    if (out_shares > 0) {
      ops[out_shares].is_output = 1;
      ops[0].device = ops[out_shares].device;
    } else {
      err = kp_operand_stage(&ops[0], args[0].v.p, (size_t)n * kp_type_size(sig.result), 0, 1,
                             what[0]);
    }
  }

  if (!err) {
    /* The kernel's IR parameters: n, out, (in_j, s_j) per input, scalar_mask. */
    int64_t count = 0;
    void *out_ptr = NULL;
    const void *in_ptrs[KP_UFUNC_MAX_ARGS] = {0};
    union {
      double f;
      int64_t i;
    } scalars[KP_UFUNC_MAX_ARGS];
    memset(scalars, 0, sizeof scalars);
    int32_t mask = 0;
    void *kargs[2 + 2 * KP_UFUNC_MAX_ARGS + 1];
    int na = 0;
    kargs[na++] = &count;
    kargs[na++] = &out_ptr;
    for (int j = 0; j < sig.nparams; j++) {
      const kp_ufunc_arg *a = &args[j + 1];
      if (!a->is_array) {
        convert_scalar(a, sig.params[j], &scalars[j]);
        mask |= (int32_t)1 << j;
      }
      kargs[na++] = (void *)&in_ptrs[j];
      kargs[na++] = &scalars[j];
    }
    kargs[na++] = &mask;
    char call[160];
    snprintf(call, sizeof call, "ufunc(%s, ...)", fx);
    /* One launch per KP_UFUNC_CHUNK elements, each on the arrays from `done` on. */
    for (long long done = 0; done < n && !err; done += KP_UFUNC_CHUNK) {
      count = n - done < KP_UFUNC_CHUNK ? n - done : KP_UFUNC_CHUNK;
      out_ptr = (char *)ops[0].device + (size_t)done * kp_type_size(sig.result);
      for (int j = 0; j < sig.nparams; j++)
        if (args[j + 1].is_array)
          in_ptrs[j] =
              (const char *)ops[j + 1].device + (size_t)done * kp_type_size(sig.params[j]);
      kp_extent blocks, threads;
      kp_grid_for(k, count, 1, &blocks, &threads);
      err = kp_launch_generated(k, blocks, threads, stream, kargs, call);
    }
  }

  /* Copy the output back (only after a successful launch) and free every temporary. */
  for (int i = 0; i < KP_UFUNC_MAX_ARGS; i++) {
    if (err) ops[i].is_output = 0;
    kp_error e = kp_operand_finish(&ops[i], what[i]);
    if (!err) err = e;
  }
  return err;
}
