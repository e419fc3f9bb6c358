/* reduce_geometry.h — how kp_reduce()'s block-reduction kernels divide their input: the one
 * definition that the kernels (runtime/device/reduce_template.c) and the runtime that sizes
 * their grid (runtime/ufunc/reduce.c) both compile. Macros of constant expressions, so that
 * the templates can size arrays with them.
 *
 * Each lane folds SPAN = KP_REDUCE_LANE_BYTES / sizeof(T) consecutive elements per step, so a
 * warp step reads a TILE of KP_REDUCE_WARP * SPAN elements (1 KiB) and the shuffle tree runs
 * once per tile. A block has a multiple of KP_REDUCE_WARP threads (at most
 * KP_REDUCE_MAX_WARPS warps). For n elements, `blocks` blocks of `warps` warps:
 *   tiles = ceil(n / TILE), per = ceil(tiles / (blocks * warps)) tiles per warp,
 *   and the runtime launches only the ceil(tiles / (warps * per)) blocks that have elements.
 * Global warp w folds the contiguous range [w * per * TILE, ...) of the input in index order,
 * so block b folds a contiguous range and writes f folded over it to out[b]. */
#ifndef KP_ABI_REDUCE_GEOMETRY_H
#define KP_ABI_REDUCE_GEOMETRY_H

#define KP_REDUCE_WARP 32       /* threads of a warp */
#define KP_REDUCE_MAX_WARPS 32  /* warps of the largest block (1024 threads) */
#define KP_REDUCE_LANE_BYTES 32 /* bytes a lane folds per step */

#define KP_REDUCE_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
/* Elements a lane folds per step, and a warp, for elements of esize bytes. */
#define KP_REDUCE_SPAN(esize) ((long long)(KP_REDUCE_LANE_BYTES / (esize)))
#define KP_REDUCE_TILE(esize) (KP_REDUCE_WARP * KP_REDUCE_SPAN(esize))
/* Tiles each warp folds when all_warps warps share `tiles`. */
#define KP_REDUCE_TILES_PER_WARP(tiles, all_warps) KP_REDUCE_CEIL_DIV(tiles, all_warps)

#endif /* KP_ABI_REDUCE_GEOMETRY_H */
