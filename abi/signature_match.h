/* signature_match.h — which vectorize signature a ufunc() call picks: the one rule, used by
 * the runtime (runtime/ufunc/ufunc.c) and by the plugin's compile-time check of ufunc()
 * calls (plugin/frontend/UfuncCallChecks.cpp). Header-only C17 that is valid C++ too.
 *
 * Numba's rule for our types: the output must be an array of exactly the signature's result
 * type, and every array input exactly its parameter's type; scalar inputs are converted to
 * theirs. Among the signatures that accept a call, the one that also matches the most scalar
 * types exactly wins, the first declared on a tie. */
#ifndef KP_ABI_SIGNATURE_MATCH_H
#define KP_ABI_SIGNATURE_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "kp_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One argument of a call as the rule sees it: its element type (KP_ELEM_*) and whether it is
 * an array (a pointer) or a scalar. args[0] is the output. */
typedef struct kp_match_arg {
  int64_t type;
  int is_array;
} kp_match_arg;

/* How well signature s fits the call: -1 if it cannot take it, else the number of scalar
 * inputs whose type it matches exactly (the tie-breaker). */
static inline int kp_signature_fit(const kp_signature_desc *s, const kp_match_arg *args,
                                   size_t nargs) {
  if (nargs < 1 || s->num_types != nargs || s->types[0] != (uint64_t)args[0].type ||
      !args[0].is_array)
    return -1;
  int exact = 0;
  for (size_t j = 1; j < nargs; j++) {
    int same = s->types[j] == (uint64_t)args[j].type;
    if (args[j].is_array && !same) return -1;
    if (!args[j].is_array && same) exact++;
  }
  return exact;
}

/* The index in sigs of the signature the call picks, or -1 if none accepts it. */
static inline long kp_signature_pick(const kp_signature_desc *const *sigs, size_t nsigs,
                                     const kp_match_arg *args, size_t nargs) {
  long best = -1;
  int best_fit = -1;
  for (size_t i = 0; i < nsigs; i++) {
    int f = kp_signature_fit(sigs[i], args, nargs);
    if (f > best_fit) best = (long)i, best_fit = f;
  }
  return best;
}

/* Whether two signatures have the same types (a general kernel and its variants do). */
static inline int kp_signature_same_types(const kp_signature_desc *a,
                                          const kp_signature_desc *b) {
  if (a == b) return 1;
  if (!a || !b || a->num_types != b->num_types) return 0;
  for (uint64_t i = 0; i < a->num_types; i++)
    if (a->types[i] != b->types[i]) return 0;
  return 1;
}

#ifdef __cplusplus
}
#endif

#endif /* KP_ABI_SIGNATURE_MATCH_H */
