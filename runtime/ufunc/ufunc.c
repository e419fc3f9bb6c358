/* ufunc.c — ufunc(f, n, out, in...): a vectorize function over n elements.
 *
 * The plugin generates one element-wise kernel per signature of f (kp_abi.h: VECTORIZE), its
 * types in the descriptor. A call picks the signature from the element types of its arrays:
 * the output and every array input must have exactly the signature's type; scalars are
 * converted to it. When several signatures accept the arrays, the one whose types also equal
 * the scalars' wins (the first declared on a tie). That rule is abi/signature_match.h, which
 * the plugin applies at compile time to what it can see; this file reports the rest (a
 * function pointer whose target only the run time knows). Host arrays go through
 * ufunc_common.c's staging; device arrays are used in place.
 *
 * Each signature has a general kernel (kp_abi.h), which tests a mask per operand for broadcast
 * scalars, and variants without the tests for the common shapes of a call: every input an
 * array, or only the first (f(x, mean, sigma)). All index with 32 bits, so more than
 * KP_UFUNC_CHUNK elements go in several launches over consecutive ranges. On the CPU backend
 * each kernel's range entry (a plain loop over [begin, end), vectorised) runs instead, over
 * contiguous chunks of [0, n) (backend/cpu/cpu_range.c). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "signature_match.h" /* abi/ */
#include "ufunc/ufunc_common.h"

enum {
  KP_UFUNC_MAX_SIGNATURES = 64,
  KP_UFUNC_MAX_KERNELS = 3 * KP_UFUNC_MAX_SIGNATURES, /* a general kernel and 2 variants each */
  KP_UFUNC_CHUNK = 1 << 30, /* elements per launch: the kernels' 32-bit index (kp_abi.h) */
  KP_UFUNC_MAX_ARGS = 12, /* KP_UARGS packs at most 12: the output and 11 inputs */
  KP_UFUNC_LIST = 512,    /* room for a list of signatures or argument types in messages */
  /* Range entries (CPU): fewer elements run on the calling thread. Waking the pool costs
   * ~10 us; 16384 float adds take about as long on one core, transcendental functions more. */
  KP_UFUNC_SERIAL_BELOW = 1 << 14
};

/* Stores the scalar a, converted to type `to` as a C assignment would, at dst. */
static void convert_scalar(const kp_ufunc_arg *a, int to, void *dst) {
  int from = kp_elem_class_of(a->type);
  switch (to) {
#define KP_ELEM_TYPE(Code, Short, Long, CType, Size, Class)                                    \
  case KP_ELEM_##Code: {                                                                       \
    CType t = from == KP_ELEM_CLASS_FLOAT  ? (CType)a->v.f                                     \
              : from == KP_ELEM_CLASS_SINT ? (CType)a->v.i                                     \
                                           : (CType)a->v.u;                                    \
    memcpy(dst, &t, sizeof t);                                                                 \
    break;                                                                                     \
  }
#include "types.def"
#undef KP_ELEM_TYPE
  }
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
                     ks[i]->signature->text ? ks[i]->signature->text : "?");
    if (w < 0) break;
    used += (size_t)w;
  }
}

/* The signature of a VECTORIZE kernel, if its descriptor holds a valid one. */
static const kp_signature_desc *signature_of(const kp_kernel_desc *k) {
  const kp_signature_desc *s = k->signature;
  if (!s || s->num_types < 2 || s->num_types > KP_UFUNC_MAX_ARGS || !s->types) return NULL;
  for (uint64_t j = 0; j < s->num_types; j++)
    if (kp_type_size((int)s->types[j]) == 0) return NULL;
  return s;
}

/* The kernel whose signature the call picks (abi/signature_match.h), or the reported reason
 * why none fits. */
static kp_error pick_kernel(const char *fx, kp_kernel_desc **ks, size_t count,
                            const kp_ufunc_arg *args, int nargs, kp_kernel_desc **out) {
  const kp_signature_desc *sigs[KP_UFUNC_MAX_KERNELS];
  int arity = -1, arity_differs = 1;
  for (size_t i = 0; i < count; i++) {
    if (!(sigs[i] = signature_of(ks[i])))
      return kp_fail(KP_ERROR_INTERNAL,
                     "ufunc(%s, ...): kernel '%s' has a malformed signature in its descriptor; "
                     "rebuild it with the matching plugin",
                     fx, ks[i]->name);
    arity = (int)sigs[i]->num_types - 1;
    if (arity == nargs - 1) arity_differs = 0;
  }
  kp_match_arg call[KP_UFUNC_MAX_ARGS];
  for (int j = 0; j < nargs; j++) call[j] = (kp_match_arg){args[j].type, args[j].is_array};
  long best = kp_signature_pick(sigs, count, call, (size_t)nargs);
  if (best >= 0) {
    *out = ks[best];
    return KP_SUCCESS;
  }
  *out = NULL;
  char sigs_text[KP_UFUNC_LIST], have[KP_UFUNC_LIST];
  describe_sigs(ks, count, sigs_text, sizeof sigs_text);
  describe_args(args + 1, nargs - 1, have, sizeof have);
  if (arity_differs)
    return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, ...): '%s' takes %d input%s but the call passes %d after the output "
            "array (declared signatures: %s)",
            fx, fx, arity, arity == 1 ? "" : "s", nargs - 1, sigs_text);
  return kp_fail(KP_ERROR_INVALID_VALUE,
            "ufunc(%s, ...): no signature of '%s' matches the argument types: output %s[], "
            "inputs (%s); declared signatures: %s (arrays must have the signature's element "
            "type exactly; scalars are converted)",
            fx, fx, kp_type_short_name(args[0].type), have, sigs_text);
}

/* The variant of the general kernel k among f's kernels that has `flag`, or k if none has. */
static kp_kernel_desc *variant_of(kp_kernel_desc *k, uint64_t flag, kp_kernel_desc **all,
                                  size_t count) {
  for (size_t i = 0; i < count; i++)
    if ((all[i]->flags & flag) && kp_signature_same_types(all[i]->signature, k->signature))
      return all[i];
  return k;
}

/* The kernel for this call, after the checks that do not depend on the signature: the
 * general kernel of the best signature, or its variant for the call's shape (no scalar
 * input; only the first input an array), which tests no mask. */
static kp_error resolve(const void *f, const char *fx, long long n, int nargs,
                        const kp_ufunc_arg *args, kp_kernel_desc **out) {
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
  kp_error err = pick_kernel(fx, ks, count, args, nargs, out);
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
  kp_kernel_desc *k = NULL;
  kp_error err = resolve(f, fx, n, nargs, args, &k);
  if (err) return err;
  if (n == 0) return KP_SUCCESS;
  /* The picked signature's types: the result's, then one per input. */
  const int result = (int)k->signature->types[0], nparams = (int)k->signature->num_types - 1;
  int params[KP_UFUNC_MAX_ARGS];
  size_t widest = kp_type_size(result);
  for (int j = 0; j < nparams; j++) {
    params[j] = (int)k->signature->types[1 + j];
    if (kp_type_size(params[j]) > widest) widest = kp_type_size(params[j]);
  }
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
  for (int j = 0; j < nparams && !err; j++) {
    const kp_ufunc_arg *a = &args[j + 1];
    if (!a->is_array) continue;
    snprintf(what[j + 1], sizeof what[j + 1], "ufunc(%s, ...): input %d ('%s', %lld x %s)", fx,
             j + 1, k->params[2 + 2 * j].name, n, kp_type_short_name(params[j]));
    size_t bytes = (size_t)n * kp_type_size(params[j]);
    err = kp_operand_stage(&ops[j + 1], a->v.p, bytes, 1, 0, what[j + 1]);
    if (!err && a->v.p == args[0].v.p && kp_type_size(params[j]) == kp_type_size(result))
      out_shares = j + 1;
  }
  snprintf(what[0], sizeof what[0], "ufunc(%s, ...): the output (%lld x %s)", fx, n,
           kp_type_short_name(result));
  if (!err) {
    if (out_shares > 0) {
      ops[out_shares].is_output = 1;
      ops[0].device = ops[out_shares].device;
    } else {
      err = kp_operand_stage(&ops[0], args[0].v.p, (size_t)n * kp_type_size(result), 0, 1,
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
    for (int j = 0; j < nparams; j++) {
      const kp_ufunc_arg *a = &args[j + 1];
      if (!a->is_array) {
        convert_scalar(a, params[j], &scalars[j]);
        mask |= (int32_t)1 << j;
      }
      kargs[na++] = (void *)&in_ptrs[j];
      kargs[na++] = &scalars[j];
    }
    kargs[na++] = &mask;
    char call[160];
    snprintf(call, sizeof call, "ufunc(%s, ...)", fx);
    /* The CPU backend: the range entry over all n (its index is 64-bit), in chunks over the
     * workers. Otherwise one grid launch per KP_UFUNC_CHUNK elements, each on the arrays from
     * `done` on. */
    int ranged = kp_generated_has_range(k);
    if (ranged) {
      count = n;
      out_ptr = ops[0].device;
      for (int j = 0; j < nparams; j++)
        if (args[j + 1].is_array) in_ptrs[j] = ops[j + 1].device;
      err = kp_launch_generated_range(k, n, KP_UFUNC_SERIAL_BELOW, stream, kargs, call);
    }
    for (long long done = 0; !ranged && done < n && !err; done += KP_UFUNC_CHUNK) {
      count = n - done < KP_UFUNC_CHUNK ? n - done : KP_UFUNC_CHUNK;
      out_ptr = (char *)ops[0].device + (size_t)done * kp_type_size(result);
      for (int j = 0; j < nparams; j++)
        if (args[j + 1].is_array)
          in_ptrs[j] =
              (const char *)ops[j + 1].device + (size_t)done * kp_type_size(params[j]);
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
