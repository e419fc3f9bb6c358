/* fuzz_ref.h — the serial reference of the kernel fuzzer (gen_kernel.py pastes this file into
 * every program it generates, so that a generated program is one self-contained .c file).
 *
 * A generated program holds each kernel body once and compiles it twice (#include __FILE__):
 * pass 1 as kernplug kernels, pass 2 as ordinary host functions after the device API names
 * (threadIdx, grid(n), syncthreads(), shfl_*_sync(), atomic_*(), ...) have been redefined to
 * the functions below. The reference runs a grid one block after another, and the threads of
 * a block one after another on ucontext coroutines: a thread runs until it reaches a barrier
 * or a warp collective, the next thread runs, and the last thread to arrive computes the
 * result for all (syncthreads_count/and/or, shuffles and votes per warp of 32 lanes). Nothing
 * here shares code with kernplug's runtime: it is an independent model of the semantics in
 * docs/kernels.md. Kernels without barriers or warp functions run as a plain loop.
 *
 * Everything is deterministic: thread order, atomics (plain read-modify-write), results.
 * A barrier or warp collective that not every thread reaches, or threads that wait at
 * different ones, is a bug of the generator, reported as such (exit 3). */
#ifndef FUZZ_REF_H
#define FUZZ_REF_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

enum { FZR_MAXT = 1024, FZR_STACK = 128 * 1024, FZR_DYN_SHARED = 49152 };
enum { FZR_READY, FZR_WAIT, FZR_DONE };
enum { FZR_IDX, FZR_UP, FZR_DOWN, FZR_XOR, FZR_BALLOT, FZR_ALL, FZR_ANY };

static kp_dim3 fzr_tid, fzr_bid, fzr_bdim, fzr_gdim;
static int fzr_cur, fzr_nt, fzr_use_ctx;
static void (*fzr_entry)(void);
static ucontext_t fzr_main_ctx, fzr_ctx[FZR_MAXT];
static unsigned char *fzr_stacks;
static int fzr_state[FZR_MAXT];
/* barrier */
static int fzr_bar_arrived, fzr_bar_line, fzr_bar_kind, fzr_bar_sum;
static int fzr_bar_result[FZR_MAXT];
/* warp collectives */
static int fzr_w_arrived[FZR_MAXT / 32], fzr_w_line[FZR_MAXT / 32], fzr_w_kind[FZR_MAXT / 32];
static uint64_t fzr_w_val[FZR_MAXT], fzr_w_res[FZR_MAXT];
static long fzr_w_lane[FZR_MAXT];
static _Alignas(16) unsigned char fzr_dyn_shared[FZR_DYN_SHARED];

static void fzr_fail(const char *what, int line) {
  fprintf(stderr,
          "fuzz reference: %s (line %d, block %u,%u,%u, thread %d) -- a generator bug, not a "
          "kernplug one\n",
          what, line, fzr_bid.x, fzr_bid.y, fzr_bid.z, fzr_cur);
  exit(3);
}

static void fzr_set_tid(int t) {
  fzr_cur = t;
  fzr_tid.x = (unsigned)t % fzr_bdim.x;
  fzr_tid.y = ((unsigned)t / fzr_bdim.x) % fzr_bdim.y;
  fzr_tid.z = (unsigned)t / (fzr_bdim.x * fzr_bdim.y);
}

/* Blocks a coroutine until the scheduler resumes it. */
static void fzr_wait(void) {
  int t = fzr_cur;
  fzr_state[t] = FZR_WAIT;
  swapcontext(&fzr_ctx[t], &fzr_main_ctx);
}

static int fzr_barrier(int kind, int pred, int line) {
  if (!fzr_use_ctx) fzr_fail("barrier in a kernel marked barrier-free", line);
  int t = fzr_cur;
  if (fzr_bar_arrived == 0) {
    fzr_bar_line = line;
    fzr_bar_kind = kind;
    fzr_bar_sum = 0;
  } else if (fzr_bar_line != line || fzr_bar_kind != kind) {
    fzr_fail("threads wait at different barriers", line);
  }
  fzr_bar_sum += pred != 0;
  if (++fzr_bar_arrived == fzr_nt) {
    int r = kind == 1 ? fzr_bar_sum : kind == 2 ? fzr_bar_sum == fzr_nt : fzr_bar_sum != 0;
    for (int i = 0; i < fzr_nt; i++) {
      fzr_bar_result[i] = r;
      if (i != t) fzr_state[i] = FZR_READY;
    }
    fzr_bar_arrived = 0;
  } else {
    fzr_wait();
  }
  return fzr_bar_result[t];
}

static uint64_t fzr_warp(int kind, unsigned mask, uint64_t v, long lane, int line) {
  if (!fzr_use_ctx) fzr_fail("warp function in a kernel marked barrier-free", line);
  if (mask != 0xffffffffu) fzr_fail("warp mask other than 0xffffffff", line);
  int t = fzr_cur, w = t / 32, base = w * 32;
  int n = fzr_nt - base < 32 ? fzr_nt - base : 32;
  if (n != 32) fzr_fail("warp function in a partial warp", line);
  if (fzr_w_arrived[w] == 0) {
    fzr_w_line[w] = line;
    fzr_w_kind[w] = kind;
  } else if (fzr_w_line[w] != line || fzr_w_kind[w] != kind) {
    fzr_fail("lanes of a warp wait at different warp functions", line);
  }
  fzr_w_val[t] = v;
  fzr_w_lane[t] = lane;
  if (++fzr_w_arrived[w] == n) {
    uint64_t ballot = 0;
    for (int l = 0; l < n; l++) ballot |= (uint64_t)(fzr_w_val[base + l] != 0) << l;
    for (int l = 0; l < n; l++) {
      long a = fzr_w_lane[base + l];
      long src = l;
      switch (kind) {
      case FZR_IDX: src = (long)((unsigned long)a % 32u); break;
      case FZR_UP: src = l - a < 0 ? l : l - a; break;
      case FZR_DOWN: src = l + a > 31 ? l : l + a; break;
      case FZR_XOR: src = (l ^ a) > 31 ? l : (l ^ a); break;
      }
      uint64_t r;
      if (kind == FZR_BALLOT) r = ballot;
      else if (kind == FZR_ALL) r = ballot == 0xffffffffu;
      else if (kind == FZR_ANY) r = ballot != 0;
      else r = fzr_w_val[base + src];
      fzr_w_res[base + l] = r;
      if (base + l != t) fzr_state[base + l] = FZR_READY;
    }
    fzr_w_arrived[w] = 0;
  } else {
    fzr_wait();
  }
  return fzr_w_res[t];
}

static void fzr_thread_main(void) {
  fzr_entry();
  fzr_state[fzr_cur] = FZR_DONE;
  if (fzr_bar_arrived) fzr_fail("a thread exited while others wait at a barrier", 0);
  /* returning resumes uc_link, the scheduler */
}

static void fzr_run_block(void) {
  if (!fzr_use_ctx) {
    for (int t = 0; t < fzr_nt; t++) {
      fzr_set_tid(t);
      fzr_entry();
    }
    return;
  }
  if (!fzr_stacks) {
    fzr_stacks = mmap(NULL, (size_t)FZR_MAXT * FZR_STACK, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (fzr_stacks == MAP_FAILED) fzr_fail("out of memory for coroutine stacks", 0);
  }
  fzr_bar_arrived = 0;
  memset(fzr_w_arrived, 0, sizeof fzr_w_arrived);
  for (int t = 0; t < fzr_nt; t++) {
    getcontext(&fzr_ctx[t]);
    fzr_ctx[t].uc_stack.ss_sp = fzr_stacks + (size_t)t * FZR_STACK;
    fzr_ctx[t].uc_stack.ss_size = FZR_STACK;
    fzr_ctx[t].uc_link = &fzr_main_ctx;
    makecontext(&fzr_ctx[t], fzr_thread_main, 0);
    fzr_state[t] = FZR_READY;
  }
  for (;;) {
    int ran = 0, done = 0;
    for (int t = 0; t < fzr_nt; t++) {
      if (fzr_state[t] == FZR_READY) {
        fzr_set_tid(t);
        swapcontext(&fzr_main_ctx, &fzr_ctx[t]);
        ran = 1;
      }
      done += fzr_state[t] == FZR_DONE;
    }
    if (done == fzr_nt) break;
    if (!ran) fzr_fail("deadlock: some threads wait at a barrier or warp function forever", 0);
  }
}

/* Runs entry() as every thread of a grid of `grid` blocks of `block` threads. */
static void fzr_launch(kp_dim3 grid, kp_dim3 block, void (*entry)(void), int use_ctx) {
  fzr_gdim = grid;
  fzr_bdim = block;
  fzr_nt = (int)(block.x * block.y * block.z);
  if (fzr_nt > FZR_MAXT) fzr_fail("block too large", 0);
  fzr_entry = entry;
  fzr_use_ctx = use_ctx;
  for (unsigned z = 0; z < grid.z; z++)
    for (unsigned y = 0; y < grid.y; y++)
      for (unsigned x = 0; x < grid.x; x++) {
        fzr_bid.x = x;
        fzr_bid.y = y;
        fzr_bid.z = z;
        fzr_run_block();
      }
}

/* ---- indexing ---- */
static inline int fzr_grid_1(void) { return (int)(fzr_bid.x * fzr_bdim.x + fzr_tid.x); }
static inline kp_int2 fzr_grid_2(void) {
  kp_int2 r = {(int)(fzr_bid.x * fzr_bdim.x + fzr_tid.x), (int)(fzr_bid.y * fzr_bdim.y + fzr_tid.y)};
  return r;
}
static inline kp_int3 fzr_grid_3(void) {
  kp_int3 r = {(int)(fzr_bid.x * fzr_bdim.x + fzr_tid.x), (int)(fzr_bid.y * fzr_bdim.y + fzr_tid.y),
               (int)(fzr_bid.z * fzr_bdim.z + fzr_tid.z)};
  return r;
}
static inline int fzr_gridsize_1(void) { return (int)(fzr_gdim.x * fzr_bdim.x); }
static inline kp_int2 fzr_gridsize_2(void) {
  kp_int2 r = {(int)(fzr_gdim.x * fzr_bdim.x), (int)(fzr_gdim.y * fzr_bdim.y)};
  return r;
}
static inline kp_int3 fzr_gridsize_3(void) {
  kp_int3 r = {(int)(fzr_gdim.x * fzr_bdim.x), (int)(fzr_gdim.y * fzr_bdim.y),
               (int)(fzr_gdim.z * fzr_bdim.z)};
  return r;
}

/* ---- shuffles: the types of kernplug.h's _Generic, narrow types moving as an int ---- */
#define FZR_DEF_SHFL(T, N)                                                                     \
  static inline T fzr_shfl_##N(int kind, unsigned mask, T v, long lane, int line) {            \
    uint64_t b = 0;                                                                            \
    memcpy(&b, &v, sizeof v);                                                                  \
    b = fzr_warp(kind, mask, b, lane, line);                                                   \
    T r;                                                                                       \
    memcpy(&r, &b, sizeof r);                                                                  \
    return r;                                                                                  \
  }
FZR_DEF_SHFL(int, int)
FZR_DEF_SHFL(unsigned, uint)
FZR_DEF_SHFL(float, float)
FZR_DEF_SHFL(long, long)
FZR_DEF_SHFL(unsigned long, ulong)
FZR_DEF_SHFL(long long, llong)
FZR_DEF_SHFL(unsigned long long, ullong)
FZR_DEF_SHFL(double, double)
#define FZR_SHFL(kind, mask, v, lane)                                                          \
  _Generic((v), int: fzr_shfl_int, unsigned: fzr_shfl_uint, float: fzr_shfl_float,             \
           long: fzr_shfl_long, unsigned long: fzr_shfl_ulong, long long: fzr_shfl_llong,      \
           unsigned long long: fzr_shfl_ullong, double: fzr_shfl_double, _Bool: fzr_shfl_int,  \
           char: fzr_shfl_int, signed char: fzr_shfl_int, unsigned char: fzr_shfl_int,         \
           short: fzr_shfl_int, unsigned short: fzr_shfl_int)(kind, (mask), (v), (long)(lane), \
                                                              __LINE__)

/* ---- atomics: serial read-modify-write with kernplug's rules (docs/kernels.md) ---- */
#define FZR_INT_ATOMICS(sfx, T, UT)                                                            \
  static inline T fzr_atomic_add_##sfx(T *p, T v) { T o = *p; *p = (T)((UT)o + (UT)v); return o; } \
  static inline T fzr_atomic_sub_##sfx(T *p, T v) { T o = *p; *p = (T)((UT)o - (UT)v); return o; } \
  static inline T fzr_atomic_and_##sfx(T *p, T v) { T o = *p; *p = o & v; return o; }           \
  static inline T fzr_atomic_or_##sfx(T *p, T v) { T o = *p; *p = o | v; return o; }            \
  static inline T fzr_atomic_xor_##sfx(T *p, T v) { T o = *p; *p = o ^ v; return o; }           \
  static inline T fzr_atomic_exch_##sfx(T *p, T v) { T o = *p; *p = v; return o; }              \
  static inline T fzr_atomic_max_##sfx(T *p, T v) { T o = *p; if (o < v) *p = v; return o; }    \
  static inline T fzr_atomic_min_##sfx(T *p, T v) { T o = *p; if (v < o) *p = v; return o; }    \
  static inline T fzr_atomic_nanmax_##sfx(T *p, T v) { return fzr_atomic_max_##sfx(p, v); }     \
  static inline T fzr_atomic_nanmin_##sfx(T *p, T v) { return fzr_atomic_min_##sfx(p, v); }     \
  static inline T fzr_atomic_cas_##sfx(T *p, T e, T d) { T o = *p; if (o == e) *p = d; return o; }
FZR_INT_ATOMICS(i32, int, unsigned)
FZR_INT_ATOMICS(u32, unsigned, unsigned)
FZR_INT_ATOMICS(il, long, unsigned long)
FZR_INT_ATOMICS(ul, unsigned long, unsigned long)
FZR_INT_ATOMICS(i64, long long, unsigned long long)
FZR_INT_ATOMICS(u64, unsigned long long, unsigned long long)

#define FZR_FLOAT_ATOMICS(sfx, T)                                                              \
  static inline T fzr_atomic_add_##sfx(T *p, T v) { T o = *p; *p = o + v; return o; }           \
  static inline T fzr_atomic_sub_##sfx(T *p, T v) { T o = *p; *p = o + -v; return o; }          \
  static inline T fzr_atomic_exch_##sfx(T *p, T v) { T o = *p; *p = v; return o; }              \
  static inline T fzr_atomic_max_##sfx(T *p, T v) {                                            \
    T o = *p; if (!isnan(v) && !isnan(o) && o < v) *p = v; return o;                           \
  }                                                                                            \
  static inline T fzr_atomic_min_##sfx(T *p, T v) {                                            \
    T o = *p; if (!isnan(v) && !isnan(o) && v < o) *p = v; return o;                           \
  }                                                                                            \
  static inline T fzr_atomic_nanmax_##sfx(T *p, T v) {                                         \
    T o = *p; if (!isnan(v) && (isnan(o) || o < v)) *p = v; return o;                          \
  }                                                                                            \
  static inline T fzr_atomic_nanmin_##sfx(T *p, T v) {                                         \
    T o = *p; if (!isnan(v) && (isnan(o) || v < o)) *p = v; return o;                          \
  }                                                                                            \
  static inline T fzr_atomic_cas_##sfx(T *p, T e, T d) {                                       \
    T o = *p; if (memcmp(&o, &e, sizeof o) == 0) *p = d; return o;                             \
  }
FZR_FLOAT_ATOMICS(f32, float)
FZR_FLOAT_ATOMICS(f64, double)

#define FZR_INCDEC(sfx, T)                                                                     \
  static inline T fzr_atomic_inc_##sfx(T *p, T l) { T o = *p; *p = o >= l ? 0 : o + 1; return o; } \
  static inline T fzr_atomic_dec_##sfx(T *p, T l) {                                            \
    T o = *p; *p = (o == 0 || o > l) ? l : o - 1; return o;                                    \
  }
FZR_INCDEC(u32, unsigned)
FZR_INCDEC(ul, unsigned long)
FZR_INCDEC(u64, unsigned long long)

#define FZR_ATOMIC_ALL(op, p)                                                                  \
  _Generic((p), int *: fzr_atomic_##op##_i32, unsigned *: fzr_atomic_##op##_u32,               \
           long *: fzr_atomic_##op##_il, unsigned long *: fzr_atomic_##op##_ul,                \
           long long *: fzr_atomic_##op##_i64, unsigned long long *: fzr_atomic_##op##_u64,    \
           float *: fzr_atomic_##op##_f32, double *: fzr_atomic_##op##_f64)
#define FZR_ATOMIC_INTS(op, p)                                                                 \
  _Generic((p), int *: fzr_atomic_##op##_i32, unsigned *: fzr_atomic_##op##_u32,               \
           long *: fzr_atomic_##op##_il, unsigned long *: fzr_atomic_##op##_ul,                \
           long long *: fzr_atomic_##op##_i64, unsigned long long *: fzr_atomic_##op##_u64)
#define FZR_ATOMIC_UNSIGNED(op, p)                                                             \
  _Generic((p), unsigned *: fzr_atomic_##op##_u32, unsigned long *: fzr_atomic_##op##_ul,      \
           unsigned long long *: fzr_atomic_##op##_u64)

#endif /* FUZZ_REF_H */

/* The redefinitions of the device API for pass 2: this part is pasted (by the generator) after
 * the kernel pass and before the reference pass, so it is outside the include guard. */
#ifdef FZR_REDEFINE_API
#undef threadIdx
#undef blockIdx
#undef blockDim
#undef gridDim
#undef grid
#undef gridsize
#undef laneid
#undef syncthreads
#undef syncthreads_count
#undef syncthreads_and
#undef syncthreads_or
#undef shfl_sync
#undef shfl_up_sync
#undef shfl_down_sync
#undef shfl_xor_sync
#undef ballot_sync
#undef all_sync
#undef any_sync
#undef atomic_add
#undef atomic_sub
#undef atomic_max
#undef atomic_min
#undef atomic_nanmax
#undef atomic_nanmin
#undef atomic_and
#undef atomic_or
#undef atomic_xor
#undef atomic_exch
#undef atomic_cas
#undef atomic_inc
#undef atomic_dec
#undef kp_dynamic_shared
#undef syncwarp
#undef threadfence
#undef threadfence_block
#undef threadfence_system
#define syncwarp(mask) ((void)fzr_warp(FZR_ANY, (mask), 0, 0, __LINE__))
#define threadfence() ((void)0)
#define threadfence_block() ((void)0)
#define threadfence_system() ((void)0)
#define threadIdx fzr_tid
#define blockIdx fzr_bid
#define blockDim fzr_bdim
#define gridDim fzr_gdim
#define grid(n) fzr_grid_##n()
#define gridsize(n) fzr_gridsize_##n()
#define laneid() (fzr_cur % 32)
#define syncthreads() ((void)fzr_barrier(0, 0, __LINE__))
#define syncthreads_count(p) fzr_barrier(1, (p) != 0, __LINE__)
#define syncthreads_and(p) fzr_barrier(2, (p) != 0, __LINE__)
#define syncthreads_or(p) fzr_barrier(3, (p) != 0, __LINE__)
#define shfl_sync(mask, v, src) FZR_SHFL(FZR_IDX, mask, v, src)
#define shfl_up_sync(mask, v, d) FZR_SHFL(FZR_UP, mask, v, d)
#define shfl_down_sync(mask, v, d) FZR_SHFL(FZR_DOWN, mask, v, d)
#define shfl_xor_sync(mask, v, m) FZR_SHFL(FZR_XOR, mask, v, m)
#define ballot_sync(mask, p) ((unsigned)fzr_warp(FZR_BALLOT, (mask), (p) != 0, 0, __LINE__))
#define all_sync(mask, p) ((int)fzr_warp(FZR_ALL, (mask), (p) != 0, 0, __LINE__))
#define any_sync(mask, p) ((int)fzr_warp(FZR_ANY, (mask), (p) != 0, 0, __LINE__))
#define atomic_add(p, v) FZR_ATOMIC_ALL(add, p)((p), (v))
#define atomic_sub(p, v) FZR_ATOMIC_ALL(sub, p)((p), (v))
#define atomic_max(p, v) FZR_ATOMIC_ALL(max, p)((p), (v))
#define atomic_min(p, v) FZR_ATOMIC_ALL(min, p)((p), (v))
#define atomic_nanmax(p, v) FZR_ATOMIC_ALL(nanmax, p)((p), (v))
#define atomic_nanmin(p, v) FZR_ATOMIC_ALL(nanmin, p)((p), (v))
#define atomic_exch(p, v) FZR_ATOMIC_ALL(exch, p)((p), (v))
#define atomic_cas(p, e, d) FZR_ATOMIC_ALL(cas, p)((p), (e), (d))
#define atomic_and(p, v) FZR_ATOMIC_INTS(and, p)((p), (v))
#define atomic_or(p, v) FZR_ATOMIC_INTS(or, p)((p), (v))
#define atomic_xor(p, v) FZR_ATOMIC_INTS(xor, p)((p), (v))
#define atomic_inc(p, l) FZR_ATOMIC_UNSIGNED(inc, p)((p), (l))
#define atomic_dec(p, l) FZR_ATOMIC_UNSIGNED(dec, p)((p), (l))
#define kp_dynamic_shared(T) ((T *)fzr_dyn_shared)
#undef FZR_REDEFINE_API
#endif
