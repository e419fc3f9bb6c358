/* reduce_template.c — the kernels behind kp_reduce(), written once per element width.
 *
 * Compiled for the HOST triple to kernplug-reduce.bc, without the plugin and without LLVM
 * passes (the IR a user's kernel has when the plugin sees it). For each reduce function f
 * with element type T, the plugin (plugin/generated/ReduceKernels.cpp) links the two templates of T's
 * width into the user's module, clones them and replaces every call of
 * __kp_reduce_op_<w>(a, b) with f(a, b):
 *
 *   __kp_reduce_gpu_<w>  becomes the device kernel __kp_reduce_<f>(n, in, out)
 *   __kp_reduce_cpu_<w>  becomes the host copy the CPU backend runs under the same name
 *
 * Signed and unsigned types of one width share a template: nothing here depends on the sign
 * (values are only moved, and combined by f).
 *
 * Contract: the geometry of abi/reduce_geometry.h, which the runtime (runtime/ufunc/reduce.c)
 * launches accordingly: blockDim.x a multiple of KP_REDUCE_WARP, every block has elements,
 * and global warp w folds the contiguous range [w * per * TILE, …) of `in` in index order.
 * Because ranges are contiguous and every combination keeps left operands left, f needs to be
 * associative but not commutative.
 */
#include <stdint.h>

#define KP_NO_SHORT_NAMES
#include "kernplug.h"
#include "reduce_geometry.h" /* abi/ */

#define KP_FULL_WARP 0xffffffffu

/* Per-warp results of a block. Shared memory on the GPU (the plugin reads the annotation as
 * it reads `shared`); one union for every width, so that linking brings in one array. */
static union {
  signed char w8[KP_REDUCE_MAX_WARPS];
  short w16[KP_REDUCE_MAX_WARPS];
  int w32[KP_REDUCE_MAX_WARPS];
  long long w64[KP_REDUCE_MAX_WARPS];
  float f32[KP_REDUCE_MAX_WARPS];
  double f64[KP_REDUCE_MAX_WARPS];
} kp_reduce_partials __attribute__((annotate("kernplug.shared"), aligned(16)));

/* Where this block's warps read: per is the elements each warp folds (whole tiles). */
typedef struct kp_reduce_geometry {
  long long per;        /* elements per warp */
  long long warps;      /* warps per block */
  long long block_base; /* first element of this block */
} kp_reduce_geometry;

static inline kp_reduce_geometry kp_reduce_geometry_of(long long n, long long tile) {
  kp_reduce_geometry g;
  long long tiles = KP_REDUCE_CEIL_DIV(n, tile);
  g.warps = (long long)(kp_dev_ntid_x() / KP_REDUCE_WARP);
  if (g.warps < 1) g.warps = 1;
  long long all_warps = (long long)kp_dev_nctaid_x() * g.warps;
  g.per = KP_REDUCE_TILES_PER_WARP(tiles, all_warps) * tile;
  g.block_base = (long long)kp_dev_ctaid_x() * g.warps * g.per;
  return g;
}

/* How many of `parts` consecutive groups of `size` elements hold any of the `rest` elements
 * that start at the first group. */
static inline unsigned kp_reduce_groups(long long rest, long long size, unsigned parts) {
  if (rest >= size * (long long)parts) return parts;
  return (unsigned)((rest + size - 1) / size);
}

#define KP_REDUCE_TEMPLATE(W, T, PARTIALS)                                                     \
  T __kp_reduce_op_##W(T a, T b);                                                              \
                                                                                               \
  /* Folds the values of lanes [0, valid) in lane order into lane 0: at distance d, lane l    \
   * (a multiple of 2d) takes lane l + d's result, which covers the lanes just after its own. \
   * Lanes past `valid` hold no element and are never combined. */                            \
  static inline T kp_reduce_warp_##W(T x, unsigned lane, unsigned valid) {                     \
    for (unsigned d = 1; d < KP_REDUCE_WARP; d <<= 1) {                                        \
      T y = (T)kp_shfl_down_sync(KP_FULL_WARP, x, d);                                          \
      if ((lane & (2 * d - 1)) == 0 && lane + d < valid) x = __kp_reduce_op_##W(x, y);         \
    }                                                                                          \
    return x;                                                                                  \
  }                                                                                            \
                                                                                               \
  /* One lane's SPAN elements from s, or those before `end` in a partial tile. */              \
  static inline T kp_reduce_lane_##W(const T *in, long long s, long long end, int full) {      \
    const long long span = KP_REDUCE_SPAN(sizeof(T));                                          \
    if (full) { /* all loads first: they merge into vector loads when `in` is aligned */    \
      T v[KP_REDUCE_SPAN(sizeof(T))];                                                          \
      for (long long j = 0; j < span; j++) v[j] = in[s + j];                                   \
      T x = v[0];                                                                              \
      for (long long j = 1; j < span; j++) x = __kp_reduce_op_##W(x, v[j]);                    \
      return x;                                                                                \
    }                                                                                          \
    T x = in[s];                                                                               \
    for (long long j = 1; j < span && s + j < end; j++) x = __kp_reduce_op_##W(x, in[s + j]);  \
    return x;                                                                                  \
  }                                                                                            \
                                                                                               \
  void __kp_reduce_gpu_##W(long long n, const T *in, T *out) {                                 \
    const long long span = KP_REDUCE_SPAN(sizeof(T)), tile = KP_REDUCE_TILE(sizeof(T));        \
    kp_reduce_geometry g = kp_reduce_geometry_of(n, tile);                                     \
    if (g.block_base >= n) return; /* the runtime never launches such a block */               \
    unsigned tid = kp_dev_tid_x(), lane = tid % KP_REDUCE_WARP, warp = tid / KP_REDUCE_WARP;   \
    long long begin = g.block_base + (long long)warp * g.per;                                  \
    long long end = begin + g.per < n ? begin + g.per : n;                                     \
    /* Aligned input (device allocations are): lanes read whole pieces of LANE_BYTES. */     \
    int aligned = ((uintptr_t)in & (KP_REDUCE_LANE_BYTES - 1)) == 0;                           \
    T acc = 0;                                                                                 \
    for (long long t = begin; t < end; t += tile) { /* the same trip count in every lane */    \
      long long s = t + (long long)lane * span;                                                \
      int full = end - t >= tile;                                                              \
      T x = 0;                                                                                 \
      if (full && aligned)                                                                     \
        x = kp_reduce_lane_##W(                                                                \
            (const T *)__builtin_assume_aligned(in + s, KP_REDUCE_LANE_BYTES), 0, 0, 1);       \
      else if (s < end)                                                                        \
        x = kp_reduce_lane_##W(in, s, end, full);                                              \
      x = kp_reduce_warp_##W(x, lane, kp_reduce_groups(end - t, span, KP_REDUCE_WARP));        \
      if (lane == 0) acc = t == begin ? x : __kp_reduce_op_##W(acc, x);                        \
    }                                                                                          \
    if (lane == 0 && begin < end) kp_reduce_partials.PARTIALS[warp] = acc;                     \
    kp_dev_syncthreads();                                                                      \
    if (warp == 0) {                                                                           \
      unsigned valid = kp_reduce_groups(n - g.block_base, g.per, (unsigned)g.warps);           \
      T x = lane < valid ? kp_reduce_partials.PARTIALS[lane] : (T)0;                           \
      x = kp_reduce_warp_##W(x, lane, valid);                                                  \
      if (lane == 0) out[kp_dev_ctaid_x()] = x;                                                \
    }                                                                                          \
  }                                                                                            \
                                                                                               \
  /* The CPU backend's copy: thread 0 of each block folds the block's range with plain calls  \
   * of f (inlined by the host compiler), four contiguous quarters at a time so that four     \
   * independent chains keep the core busy; the other threads have nothing to do. */          \
  void __kp_reduce_cpu_##W(long long n, const T *in, T *out) {                                 \
    if (kp_dev_tid_x() != 0) return;                                                           \
    kp_reduce_geometry g = kp_reduce_geometry_of(n, KP_REDUCE_TILE(sizeof(T)));                \
    long long b = g.block_base, e = b + g.warps * g.per < n ? b + g.warps * g.per : n;         \
    if (b >= e) return;                                                                        \
    long long q = (e - b) / 4;                                                                 \
    T r;                                                                                       \
    if (q < 8) {                                                                               \
      r = in[b];                                                                               \
      for (long long i = b + 1; i < e; i++) r = __kp_reduce_op_##W(r, in[i]);                  \
    } else {                                                                                   \
      const T *p0 = in + b, *p1 = p0 + q, *p2 = p1 + q, *p3 = p2 + q;                          \
      T a0 = p0[0], a1 = p1[0], a2 = p2[0], a3 = p3[0];                                        \
      for (long long i = 1; i < q; i++) {                                                      \
        a0 = __kp_reduce_op_##W(a0, p0[i]);                                                    \
        a1 = __kp_reduce_op_##W(a1, p1[i]);                                                    \
        a2 = __kp_reduce_op_##W(a2, p2[i]);                                                    \
        a3 = __kp_reduce_op_##W(a3, p3[i]);                                                    \
      }                                                                                        \
      for (long long i = b + 4 * q; i < e; i++) a3 = __kp_reduce_op_##W(a3, in[i]);            \
      r = __kp_reduce_op_##W(__kp_reduce_op_##W(a0, a1), __kp_reduce_op_##W(a2, a3));          \
    }                                                                                          \
    out[kp_dev_ctaid_x()] = r;                                                                 \
  }

KP_REDUCE_TEMPLATE(i8, signed char, w8)
KP_REDUCE_TEMPLATE(i16, short, w16)
KP_REDUCE_TEMPLATE(i32, int, w32)
KP_REDUCE_TEMPLATE(i64, long long, w64)
KP_REDUCE_TEMPLATE(f32, float, f32)
KP_REDUCE_TEMPLATE(f64, double, f64)
