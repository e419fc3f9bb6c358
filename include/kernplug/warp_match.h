/* kernplug/warp_match.h — lane masks, match and reduce across a warp (CUDA's __lanemask_lt,
 * __match_any_sync, __match_all_sync, __reduce_add_sync & co.; Numba's cuda.lanemask_lt,
 * cuda.match_any_sync, cuda.match_all_sync).
 *
 * They are built from the shuffles and votes of warp.h, so they mean the same on the GPU and
 * on the CPU backend by construction, with CUDA's rules: every lane named in mask calls them
 * with the same mask, and they return the same value to each of them.
 *   kp_match_any_sync(mask, v): the lanes of mask whose v has the same bits as this lane's;
 *     one shuffle and one ballot per distinct value in the warp.
 *   kp_match_all_sync(mask, v, &pred): mask if every lane of mask has the same bits, else 0
 *     (*pred = 1 or 0; pred may be NULL). One shuffle and one vote.
 *   kp_reduce_{add,min,max}_sync(mask, v) for int and unsigned (min and max compare as the
 *     type of v), kp_reduce_{and,or,xor}_sync(mask, v) for unsigned: five shuffles when mask
 *     is the full warp, one per lane of mask otherwise. (The GPU's one-instruction redux.sync
 *     needs sm_80; the code kernplug emits runs on sm_75.)
 * v is int, unsigned, long, long long (and unsigned), float or double for match; floats are
 * compared bit for bit (-0.0 and +0.0 differ; a NaN matches the same NaN). */
#ifndef KERNPLUG_WARP_MATCH_H
#define KERNPLUG_WARP_MATCH_H

#include "detail/config.h"
#include "detail/primitives.h"

/* The lanes below, up to, above, from, and equal to this one. */
KP_ALWAYS_INLINE unsigned kp_lanemask_lt(void) { return (1u << kp_dev_laneid()) - 1u; }
KP_ALWAYS_INLINE unsigned kp_lanemask_le(void) { return (2u << kp_dev_laneid()) - 1u; }
KP_ALWAYS_INLINE unsigned kp_lanemask_gt(void) { return ~kp_lanemask_le(); }
KP_ALWAYS_INLINE unsigned kp_lanemask_ge(void) { return ~kp_lanemask_lt(); }
KP_ALWAYS_INLINE unsigned kp_lanemask_eq(void) { return 1u << kp_dev_laneid(); }

/* ---- match ---------------------------------------------------------------------------- */

KP_ALWAYS_INLINE unsigned long long kp_warp_shfl_bits64_(unsigned mask, unsigned long long v,
                                                         int lane) {
  unsigned lo = (unsigned)kp_dev_shfl_idx(mask, (int)(unsigned)v, lane);
  unsigned hi = (unsigned)kp_dev_shfl_idx(mask, (int)(unsigned)(v >> 32), lane);
  return (unsigned long long)hi << 32 | lo;
}

/* Each round takes the lowest lane not yet matched as the leader; the lanes holding its value
 * learn their group from one ballot. The loop is uniform: every lane sees the same `todo`. */
KP_ALWAYS_INLINE unsigned kp_match_any_bits32_(unsigned mask, unsigned v) {
  unsigned todo = mask, mine = 0;
  while (todo) {
    unsigned leader = (unsigned)kp_dev_shfl_idx(mask, (int)v, __builtin_ctz(todo));
    unsigned group = kp_dev_ballot(mask, v == leader);
    if (v == leader) mine = group;
    todo &= ~group;
  }
  return mine;
}
KP_ALWAYS_INLINE unsigned kp_match_any_bits64_(unsigned mask, unsigned long long v) {
  unsigned todo = mask, mine = 0;
  while (todo) {
    unsigned long long leader = kp_warp_shfl_bits64_(mask, v, __builtin_ctz(todo));
    unsigned group = kp_dev_ballot(mask, v == leader);
    if (v == leader) mine = group;
    todo &= ~group;
  }
  return mine;
}
KP_ALWAYS_INLINE unsigned kp_match_all_bits32_(unsigned mask, unsigned v, int *pred) {
  unsigned first = (unsigned)kp_dev_shfl_idx(mask, (int)v, __builtin_ctz(mask | 0x80000000u));
  int all = kp_dev_all(mask, v == first) != 0;
  if (pred) *pred = all;
  return all ? mask : 0u;
}
KP_ALWAYS_INLINE unsigned kp_match_all_bits64_(unsigned mask, unsigned long long v,
                                               int *pred) {
  unsigned long long first = kp_warp_shfl_bits64_(mask, v, __builtin_ctz(mask | 0x80000000u));
  int all = kp_dev_all(mask, v == first) != 0;
  if (pred) *pred = all;
  return all ? mask : 0u;
}

/* The value's bits, zero-extended (x86-64 and NVPTX are both little-endian). */
#define KP_DEFINE_MATCH_(T, N, B, BT)                                                          \
  KP_ALWAYS_INLINE unsigned kp_match_any_##N##_(unsigned mask, T v) {                          \
    union { T v; unsigned long long bits; } u = {.bits = 0};                                   \
    u.v = v;                                                                                   \
    return kp_match_any_bits##B##_(mask, (BT)u.bits);                                          \
  }                                                                                            \
  KP_ALWAYS_INLINE unsigned kp_match_all_##N##_(unsigned mask, T v, int *pred) {               \
    union { T v; unsigned long long bits; } u = {.bits = 0};                                   \
    u.v = v;                                                                                   \
    return kp_match_all_bits##B##_(mask, (BT)u.bits, pred);                                    \
  }
KP_DEFINE_MATCH_(int, int, 32, unsigned)
KP_DEFINE_MATCH_(unsigned, uint, 32, unsigned)
KP_DEFINE_MATCH_(float, float, 32, unsigned)
KP_DEFINE_MATCH_(long, long, 64, unsigned long long)
KP_DEFINE_MATCH_(unsigned long, ulong, 64, unsigned long long)
KP_DEFINE_MATCH_(long long, llong, 64, unsigned long long)
KP_DEFINE_MATCH_(unsigned long long, ullong, 64, unsigned long long)
KP_DEFINE_MATCH_(double, double, 64, unsigned long long)

#define KP_MATCH_(kind, v)                                                                     \
  _Generic((v), int: kp_match_##kind##_int_, unsigned: kp_match_##kind##_uint_,                \
           float: kp_match_##kind##_float_, long: kp_match_##kind##_long_,                     \
           unsigned long: kp_match_##kind##_ulong_, long long: kp_match_##kind##_llong_,       \
           unsigned long long: kp_match_##kind##_ullong_, double: kp_match_##kind##_double_)

#define kp_match_any_sync(mask, v) KP_MATCH_(any, v)((mask), (v))
#define kp_match_all_sync(mask, v, pred) KP_MATCH_(all, v)((mask), (v), (pred))

/* ---- reduce --------------------------------------------------------------------------- */

/* Every lane of mask ends with op over all of them: a butterfly over the full warp, else one
 * shuffle per lane of mask in lane order (the loop is uniform). */
#define KP_DEFINE_REDUCE_(name, T, OP)                                                         \
  KP_ALWAYS_INLINE T kp_reduce_##name##_(unsigned mask, T v) {                                 \
    T acc;                                                                                     \
    if (mask == 0xffffffffu) {                                                                 \
      acc = v;                                                                                 \
      for (int d = 16; d > 0; d >>= 1) {                                                       \
        T other = (T)kp_dev_shfl_xor(mask, (int)acc, d);                                       \
        acc = OP(acc, other);                                                                  \
      }                                                                                        \
      return acc;                                                                              \
    }                                                                                          \
    unsigned todo = mask;                                                                      \
    acc = (T)kp_dev_shfl_idx(mask, (int)v, __builtin_ctz(todo | 0x80000000u));                 \
    for (todo &= todo - 1; todo; todo &= todo - 1) {                                           \
      T other = (T)kp_dev_shfl_idx(mask, (int)v, __builtin_ctz(todo));                         \
      acc = OP(acc, other);                                                                    \
    }                                                                                          \
    return acc;                                                                                \
  }
#define KP_RED_ADD_(a, b) ((a) + (b))
#define KP_RED_MIN_(a, b) ((b) < (a) ? (b) : (a))
#define KP_RED_MAX_(a, b) ((b) > (a) ? (b) : (a))
#define KP_RED_AND_(a, b) ((a) & (b))
#define KP_RED_OR_(a, b) ((a) | (b))
#define KP_RED_XOR_(a, b) ((a) ^ (b))
KP_DEFINE_REDUCE_(add_u, unsigned, KP_RED_ADD_)
KP_DEFINE_REDUCE_(min_u, unsigned, KP_RED_MIN_)
KP_DEFINE_REDUCE_(max_u, unsigned, KP_RED_MAX_)
KP_DEFINE_REDUCE_(min_i, int, KP_RED_MIN_)
KP_DEFINE_REDUCE_(max_i, int, KP_RED_MAX_)
KP_DEFINE_REDUCE_(and_u, unsigned, KP_RED_AND_)
KP_DEFINE_REDUCE_(or_u, unsigned, KP_RED_OR_)
KP_DEFINE_REDUCE_(xor_u, unsigned, KP_RED_XOR_)
/* Signed addition wraps like the hardware's: it is computed on the unsigned bits. */
KP_ALWAYS_INLINE int kp_reduce_add_i_(unsigned mask, int v) {
  return (int)kp_reduce_add_u_(mask, (unsigned)v);
}

#define kp_reduce_add_sync(mask, v)                                                            \
  _Generic((v), int: kp_reduce_add_i_, default: kp_reduce_add_u_)((mask), (v))
#define kp_reduce_min_sync(mask, v)                                                            \
  _Generic((v), int: kp_reduce_min_i_, default: kp_reduce_min_u_)((mask), (v))
#define kp_reduce_max_sync(mask, v)                                                            \
  _Generic((v), int: kp_reduce_max_i_, default: kp_reduce_max_u_)((mask), (v))
#define kp_reduce_and_sync(mask, v) kp_reduce_and_u_((mask), (v))
#define kp_reduce_or_sync(mask, v) kp_reduce_or_u_((mask), (v))
#define kp_reduce_xor_sync(mask, v) kp_reduce_xor_u_((mask), (v))

#endif /* KERNPLUG_WARP_MATCH_H */
