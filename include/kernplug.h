/* kernplug.h — the one public header of kernplug.
 *
 * Device side: thread indexing, barriers, fences, atomics, warp intrinsics and shared
 * memory for functions marked __attribute__((kernel)) / ((device)) / ((vectorize("…"))).
 * Host side: launch(), memory, backends, errors.
 *
 * Every name has a kp_ prefix; the short Numba-like aliases at the end of this file are
 * defined unless KP_NO_SHORT_NAMES is defined before the include. `kernel`, `device`,
 * `vectorize`, `shared` and `reduce` are attribute names handled by the plugin and are never
 * macros.
 *
 * The device API is built from a small set of extern primitives (kp_dev_*). The plugin links
 * their NVPTX definitions (runtime/device/) into the GPU code, where they inline away; the CPU
 * backend of libkernplug_rt defines the same symbols for the host copy of each kernel. Where a
 * generic C builtin means the same thing on both targets (most atomics), the header uses it
 * directly so that both backends share one definition.
 */
#ifndef KERNPLUG_H
#define KERNPLUG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KP_VERSION_MAJOR 0
#define KP_VERSION_MINOR 1
#define KP_VERSION_PATCH 0

/* ------------------------------------------------------------------------------------------
 * Types
 * ---------------------------------------------------------------------------------------- */

/* CUDA's dim3: what threadIdx, blockIdx, blockDim and gridDim return. */
typedef struct kp_dim3 {
  unsigned x, y, z;
} kp_dim3;

/* grid(2)/gridsize(2) and grid(3)/gridsize(3) results. */
typedef struct kp_int2 {
  int x, y;
} kp_int2;
typedef struct kp_int3 {
  int x, y, z;
} kp_int3;

/* A launch extent as the user wrote it (kept signed so that zero and negative sizes are
 * reported as such, not wrapped around). */
typedef struct kp_extent {
  long long x, y, z;
} kp_extent;

typedef struct kp_stream_s *kp_stream; /* NULL is the default stream */
typedef struct kp_event_s *kp_event;

/* ------------------------------------------------------------------------------------------
 * Device primitives (defined twice: runtime/device for NVPTX, libkernplug_rt for the CPU)
 * ---------------------------------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define KP_PURE_INDEX __attribute__((const, nothrow))
#define KP_ALWAYS_INLINE __attribute__((always_inline, unused)) static inline
#else
#define KP_PURE_INDEX
#define KP_ALWAYS_INLINE static inline
#endif

/* Indices are constant for the duration of one thread's run of a kernel. */
KP_PURE_INDEX unsigned kp_dev_tid_x(void);
KP_PURE_INDEX unsigned kp_dev_tid_y(void);
KP_PURE_INDEX unsigned kp_dev_tid_z(void);
KP_PURE_INDEX unsigned kp_dev_ctaid_x(void);
KP_PURE_INDEX unsigned kp_dev_ctaid_y(void);
KP_PURE_INDEX unsigned kp_dev_ctaid_z(void);
KP_PURE_INDEX unsigned kp_dev_ntid_x(void);
KP_PURE_INDEX unsigned kp_dev_ntid_y(void);
KP_PURE_INDEX unsigned kp_dev_ntid_z(void);
KP_PURE_INDEX unsigned kp_dev_nctaid_x(void);
KP_PURE_INDEX unsigned kp_dev_nctaid_y(void);
KP_PURE_INDEX unsigned kp_dev_nctaid_z(void);
KP_PURE_INDEX unsigned kp_dev_laneid(void);

void kp_dev_syncthreads(void);
int kp_dev_syncthreads_count(int predicate);
int kp_dev_syncthreads_and(int predicate);
int kp_dev_syncthreads_or(int predicate);
void kp_dev_syncwarp(unsigned mask);
void kp_dev_threadfence(void);
void kp_dev_threadfence_block(void);
void kp_dev_threadfence_system(void);

int kp_dev_shfl_idx(unsigned mask, int value, int src_lane);
int kp_dev_shfl_up(unsigned mask, int value, unsigned delta);
int kp_dev_shfl_down(unsigned mask, int value, unsigned delta);
int kp_dev_shfl_xor(unsigned mask, int value, int lane_mask);
unsigned kp_dev_ballot(unsigned mask, int predicate);
int kp_dev_all(unsigned mask, int predicate);
int kp_dev_any(unsigned mask, int predicate);
unsigned kp_dev_activemask(void);

unsigned kp_dev_atomic_inc_u32(unsigned *p, unsigned limit);
unsigned kp_dev_atomic_dec_u32(unsigned *p, unsigned limit);

/* Start of the dynamic shared memory sized by launch(k, blocks, threads, bytes). */
void *kp_dev_dynamic_shared(void);

/* ------------------------------------------------------------------------------------------
 * Indexing
 * ---------------------------------------------------------------------------------------- */

KP_ALWAYS_INLINE kp_dim3 kp_thread_idx(void) {
  kp_dim3 d = {kp_dev_tid_x(), kp_dev_tid_y(), kp_dev_tid_z()};
  return d;
}
KP_ALWAYS_INLINE kp_dim3 kp_block_idx(void) {
  kp_dim3 d = {kp_dev_ctaid_x(), kp_dev_ctaid_y(), kp_dev_ctaid_z()};
  return d;
}
KP_ALWAYS_INLINE kp_dim3 kp_block_dim(void) {
  kp_dim3 d = {kp_dev_ntid_x(), kp_dev_ntid_y(), kp_dev_ntid_z()};
  return d;
}
KP_ALWAYS_INLINE kp_dim3 kp_grid_dim(void) {
  kp_dim3 d = {kp_dev_nctaid_x(), kp_dev_nctaid_y(), kp_dev_nctaid_z()};
  return d;
}

/* Absolute thread index along one axis, as cuda.grid computes it. */
#define KP_GRID_AXIS(a) ((int)(kp_dev_ctaid_##a() * kp_dev_ntid_##a() + kp_dev_tid_##a()))
#define KP_GRIDSIZE_AXIS(a) ((int)(kp_dev_nctaid_##a() * kp_dev_ntid_##a()))

KP_ALWAYS_INLINE int kp_grid_1(void) { return KP_GRID_AXIS(x); }
KP_ALWAYS_INLINE kp_int2 kp_grid_2(void) {
  kp_int2 r = {KP_GRID_AXIS(x), KP_GRID_AXIS(y)};
  return r;
}
KP_ALWAYS_INLINE kp_int3 kp_grid_3(void) {
  kp_int3 r = {KP_GRID_AXIS(x), KP_GRID_AXIS(y), KP_GRID_AXIS(z)};
  return r;
}
KP_ALWAYS_INLINE int kp_gridsize_1(void) { return KP_GRIDSIZE_AXIS(x); }
KP_ALWAYS_INLINE kp_int2 kp_gridsize_2(void) {
  kp_int2 r = {KP_GRIDSIZE_AXIS(x), KP_GRIDSIZE_AXIS(y)};
  return r;
}
KP_ALWAYS_INLINE kp_int3 kp_gridsize_3(void) {
  kp_int3 r = {KP_GRIDSIZE_AXIS(x), KP_GRIDSIZE_AXIS(y), KP_GRIDSIZE_AXIS(z)};
  return r;
}

/* kp_grid(1) → int, kp_grid(2) → kp_int2, kp_grid(3) → kp_int3; likewise kp_gridsize. */
#define kp_grid(ndim) kp_grid_##ndim()
#define kp_gridsize(ndim) kp_gridsize_##ndim()
#define kp_warpsize 32
#define kp_laneid() ((int)kp_dev_laneid())

/* ------------------------------------------------------------------------------------------
 * Barriers and fences
 * ---------------------------------------------------------------------------------------- */

#define kp_syncthreads() kp_dev_syncthreads()
#define kp_syncthreads_count(p) kp_dev_syncthreads_count((p) != 0)
#define kp_syncthreads_and(p) kp_dev_syncthreads_and((p) != 0)
#define kp_syncthreads_or(p) kp_dev_syncthreads_or((p) != 0)
#define kp_syncwarp(mask) kp_dev_syncwarp(mask)
#define kp_threadfence() kp_dev_threadfence()
#define kp_threadfence_block() kp_dev_threadfence_block()
#define kp_threadfence_system() kp_dev_threadfence_system()

/* ------------------------------------------------------------------------------------------
 * Atomics: each returns the value *p held immediately before the operation took effect.
 * Relaxed ordering, as CUDA's. Types and NaN rules follow numba-cuda's cuda.atomic
 * (docs/kernels.md#atomics has the table); exch and cas also take float and double.
 * ---------------------------------------------------------------------------------------- */

/* The integer types atomics accept, with a suffix for the typed function names. */
#define KP_ATOMIC_INT_TYPES(X)                                                                 \
  X(i32, int)                                                                                  \
  X(u32, unsigned)                                                                             \
  X(il, long)                                                                                  \
  X(ul, unsigned long)                                                                         \
  X(i64, long long)                                                                            \
  X(u64, unsigned long long)
#define KP_ATOMIC_FLOAT_TYPES(X) X(f32, float) X(f64, double)

#define KP_RELAXED __ATOMIC_RELAXED

/* A compare-and-swap loop that stores newexpr (a function of `old` and `v`) and returns the
 * value it replaced. */
#define KP_CAS_LOOP(T, p, v, newexpr)                                                          \
  T old, next;                                                                                 \
  __atomic_load(p, &old, KP_RELAXED);                                                          \
  do {                                                                                         \
    next = (newexpr);                                                                          \
  } while (!__atomic_compare_exchange(p, &old, &next, 1, KP_RELAXED, KP_RELAXED));             \
  return old

/* A loop that stores v only while `replace` (a function of `old` and `v`) holds: once the
 * stored value needs no change it returns after one load, without writing, which keeps
 * contended max/min cheap (numba-cuda's loops do the same). */
#define KP_CAS_IF(T, p, v, replace)                                                            \
  T old;                                                                                       \
  __atomic_load(p, &old, KP_RELAXED);                                                          \
  while ((replace) && !__atomic_compare_exchange(p, &old, &v, 1, KP_RELAXED, KP_RELAXED)) {    \
  }                                                                                            \
  return old

/* Integer max/min: one atomicrmw instruction under clang, a compare-and-swap loop elsewhere. */
#if defined(__clang__)
#define KP_DEFINE_INT_MINMAX(sfx, T)                                                           \
  KP_ALWAYS_INLINE T kp_atomic_max_int_##sfx(T *p, T v) {                                      \
    return __atomic_fetch_max(p, v, KP_RELAXED);                                               \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_min_int_##sfx(T *p, T v) {                                      \
    return __atomic_fetch_min(p, v, KP_RELAXED);                                               \
  }
#else
#define KP_DEFINE_INT_MINMAX(sfx, T)                                                           \
  KP_ALWAYS_INLINE T kp_atomic_max_int_##sfx(T *p, T v) { KP_CAS_IF(T, p, v, old < v); }       \
  KP_ALWAYS_INLINE T kp_atomic_min_int_##sfx(T *p, T v) { KP_CAS_IF(T, p, v, v < old); }
#endif

/* Operations every integer type has as one read-modify-write instruction. nanmax/nanmin are
 * max/min (an integer is never NaN), as in numba-cuda. */
#define KP_DEFINE_INT_ATOMICS(sfx, T)                                                          \
  KP_ALWAYS_INLINE T kp_atomic_add_##sfx(T *p, T v) { return __atomic_fetch_add(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_sub_##sfx(T *p, T v) { return __atomic_fetch_sub(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_and_##sfx(T *p, T v) { return __atomic_fetch_and(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_or_##sfx(T *p, T v) { return __atomic_fetch_or(p, v, KP_RELAXED); }   \
  KP_ALWAYS_INLINE T kp_atomic_xor_##sfx(T *p, T v) { return __atomic_fetch_xor(p, v, KP_RELAXED); } \
  KP_ALWAYS_INLINE T kp_atomic_exch_##sfx(T *p, T v) {                                         \
    return __atomic_exchange_n(p, v, KP_RELAXED);                                              \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_cas_##sfx(T *p, T expected, T desired) {                        \
    __atomic_compare_exchange_n(p, &expected, desired, 0, KP_RELAXED, KP_RELAXED);             \
    return expected;                                                                           \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_max_##sfx(T *p, T v) { return kp_atomic_max_int_##sfx(p, v); }   \
  KP_ALWAYS_INLINE T kp_atomic_min_##sfx(T *p, T v) { return kp_atomic_min_int_##sfx(p, v); }   \
  KP_ALWAYS_INLINE T kp_atomic_nanmax_##sfx(T *p, T v) { return kp_atomic_max_int_##sfx(p, v); } \
  KP_ALWAYS_INLINE T kp_atomic_nanmin_##sfx(T *p, T v) { return kp_atomic_min_int_##sfx(p, v); }

KP_ATOMIC_INT_TYPES(KP_DEFINE_INT_MINMAX)
KP_ATOMIC_INT_TYPES(KP_DEFINE_INT_ATOMICS)

/* NaN tests on the bits, so that -ffast-math (which lets the compiler assume x == x) cannot
 * fold them away. */
KP_ALWAYS_INLINE int kp_isnan_f32_(float x) {
  union { float f; uint32_t u; } b = {x};
  return (b.u & 0x7fffffffu) > 0x7f800000u;
}
KP_ALWAYS_INLINE int kp_isnan_f64_(double x) {
  union { double f; uint64_t u; } b = {x};
  return (b.u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

#if defined(__clang__)
#define KP_FLOAT_ADD(T, p, v) return __atomic_fetch_add(p, v, KP_RELAXED)
#else
#define KP_FLOAT_ADD(T, p, v) KP_CAS_LOOP(T, p, v, old + v)
#endif

/* Floating point: add/sub are native on the GPU (atom.add.f32/f64; sub adds -v). max/min and
 * nanmax/nanmin are compare-and-swap loops with numba-cuda's NaN rules:
 *   max/min:       a NaN on either side leaves *p as it is (Python's max(a, b) is a then);
 *   nanmax/nanmin: NaN is a missing value (numpy.fmax/fmin): a NaN operand leaves *p as it
 *                  is, a NaN in *p is replaced by v.
 * exch and cas move bit patterns: cas compares bits (so -0.0 is not 0.0, and a NaN matches
 * the same NaN). */
#define KP_DEFINE_FLOAT_ATOMICS(sfx, T)                                                        \
  KP_ALWAYS_INLINE T kp_atomic_add_##sfx(T *p, T v) { KP_FLOAT_ADD(T, p, v); }                 \
  KP_ALWAYS_INLINE T kp_atomic_sub_##sfx(T *p, T v) { KP_FLOAT_ADD(T, p, -v); }                \
  KP_ALWAYS_INLINE T kp_atomic_max_##sfx(T *p, T v) {                                          \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && !kp_isnan_##sfx##_(old) && old < v);           \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_min_##sfx(T *p, T v) {                                          \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && !kp_isnan_##sfx##_(old) && v < old);           \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_nanmax_##sfx(T *p, T v) {                                       \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && (kp_isnan_##sfx##_(old) || old < v));          \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_nanmin_##sfx(T *p, T v) {                                       \
    KP_CAS_IF(T, p, v, !kp_isnan_##sfx##_(v) && (kp_isnan_##sfx##_(old) || v < old));          \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_exch_##sfx(T *p, T v) {                                         \
    T old;                                                                                     \
    __atomic_exchange(p, &v, &old, KP_RELAXED);                                                \
    return old;                                                                                \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_cas_##sfx(T *p, T expected, T desired) {                        \
    __atomic_compare_exchange(p, &expected, &desired, 0, KP_RELAXED, KP_RELAXED);              \
    return expected;                                                                           \
  }

KP_ATOMIC_FLOAT_TYPES(KP_DEFINE_FLOAT_ATOMICS)

/* inc/dec with CUDA's wrap-around: inc stores (old >= limit) ? 0 : old + 1;
 * dec stores (old == 0 || old > limit) ? limit : old - 1. 32 bits: atom.inc/atom.dec on the
 * GPU; 64 bits: a compare-and-swap loop (the hardware has no 64-bit form). */
KP_ALWAYS_INLINE unsigned kp_atomic_inc_u32(unsigned *p, unsigned limit) {
  return kp_dev_atomic_inc_u32(p, limit);
}
KP_ALWAYS_INLINE unsigned kp_atomic_dec_u32(unsigned *p, unsigned limit) {
  return kp_dev_atomic_dec_u32(p, limit);
}
#define KP_DEFINE_INCDEC_CAS(sfx, T)                                                           \
  KP_ALWAYS_INLINE T kp_atomic_inc_##sfx(T *p, T limit) {                                      \
    KP_CAS_LOOP(T, p, limit, old >= limit ? 0 : old + 1);                                      \
  }                                                                                            \
  KP_ALWAYS_INLINE T kp_atomic_dec_##sfx(T *p, T limit) {                                      \
    KP_CAS_LOOP(T, p, limit, (old == 0 || old > limit) ? limit : old - 1);                     \
  }
KP_DEFINE_INCDEC_CAS(ul, unsigned long)
KP_DEFINE_INCDEC_CAS(u64, unsigned long long)

/* Type-generic front ends: the pointer's element type picks the function. */
#define KP_ATOMIC_ALL(op, p)                                                                   \
  _Generic((p), int *: kp_atomic_##op##_i32, unsigned *: kp_atomic_##op##_u32,                 \
           long *: kp_atomic_##op##_il, unsigned long *: kp_atomic_##op##_ul,                  \
           long long *: kp_atomic_##op##_i64, unsigned long long *: kp_atomic_##op##_u64,      \
           float *: kp_atomic_##op##_f32, double *: kp_atomic_##op##_f64)
#define KP_ATOMIC_INTS(op, p)                                                                  \
  _Generic((p), int *: kp_atomic_##op##_i32, unsigned *: kp_atomic_##op##_u32,                 \
           long *: kp_atomic_##op##_il, unsigned long *: kp_atomic_##op##_ul,                  \
           long long *: kp_atomic_##op##_i64, unsigned long long *: kp_atomic_##op##_u64)
#define KP_ATOMIC_UNSIGNED(op, p)                                                              \
  _Generic((p), unsigned *: kp_atomic_##op##_u32, unsigned long *: kp_atomic_##op##_ul,        \
           unsigned long long *: kp_atomic_##op##_u64)

#define kp_atomic_add(p, v) KP_ATOMIC_ALL(add, p)((p), (v))
#define kp_atomic_sub(p, v) KP_ATOMIC_ALL(sub, p)((p), (v))
#define kp_atomic_max(p, v) KP_ATOMIC_ALL(max, p)((p), (v))
#define kp_atomic_min(p, v) KP_ATOMIC_ALL(min, p)((p), (v))
#define kp_atomic_nanmax(p, v) KP_ATOMIC_ALL(nanmax, p)((p), (v))
#define kp_atomic_nanmin(p, v) KP_ATOMIC_ALL(nanmin, p)((p), (v))
#define kp_atomic_exch(p, v) KP_ATOMIC_ALL(exch, p)((p), (v))
#define kp_atomic_cas(p, expected, desired) KP_ATOMIC_ALL(cas, p)((p), (expected), (desired))
#define kp_atomic_and(p, v) KP_ATOMIC_INTS(and, p)((p), (v))
#define kp_atomic_or(p, v) KP_ATOMIC_INTS(or, p)((p), (v))
#define kp_atomic_xor(p, v) KP_ATOMIC_INTS(xor, p)((p), (v))
#define kp_atomic_inc(p, limit) KP_ATOMIC_UNSIGNED(inc, p)((p), (limit))
#define kp_atomic_dec(p, limit) KP_ATOMIC_UNSIGNED(dec, p)((p), (limit))

/* ------------------------------------------------------------------------------------------
 * Warp intrinsics (32 lanes). 64-bit values move as two 32-bit halves.
 * ---------------------------------------------------------------------------------------- */

#define KP_DEFINE_SHFL32(kind, T, L)                                                           \
  KP_ALWAYS_INLINE T kp_shfl_##kind##_##T##_(unsigned mask, T v, L lane) {                     \
    union { T v; int i; } u = {v};                                                             \
    u.i = kp_dev_shfl_##kind(mask, u.i, lane);                                                 \
    return u.v;                                                                                \
  }
#define KP_DEFINE_SHFL64(kind, T, N, L)                                                        \
  KP_ALWAYS_INLINE T kp_shfl_##kind##_##N##_(unsigned mask, T v, L lane) {                     \
    union { T v; int i[2]; } u = {v};                                                          \
    u.i[0] = kp_dev_shfl_##kind(mask, u.i[0], lane);                                           \
    u.i[1] = kp_dev_shfl_##kind(mask, u.i[1], lane);                                           \
    return u.v;                                                                                \
  }
typedef unsigned kp_uint_;
typedef long long kp_llong_;
typedef unsigned long long kp_ullong_;
typedef unsigned long kp_ulong_;
#define KP_DEFINE_SHFL_KIND(kind, L)                                                           \
  KP_DEFINE_SHFL32(kind, int, L)                                                               \
  KP_DEFINE_SHFL32(kind, kp_uint_, L)                                                          \
  KP_DEFINE_SHFL32(kind, float, L)                                                             \
  KP_DEFINE_SHFL64(kind, long, long, L)                                                        \
  KP_DEFINE_SHFL64(kind, kp_ulong_, ulong, L)                                                  \
  KP_DEFINE_SHFL64(kind, kp_llong_, llong, L)                                                  \
  KP_DEFINE_SHFL64(kind, kp_ullong_, ullong, L)                                                \
  KP_DEFINE_SHFL64(kind, double, double, L)
KP_DEFINE_SHFL_KIND(idx, int)
KP_DEFINE_SHFL_KIND(up, unsigned)
KP_DEFINE_SHFL_KIND(down, unsigned)
KP_DEFINE_SHFL_KIND(xor, int)

/* Types narrower than int move as an int (as C promotes them) and come back as an int. */
#define KP_SHFL(kind, v)                                                                       \
  _Generic((v), int: kp_shfl_##kind##_int_, unsigned: kp_shfl_##kind##_kp_uint__,              \
           float: kp_shfl_##kind##_float_, long: kp_shfl_##kind##_long_,                       \
           unsigned long: kp_shfl_##kind##_ulong_, long long: kp_shfl_##kind##_llong_,         \
           unsigned long long: kp_shfl_##kind##_ullong_, double: kp_shfl_##kind##_double_,     \
           _Bool: kp_shfl_##kind##_int_, char: kp_shfl_##kind##_int_,                          \
           signed char: kp_shfl_##kind##_int_, unsigned char: kp_shfl_##kind##_int_,           \
           short: kp_shfl_##kind##_int_, unsigned short: kp_shfl_##kind##_int_)

#define kp_shfl_sync(mask, v, src_lane) KP_SHFL(idx, v)((mask), (v), (src_lane))
#define kp_shfl_up_sync(mask, v, delta) KP_SHFL(up, v)((mask), (v), (delta))
#define kp_shfl_down_sync(mask, v, delta) KP_SHFL(down, v)((mask), (v), (delta))
#define kp_shfl_xor_sync(mask, v, lane_mask) KP_SHFL(xor, v)((mask), (v), (lane_mask))
#define kp_ballot_sync(mask, p) kp_dev_ballot((mask), (p) != 0)
#define kp_all_sync(mask, p) kp_dev_all((mask), (p) != 0)
#define kp_any_sync(mask, p) kp_dev_any((mask), (p) != 0)
#define kp_activemask() kp_dev_activemask()

/* Dynamic shared memory: launch(k, blocks, threads, bytes) sizes it. */
#define kp_dynamic_shared(T) ((T *)kp_dev_dynamic_shared())

/* ------------------------------------------------------------------------------------------
 * Host side: launching
 * ---------------------------------------------------------------------------------------- */

KP_ALWAYS_INLINE kp_dim3 kp_dim3_make(unsigned x, unsigned y, unsigned z) {
  kp_dim3 d = {x, y, z};
  return d;
}
#define KP_DIM3_PICK(_1, _2, _3, NAME, ...) NAME
#define KP_DIM3_1(x) kp_dim3_make((x), 1, 1)
#define KP_DIM3_2(x, y) kp_dim3_make((x), (y), 1)
#define KP_DIM3_3(x, y, z) kp_dim3_make((x), (y), (z))
#define kp_dim3(...) KP_DIM3_PICK(__VA_ARGS__, KP_DIM3_3, KP_DIM3_2, KP_DIM3_1, )(__VA_ARGS__)

KP_ALWAYS_INLINE kp_extent kp_extent_from_dim3(kp_dim3 d) {
  kp_extent e = {d.x, d.y, d.z};
  return e;
}
KP_ALWAYS_INLINE kp_extent kp_extent_from_int(long long n) {
  kp_extent e = {n, 1, 1};
  return e;
}
/* An int (any integer type) or a kp_dim3 as a launch extent. */
#define KP_EXTENT(v) _Generic((v), kp_dim3: kp_extent_from_dim3, default: kp_extent_from_int)(v)

/* Records the configuration of the next call of `kernel` on this host thread; the kernel's
 * host stub (generated by the plugin) takes it and launches. Returns 0 when `kernel` is not a
 * registered kernel (an error in return mode): launch() then calls kp_launch_refused, which
 * ignores its arguments, instead of `kernel`. */
int kp_configure_launch(const void *kernel, const char *kernel_expr, kp_extent blocks,
                        kp_extent threads, size_t shared_bytes, kp_stream stream);
void kp_launch_refused(void);

#define KP_LAUNCH_PICK(_1, _2, _3, _4, _5, NAME, ...) NAME
#define KP_LAUNCH_3(k, b, t) KP_LAUNCH_5(k, b, t, 0, (kp_stream)0)
#define KP_LAUNCH_4(k, b, t, s) KP_LAUNCH_5(k, b, t, s, (kp_stream)0)
/* (k) or, for a launch the runtime refused, kp_launch_refused as k's pointer type
 * (__typeof__(&*(k)): k may be a function or a pointer to one). Through an integer: k may
 * have another calling convention (ms_abi, regcall, ...), which kp_launch_refused, a bare
 * return, honours, but a direct cast would be a -Wcast-calling-convention warning. */
#define KP_LAUNCH_5(k, b, t, s, st)                                                            \
  (kp_configure_launch((const void *)(k), #k, KP_EXTENT(b), KP_EXTENT(t), (size_t)(s), (st))   \
       ? (k)                                                                                   \
       : (__typeof__(&*(k)))(uintptr_t)kp_launch_refused)
/* kp_launch(k, blocks, threads[, shared_bytes[, stream]])(args...) */
#define kp_launch(...)                                                                         \
  KP_LAUNCH_PICK(__VA_ARGS__, KP_LAUNCH_5, KP_LAUNCH_4, KP_LAUNCH_3, , )(__VA_ARGS__)

/* ------------------------------------------------------------------------------------------
 * Host side: memory (element counts in the macros, bytes in the functions; docs/memory.md)
 *
 * Kinds of memory the runtime knows, each usable by kernels in its own way:
 *   device     device_array, to_device, device_array_like: on the GPU; passed as is
 *   managed    managed_array: one pointer for host and device (unified memory); passed as is
 *   pinned     pinned_array: page-locked host memory; fast (and asynchronous) copies
 *   registered kp_register(p, bytes): existing host memory page-locked like pinned
 * A pinned or registered array passed to a kernel is copied to the device before the launch
 * and back after it (not back when the parameter is a pointer to const), and that launch
 * waits for the kernel. Any other non-NULL host pointer passed to a kernel is an error on
 * every backend. A pointer inside an allocation (p + k) counts as that allocation.
 * ---------------------------------------------------------------------------------------- */

/* kp_memory_kind_of(p): the kind of the allocation containing p. */
typedef enum kp_memory_kind {
  KP_MEMORY_UNKNOWN = 0, /* not allocated or registered through kernplug (or freed) */
  KP_MEMORY_DEVICE,
  KP_MEMORY_MANAGED,
  KP_MEMORY_PINNED,
  KP_MEMORY_REGISTERED
} kp_memory_kind;

void *kp_to_device_bytes(const void *host, size_t bytes);
void *kp_device_alloc_bytes(size_t bytes);
/* A device array the size of the allocation that starts at p (any kind). */
void *kp_device_alloc_like(const void *p);
void *kp_managed_alloc_bytes(size_t bytes);
void *kp_pinned_alloc_bytes(size_t bytes);
void kp_copy_to_host_bytes(void *host, const void *device_ptr, size_t bytes);
void kp_copy_to_device_bytes(void *device_ptr, const void *host, size_t bytes);
/* Frees a device, managed or pinned array (NULL: nothing). */
void kp_free(void *device_ptr);
/* Page-locks `bytes` of existing host memory at p so that kernels can take it like a pinned
 * array; returns p, or NULL after an error. kp_unregister(p) undoes it (p as registered). */
void *kp_register(void *p, size_t bytes);
void kp_unregister(void *p);
/* Bytes of the allocation that starts at p (0 if the runtime does not know it). */
size_t kp_alloc_size(const void *p);
kp_memory_kind kp_memory_kind_of(const void *p);
const char *kp_memory_kind_name(kp_memory_kind kind); /* "device", "managed", ... */

/* The same with an element count and size: a count whose size in bytes does not fit in a
 * size_t is an out-of-memory error naming the call, not a wrapped, smaller size. */
void *kp_to_device_elems(const void *host, size_t count, size_t elem_size);
void *kp_device_alloc_elems(size_t count, size_t elem_size);
void *kp_managed_alloc_elems(size_t count, size_t elem_size);
void *kp_pinned_alloc_elems(size_t count, size_t elem_size);
void kp_copy_to_host_elems(void *host, const void *device_ptr, size_t count, size_t elem_size);
void kp_copy_to_device_elems(void *device_ptr, const void *host, size_t count,
                             size_t elem_size);

#define kp_to_device(host, n) kp_to_device_elems((host), (size_t)(n), sizeof *(host))
#define kp_device_array(T, n) ((T *)kp_device_alloc_elems((size_t)(n), sizeof(T)))
#define kp_managed_array(T, n) ((T *)kp_managed_alloc_elems((size_t)(n), sizeof(T)))
#define kp_pinned_array(T, n) ((T *)kp_pinned_alloc_elems((size_t)(n), sizeof(T)))
/* &(d)[0]: the element pointer type whether d is a pointer or (by mistake) an array */
#define kp_device_array_like(d) ((__typeof__(&(d)[0]))kp_device_alloc_like(d))
#define kp_copy_to_host(host, d, n)                                                            \
  kp_copy_to_host_elems((host), (d), (size_t)(n), sizeof *(host))
#define kp_copy_to_device(d, host, n)                                                          \
  kp_copy_to_device_elems((d), (host), (size_t)(n), sizeof *(host))

/* ------------------------------------------------------------------------------------------
 * Host side: streams and events (docs/runtime.md, "Streams and events")
 *
 * A stream is a queue of device work: launches (launch(k, b, t, shared, stream)), the
 * asynchronous copies below, ufunc_stream/gufunc_stream/kp_reduce_stream and event records
 * run in the order they were issued to one stream; work on different streams may overlap.
 * NULL is the default stream, which waits for (and is waited for by) the other streams, as
 * CUDA's legacy default stream. Events mark a point in a stream: wait for it, ask whether it
 * has passed, time the work between two of them. On the CPU backend everything runs at once,
 * in call order, so stream order holds trivially and events measure host time.
 * The names keep their kp_ prefix (stream_create would be too generic a macro); the
 * asynchronous copies also have short names, next to copy_to_host.
 * ---------------------------------------------------------------------------------------- */

kp_stream kp_stream_create(void);          /* NULL after an error */
void kp_stream_destroy(kp_stream stream);  /* queued work still completes; NULL: nothing */
void kp_stream_synchronize(kp_stream stream); /* waits for the stream's work (NULL: default) */

kp_event kp_event_create(void);            /* timing enabled; NULL after an error */
void kp_event_destroy(kp_event event);     /* NULL: nothing */
void kp_event_record(kp_event event, kp_stream stream); /* marks the end of stream's work */
void kp_event_synchronize(kp_event event); /* waits until the recorded point has passed */
int kp_event_query(kp_event event);        /* 1 passed (or never recorded), 0 pending, -1 error */
/* Milliseconds between two recorded events (waits for both first); NaN after an error. */
float kp_event_elapsed_ms(kp_event start, kp_event end);

/* Copies queued on `stream`; they return at once on a GPU when the host memory is pinned
 * (pinned_array, kp_register), otherwise CUDA copies synchronously with the host. The host
 * memory must stay valid until the stream has finished the copy. */
void kp_copy_to_device_async_bytes(void *device_ptr, const void *host, size_t bytes,
                                   kp_stream stream);
void kp_copy_to_host_async_bytes(void *host, const void *device_ptr, size_t bytes,
                                 kp_stream stream);
/* Element counts, checked like kp_copy_to_host_elems. */
void kp_copy_to_device_async_elems(void *device_ptr, const void *host, size_t count,
                                   size_t elem_size, kp_stream stream);
void kp_copy_to_host_async_elems(void *host, const void *device_ptr, size_t count,
                                 size_t elem_size, kp_stream stream);
#define kp_copy_to_device_async(d, host, n, stream)                                            \
  kp_copy_to_device_async_elems((d), (host), (size_t)(n), sizeof *(host), (stream))
#define kp_copy_to_host_async(host, d, n, stream)                                              \
  kp_copy_to_host_async_elems((host), (d), (size_t)(n), sizeof *(host), (stream))

/* ------------------------------------------------------------------------------------------
 * Host side: runtime, devices, errors
 * ---------------------------------------------------------------------------------------- */

typedef enum kp_error {
  KP_SUCCESS = 0,
  KP_ERROR_INVALID_VALUE,    /* bad argument: size, pointer, configuration */
  KP_ERROR_NO_LAUNCH_CONFIG, /* a kernel called without launch(...) */
  KP_ERROR_LAUNCH,           /* the launch failed (limits, resources) */
  KP_ERROR_NO_DEVICE,        /* KP_BACKEND=cuda without a usable GPU */
  KP_ERROR_OUT_OF_MEMORY,
  KP_ERROR_CUDA,             /* any other CUDA driver error; the message names it */
  KP_ERROR_UNSUPPORTED,      /* the backend cannot run this kernel */
  KP_ERROR_INTERNAL
} kp_error;

/* What happens on an error: print the message and abort (the default, also selected by
 * KP_ERRORS=abort), or record it for kp_last_error() and return (KP_ERRORS=return). */
typedef enum kp_error_mode { KP_ERRORS_ABORT = 0, KP_ERRORS_RETURN = 1 } kp_error_mode;
void kp_set_error_mode(kp_error_mode mode);
/* The last error on this host thread, then cleared. */
kp_error kp_last_error(void);
/* The message of the last error on this host thread ("" if none); not cleared. */
const char *kp_last_error_message(void);

const char *kp_backend_name(void); /* "cuda" or "cpu" */
void kp_detect(void);              /* prints the devices, like numba.cuda.detect() */
void kp_synchronize(void);         /* waits for the calling thread's device */

/* ------------------------------------------------------------------------------------------
 * Host side: devices (docs/runtime.md, "Devices"). Each host thread uses one device, 0 until
 * it calls kp_select_device; launches, allocations and kp_synchronize go to that device. The
 * CPU backend has no CUDA devices (kp_device_count() is 0) and runs everything as device 0,
 * which kp_select_device(0) and kp_device_properties_get(0) accept.
 * ---------------------------------------------------------------------------------------- */

int kp_device_count(void);         /* CUDA devices usable by kernplug; 0 on the CPU backend */
void kp_select_device(int device); /* for the calling host thread; out of range: an error */
int kp_current_device(void);       /* the calling host thread's device */

typedef struct kp_device_properties {
  char name[256];             /* "NVIDIA H100 80GB HBM3"; on the CPU backend, the CPU's */
  int major, minor;           /* compute capability (9.0 = sm_90); 0.0 on the CPU backend */
  size_t total_memory;        /* bytes of device memory (CPU backend: the machine's) */
  int multiprocessors;        /* SMs (CPU backend: worker threads) */
  int max_threads_per_block;
  int max_threads_per_multiprocessor;
  int max_block[3];           /* threads.x, .y, .z */
  int max_grid[3];            /* blocks.x, .y, .z */
  size_t max_shared_per_block; /* static + dynamic shared bytes, after the opt-in */
  int warp_size;
  int registers_per_block;
  int clock_khz;              /* peak SM clock; 0 if unknown */
  int memory_clock_khz;       /* peak memory clock; 0 if unknown */
  int memory_bus_width;       /* bits; 0 if unknown */
  int l2_cache_bytes;
  int integrated;             /* shares memory with the host (Jetson, GH200's C2C is not) */
  int pci_domain, pci_bus, pci_device;
  char pci_bus_id[16];        /* "0000:07:00.0", as nvidia-smi prints it; "" on the CPU */
  int is_cpu;                 /* the CPU backend's device 0 */
} kp_device_properties;
/* Fills *out for `device`; returns KP_SUCCESS or the error it reported. */
kp_error kp_device_properties_get(int device, kp_device_properties *out);

/* ------------------------------------------------------------------------------------------
 * Host side: ufuncs — ufunc(f, n, out, in...) runs a vectorize function element-wise
 * (docs/ufuncs.md). Each argument is packed with its element type: a typed pointer is an
 * array of n elements (host or device), an arithmetic value is a scalar broadcast to every
 * element. The array element types pick the signature among those f declares.
 * ---------------------------------------------------------------------------------------- */

/* Element types, as in signature strings (kp_type_short_name gives "i8" ... "f64"). */
typedef enum kp_type {
  KP_TYPE_I8, KP_TYPE_I16, KP_TYPE_I32, KP_TYPE_I64,
  KP_TYPE_U8, KP_TYPE_U16, KP_TYPE_U32, KP_TYPE_U64,
  KP_TYPE_F32, KP_TYPE_F64,
  KP_TYPE_COUNT
} kp_type;

/* One packed argument: v.p for arrays; v.i, v.u or v.f for a signed, unsigned or floating
 * scalar (the widest of its kind, so that the runtime converts exactly once). */
typedef struct kp_ufunc_arg {
  int type;     /* kp_type of the element (of the scalar for scalars) */
  int is_array; /* a pointer: one element per index */
  int is_const; /* a pointer to const (never an output) */
  union {
    const void *p;
    long long i;
    unsigned long long u;
    double f;
  } v;
} kp_ufunc_arg;

/* The kp_type of C's integer types, whose widths the ABI picks. */
#define KP_TYPE_OF_INT(T, is_signed)                                                           \
  (sizeof(T) == 1   ? ((is_signed) ? KP_TYPE_I8 : KP_TYPE_U8)                                  \
   : sizeof(T) == 2 ? ((is_signed) ? KP_TYPE_I16 : KP_TYPE_U16)                                \
   : sizeof(T) == 4 ? ((is_signed) ? KP_TYPE_I32 : KP_TYPE_U32)                                \
                    : ((is_signed) ? KP_TYPE_I64 : KP_TYPE_U64))

/* X(suffix, C type, kp_type, union member) for every arithmetic type a ufunc accepts.
 * _Bool is an unsigned byte (0 or 1); plain char follows its signedness. */
#ifdef __cplusplus
typedef bool kp_bool_; /* the header stays includable from C++; the macros are C only */
#else
typedef _Bool kp_bool_;
#endif
typedef signed char kp_schar_;
typedef unsigned char kp_uchar_;
typedef unsigned short kp_ushort_;
#define KP_UFUNC_TYPES(X)                                                                      \
  X(bool, kp_bool_, KP_TYPE_U8, u)                                                             \
  X(char, char, KP_TYPE_OF_INT(char, (char)-1 < 0), i)                                         \
  X(schar, kp_schar_, KP_TYPE_I8, i)                                                           \
  X(uchar, kp_uchar_, KP_TYPE_U8, u)                                                           \
  X(short, short, KP_TYPE_I16, i)                                                              \
  X(ushort, kp_ushort_, KP_TYPE_U16, u)                                                        \
  X(int, int, KP_TYPE_OF_INT(int, 1), i)                                                       \
  X(uint, kp_uint_, KP_TYPE_OF_INT(unsigned, 0), u)                                            \
  X(long, long, KP_TYPE_OF_INT(long, 1), i)                                                    \
  X(ulong, kp_ulong_, KP_TYPE_OF_INT(unsigned long, 0), u)                                    \
  X(llong, kp_llong_, KP_TYPE_I64, i)                                                          \
  X(ullong, kp_ullong_, KP_TYPE_U64, u)                                                        \
  X(float, float, KP_TYPE_F32, f)                                                              \
  X(double, double, KP_TYPE_F64, f)

/* kp_uarg_array_<s>(const T *), kp_uarg_mut_<s>(T *), kp_uarg_scalar_<s>(T). A plain char
 * scalar is signed or unsigned like char itself; its value goes in v.i (it fits). */
#define KP_DEFINE_UARG(sfx, T, code, member)                                                   \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_array_##sfx(const T *p) {                              \
    kp_ufunc_arg a = {(int)(code), 1, 1, {p}};                                                 \
    return a;                                                                                  \
  }                                                                                            \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_mut_##sfx(T *p) {                                      \
    kp_ufunc_arg a = {(int)(code), 1, 0, {p}};                                                 \
    return a;                                                                                  \
  }                                                                                            \
  KP_ALWAYS_INLINE kp_ufunc_arg kp_uarg_scalar_##sfx(T x) {                                    \
    kp_ufunc_arg a = {(int)(code), 0, 0, {0}};                                                 \
    a.v.member = x;                                                                            \
    return a;                                                                                  \
  }
KP_UFUNC_TYPES(KP_DEFINE_UARG)

/* Packs one ufunc argument. Anything else (void *, a struct, a pointer to pointer, a 2D
 * array: pass &a[0][0]) selects this function, which takes no argument, so the call fails to
 * compile with its name in the message. */
kp_ufunc_arg kp_ufunc_argument_must_be_an_arithmetic_value_or_a_pointer_to_one(void);
#define KP_UARG(x)                                                                             \
  _Generic((x),                                                                                \
      const kp_bool_ *: kp_uarg_array_bool, kp_bool_ *: kp_uarg_mut_bool,                      \
      kp_bool_: kp_uarg_scalar_bool,                                                           \
      const char *: kp_uarg_array_char, char *: kp_uarg_mut_char, char: kp_uarg_scalar_char,   \
      const kp_schar_ *: kp_uarg_array_schar, kp_schar_ *: kp_uarg_mut_schar,                  \
      kp_schar_: kp_uarg_scalar_schar,                                                         \
      const kp_uchar_ *: kp_uarg_array_uchar, kp_uchar_ *: kp_uarg_mut_uchar,                  \
      kp_uchar_: kp_uarg_scalar_uchar,                                                         \
      const short *: kp_uarg_array_short, short *: kp_uarg_mut_short,                          \
      short: kp_uarg_scalar_short,                                                             \
      const kp_ushort_ *: kp_uarg_array_ushort, kp_ushort_ *: kp_uarg_mut_ushort,              \
      kp_ushort_: kp_uarg_scalar_ushort,                                                       \
      const int *: kp_uarg_array_int, int *: kp_uarg_mut_int, int: kp_uarg_scalar_int,         \
      const kp_uint_ *: kp_uarg_array_uint, kp_uint_ *: kp_uarg_mut_uint,                      \
      kp_uint_: kp_uarg_scalar_uint,                                                           \
      const long *: kp_uarg_array_long, long *: kp_uarg_mut_long, long: kp_uarg_scalar_long,   \
      const kp_ulong_ *: kp_uarg_array_ulong, kp_ulong_ *: kp_uarg_mut_ulong,                \
      kp_ulong_: kp_uarg_scalar_ulong,                                                        \
      const kp_llong_ *: kp_uarg_array_llong, kp_llong_ *: kp_uarg_mut_llong,                  \
      kp_llong_: kp_uarg_scalar_llong,                                                         \
      const kp_ullong_ *: kp_uarg_array_ullong, kp_ullong_ *: kp_uarg_mut_ullong,              \
      kp_ullong_: kp_uarg_scalar_ullong,                                                       \
      const float *: kp_uarg_array_float, float *: kp_uarg_mut_float,                          \
      float: kp_uarg_scalar_float,                                                             \
      const double *: kp_uarg_array_double, double *: kp_uarg_mut_double,                      \
      double: kp_uarg_scalar_double,                                                           \
      default: kp_ufunc_argument_must_be_an_arithmetic_value_or_a_pointer_to_one)(x)

/* KP_NARGS(a, ...): how many arguments (1 to 12); KP_UARGS(a, ...): KP_UARG of each. */
#define KP_NARGS(...) KP_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, )
#define KP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N, ...) N
#define KP_UARGS(...) KP_UARGS_N_(KP_NARGS(__VA_ARGS__), __VA_ARGS__)
#define KP_UARGS_N_(n, ...) KP_UARGS_N2_(n, __VA_ARGS__)
#define KP_UARGS_N2_(n, ...) KP_UARGS_##n(__VA_ARGS__)
#define KP_UARGS_1(a) KP_UARG(a)
#define KP_UARGS_2(a, ...) KP_UARG(a), KP_UARGS_1(__VA_ARGS__)
#define KP_UARGS_3(a, ...) KP_UARG(a), KP_UARGS_2(__VA_ARGS__)
#define KP_UARGS_4(a, ...) KP_UARG(a), KP_UARGS_3(__VA_ARGS__)
#define KP_UARGS_5(a, ...) KP_UARG(a), KP_UARGS_4(__VA_ARGS__)
#define KP_UARGS_6(a, ...) KP_UARG(a), KP_UARGS_5(__VA_ARGS__)
#define KP_UARGS_7(a, ...) KP_UARG(a), KP_UARGS_6(__VA_ARGS__)
#define KP_UARGS_8(a, ...) KP_UARG(a), KP_UARGS_7(__VA_ARGS__)
#define KP_UARGS_9(a, ...) KP_UARG(a), KP_UARGS_8(__VA_ARGS__)
#define KP_UARGS_10(a, ...) KP_UARG(a), KP_UARGS_9(__VA_ARGS__)
#define KP_UARGS_11(a, ...) KP_UARG(a), KP_UARGS_10(__VA_ARGS__)
#define KP_UARGS_12(a, ...) KP_UARG(a), KP_UARGS_11(__VA_ARGS__)

/* Runs the vectorize function f (spelled f_expr) over n elements: args[0] is the output
 * array, args[1..nargs-1] the inputs in f's parameter order. Host arrays are copied to the
 * device and the output back; device arrays stay where they are. Returns KP_SUCCESS or the
 * error (which abort mode has already reported). */
kp_error kp_ufunc_call(const void *f, const char *f_expr, long long n, kp_stream stream,
                       int nargs, const kp_ufunc_arg *args);

/* kp_ufunc(f, n, out, in...) and kp_ufunc_stream(stream, f, n, out, in...). */
#define kp_ufunc(f, n, ...) kp_ufunc_stream((kp_stream)0, f, n, __VA_ARGS__)
#define kp_ufunc_stream(stream, f, n, ...)                                                     \
  kp_ufunc_call((const void *)(f), #f, (long long)(n), (stream), KP_NARGS(__VA_ARGS__),        \
                (const kp_ufunc_arg[]){KP_UARGS(__VA_ARGS__)})

/* ------------------------------------------------------------------------------------------
 * Host side: gufuncs — gufunc(f, n, args...) runs a guvectorize function over n stacked
 * blocks (docs/ufuncs.md, "guvectorize and gufunc()"). The arguments are exactly f's: one
 * pointer per operand of f's layout, to n blocks of the operand's core dimensions one after
 * another (host or device arrays), then the size of each named core dimension. For
 * f = l2_norm with layout "(i)->()", gufunc(l2_norm, 10, &xy[0][0], norms, 2) computes the
 * norms of the 10 rows of float xy[10][2]. At most 12 arguments after n.
 * ---------------------------------------------------------------------------------------- */

/* Runs the guvectorize function f (spelled f_expr) over n blocks; args are f's nargs
 * arguments packed with KP_UARG. Host arrays are copied to the device (inputs and outputs)
 * and the outputs back; device arrays stay where they are. Returns KP_SUCCESS or the error
 * (which abort mode has already reported). */
kp_error kp_gufunc_call(const void *f, const char *f_expr, long long n, kp_stream stream,
                        int nargs, const kp_ufunc_arg *args);

/* kp_gufunc(f, n, args...) and kp_gufunc_stream(stream, f, n, args...). The branch that
 * never runs calls f itself, so that the compiler checks the arguments against f's
 * prototype (their number, the pointer types); only kp_gufunc_call is evaluated. */
#define kp_gufunc(f, n, ...) kp_gufunc_stream((kp_stream)0, f, n, __VA_ARGS__)
#define kp_gufunc_stream(stream, f, n, ...)                                                    \
  (0 ? ((void)(f)(__VA_ARGS__), KP_SUCCESS)                                                    \
     : kp_gufunc_call((const void *)(f), #f, (long long)(n), (stream), KP_NARGS(__VA_ARGS__),  \
                      (const kp_ufunc_arg[]){KP_UARGS(__VA_ARGS__)}))

/* ------------------------------------------------------------------------------------------
 * Host side: reduce — kp_reduce(f, in, n) folds the n elements of in (a host or device
 * array) with the reduce function T f(T, T) (docs/ufuncs.md, "reduce and kp_reduce()"):
 *   kp_reduce(f, in, n)                        f over in[0..n-1]; 0 when n == 0
 *   kp_reduce_init(f, in, n, init)             f(init, that); init when n == 0
 *   kp_reduce_stream(f, in, n, init, stream)   the same, its kernels on `stream`
 * Each returns a T, the element type of *in, which must be f's type: the compiler checks f
 * against it and the runtime checks f's kernel. f must be associative; it need not be
 * commutative (elements are combined in index order, grouped as a tree). The name `reduce`
 * is the attribute and is never a macro: there is no short name for kp_reduce.
 * ---------------------------------------------------------------------------------------- */

/* Folds n elements of kp_type `type` at `in` with the reduce function f (spelled f_expr)
 * into *result (untouched when n == 0). Returns KP_SUCCESS or the error (which abort mode
 * has already reported). */
kp_error kp_reduce_bytes(const void *f, const char *f_expr, int type, const void *in,
                         long long n, void *result, kp_stream stream);

/* kp_reduce_<s>(f, f_expr, in, n, has_init, init, stream) for every type of KP_UFUNC_TYPES.
 * init is combined on the host, by calling f, so that it may be any value. */
#define KP_DEFINE_REDUCE(sfx, T, code, member)                                                 \
  KP_ALWAYS_INLINE T kp_reduce_##sfx(T (*f)(T, T), const char *f_expr, const T *in,             \
                                     long long n, int has_init, T init, kp_stream stream) {     \
    T r = 0;                                                                                   \
    if (kp_reduce_bytes((const void *)f, f_expr, (int)(code), in, n, &r, stream) != KP_SUCCESS \
        || n < 1)                                                                              \
      return has_init ? init : (T)0;                                                           \
    return has_init ? f(init, r) : r;                                                          \
  }
KP_UFUNC_TYPES(KP_DEFINE_REDUCE)

/* Never defined: an array of anything else (a struct, a pointer) fails to compile here. */
void kp_reduce_needs_an_array_of_arithmetic_values(void);
#define KP_REDUCE_PICK(in)                                                                     \
  _Generic(*(in), kp_bool_: kp_reduce_bool, char: kp_reduce_char, kp_schar_: kp_reduce_schar,  \
           kp_uchar_: kp_reduce_uchar, short: kp_reduce_short, kp_ushort_: kp_reduce_ushort,   \
           int: kp_reduce_int, kp_uint_: kp_reduce_uint, long: kp_reduce_long,                 \
           kp_ulong_: kp_reduce_ulong, kp_llong_: kp_reduce_llong,                             \
           kp_ullong_: kp_reduce_ullong, float: kp_reduce_float, double: kp_reduce_double,     \
           default: kp_reduce_needs_an_array_of_arithmetic_values)
#define kp_reduce(f, in, n)                                                                    \
  KP_REDUCE_PICK(in)((f), #f, (in), (long long)(n), 0, 0, (kp_stream)0)
#define kp_reduce_init(f, in, n, init)                                                         \
  KP_REDUCE_PICK(in)((f), #f, (in), (long long)(n), 1, (init), (kp_stream)0)
#define kp_reduce_stream(f, in, n, init, stream)                                               \
  KP_REDUCE_PICK(in)((f), #f, (in), (long long)(n), 1, (init), (stream))

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------------------------
 * Short, Numba-like names
 * ---------------------------------------------------------------------------------------- */
#ifndef KP_NO_SHORT_NAMES
#define grid(ndim) kp_grid(ndim)
#define gridsize(ndim) kp_gridsize(ndim)
#define threadIdx kp_thread_idx()
#define blockIdx kp_block_idx()
#define blockDim kp_block_dim()
#define gridDim kp_grid_dim()
#define laneid() kp_laneid()
#define warpsize kp_warpsize
#define syncthreads() kp_syncthreads()
#define syncthreads_count(p) kp_syncthreads_count(p)
#define syncthreads_and(p) kp_syncthreads_and(p)
#define syncthreads_or(p) kp_syncthreads_or(p)
#define syncwarp(mask) kp_syncwarp(mask)
#define threadfence() kp_threadfence()
#define threadfence_block() kp_threadfence_block()
#define threadfence_system() kp_threadfence_system()
#define atomic_add(p, v) kp_atomic_add(p, v)
#define atomic_sub(p, v) kp_atomic_sub(p, v)
#define atomic_max(p, v) kp_atomic_max(p, v)
#define atomic_min(p, v) kp_atomic_min(p, v)
#define atomic_nanmax(p, v) kp_atomic_nanmax(p, v)
#define atomic_nanmin(p, v) kp_atomic_nanmin(p, v)
#define atomic_and(p, v) kp_atomic_and(p, v)
#define atomic_or(p, v) kp_atomic_or(p, v)
#define atomic_xor(p, v) kp_atomic_xor(p, v)
#define atomic_exch(p, v) kp_atomic_exch(p, v)
#define atomic_inc(p, limit) kp_atomic_inc(p, limit)
#define atomic_dec(p, limit) kp_atomic_dec(p, limit)
#define atomic_cas(p, expected, desired) kp_atomic_cas(p, expected, desired)
#define shfl_sync(mask, v, src_lane) kp_shfl_sync(mask, v, src_lane)
#define shfl_up_sync(mask, v, delta) kp_shfl_up_sync(mask, v, delta)
#define shfl_down_sync(mask, v, delta) kp_shfl_down_sync(mask, v, delta)
#define shfl_xor_sync(mask, v, lane_mask) kp_shfl_xor_sync(mask, v, lane_mask)
#define ballot_sync(mask, p) kp_ballot_sync(mask, p)
#define all_sync(mask, p) kp_all_sync(mask, p)
#define any_sync(mask, p) kp_any_sync(mask, p)
#define activemask() kp_activemask()
#define dim3(...) kp_dim3(__VA_ARGS__)
#define launch(...) kp_launch(__VA_ARGS__)
#define to_device(host, n) kp_to_device(host, n)
#define device_array(T, n) kp_device_array(T, n)
#define managed_array(T, n) kp_managed_array(T, n)
#define pinned_array(T, n) kp_pinned_array(T, n)
#define device_array_like(d) kp_device_array_like(d)
#define copy_to_host(host, d, n) kp_copy_to_host(host, d, n)
#define copy_to_device(d, host, n) kp_copy_to_device(d, host, n)
#define copy_to_host_async(host, d, n, stream) kp_copy_to_host_async(host, d, n, stream)
#define copy_to_device_async(d, host, n, stream) kp_copy_to_device_async(d, host, n, stream)
#define ufunc(f, n, ...) kp_ufunc(f, n, __VA_ARGS__)
#define ufunc_stream(stream, f, n, ...) kp_ufunc_stream(stream, f, n, __VA_ARGS__)
#define gufunc(f, n, ...) kp_gufunc(f, n, __VA_ARGS__)
#define gufunc_stream(stream, f, n, ...) kp_gufunc_stream(stream, f, n, __VA_ARGS__)
#endif

#endif /* KERNPLUG_H */
