/* reduce.c — kp_reduce(f, in, n): a full reduction with the kernel the plugin generated
 * from the reduce function f (plugin/generated/ReduceKernels.cpp, runtime/device/reduce_template.c).
 *
 * Pass 1 folds `in` into one partial result per block; each further pass folds the
 * partials the same way until one value is left (two passes in practice: pass 1 has at
 * most as many blocks as fill the device). Blocks fold contiguous ranges in index order, so
 * f need only be associative. On the CPU backend the host array is used in place and the
 * kernel's host copy folds each block's range on one worker with f inlined; on a GPU a
 * host array is copied to the device first.
 *
 * Block geometry: abi/reduce_geometry.h, which the kernels compile too; `blocks` and the
 * warps per block come from the occupancy answer, and only the blocks that then have elements
 * are launched. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "reduce_geometry.h" /* abi/ */
#include "ufunc/ufunc_common.h"

typedef struct reduce_grid {
  kp_extent blocks, threads;
} reduce_grid;

/* The grid for one pass over n elements of `esize` bytes. */
static reduce_grid grid_for(const kp_kernel_desc *k, long long n, size_t esize) {
  long long tile = KP_REDUCE_TILE((long long)esize);
  long long tiles = KP_REDUCE_CEIL_DIV(n, tile);
  reduce_grid g;
  /* One lane per (lane's share of a) tile is all the parallelism there is. */
  kp_grid_for(k, tiles * KP_REDUCE_WARP, KP_REDUCE_WARP, &g.blocks, &g.threads);
  long long warps = g.threads.x / KP_REDUCE_WARP;
  long long per = KP_REDUCE_TILES_PER_WARP(tiles, g.blocks.x * warps);
  g.blocks.x = KP_REDUCE_CEIL_DIV(tiles, warps * per);
  return g;
}

/* The reduce kernel of f, after checking that it exists and folds `type` elements. */
static kp_error find_kernel(const void *f, const char *f_expr, int type, const char *what,
                            kp_kernel_desc **out) {
  kp_kernel_desc *k = NULL;
  if (!f || kp_registry_find_all(f, KP_KERNEL_REDUCE, &k, 1) == 0)
    return kp_registry_wrong_kind("kp_reduce", f, f_expr, KP_FUNCTION_REDUCE);
  const kp_signature_desc *sig = k->signature;
  if (!sig || sig->num_types != 1 || kp_type_size((int)sig->types[0]) == 0)
    return kp_fail(KP_ERROR_INTERNAL,
                   "%s: kernel '%s' has no element type in its descriptor; rebuild it with the "
                   "matching plugin",
                   what, k->name);
  if (sig->types[0] != (uint64_t)type)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: reduce function '%s' (%s:%llu) folds %s values, but argument 'in' is "
                   "an array of %s: pass an array of the function's parameter type",
                   what, f_expr, k->file ? k->file : "?", (unsigned long long)k->line,
                   kp_type_short_name((int)sig->types[0]), kp_type_short_name(type));
  *out = k;
  return KP_SUCCESS;
}

/* The passes over `count` elements at `src`, ping-ponging between the two halves of `tmp`
 * (a pass must not write what another block may still read), each `half` bytes; leaves the
 * result at *out. */
static kp_error run_passes(kp_kernel_desc *k, long long count, const void *src, char *tmp,
                           size_t half, size_t esize, kp_stream stream, const void **out,
                           const char *what) {
  int which = 0;
  for (;;) {
    reduce_grid g = grid_for(k, count, esize);
    void *dst = tmp + (size_t)which * half;
    void *args[3] = {&count, &src, &dst};
    kp_error err = kp_launch_generated(k, g.blocks, g.threads, stream, args, what);
    if (err) return err;
    src = dst;
    count = g.blocks.x;
    which ^= 1;
    if (count == 1) break;
  }
  *out = src;
  return KP_SUCCESS;
}

KP_EXPORT kp_error kp_reduce_bytes(const void *f, const char *f_expr, int type, const void *in,
                                   long long n, void *result, kp_stream stream) {
  if (!f_expr) f_expr = "?";
  char what[192];
  snprintf(what, sizeof what, "kp_reduce(%s, ...)", f_expr);
  size_t esize = kp_type_size(type);
  if (esize == 0)
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s: unknown element type code %d", what, type);
  kp_kernel_desc *k = NULL;
  kp_error err = find_kernel(f, f_expr, type, what, &k);
  if (err) return err;
  if (n < 0)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: argument 'n' is %lld; the element count must be at least 0", what, n);
  if (n == 0) return KP_SUCCESS;
  if ((unsigned long long)n > SIZE_MAX / esize)
    return kp_fail(KP_ERROR_OUT_OF_MEMORY, "%s: argument 'n' = %lld elements of %zu bytes "
                   "do not fit in memory", what, n, esize);
  const kp_backend *be = kp_backend_get();
  if (!be) return KP_ERROR_NO_DEVICE; /* kp_backend_get reported why */

  char in_what[224];
  snprintf(in_what, sizeof in_what, "%s: argument 'in'", what);
  kp_operand input;
  err = kp_operand_stage(&input, in, (size_t)n * esize, 1, 0, in_what);
  void *tmp = NULL;
  /* Both halves 256-byte aligned, so that later passes read aligned partials. */
  size_t half = ((size_t)grid_for(k, n, esize).blocks.x * esize + 255) / 256 * 256;
  if (!err) err = be->alloc(2 * half, &tmp, what);
  const void *last = NULL;
  if (!err) err = run_passes(k, n, input.device, tmp, half, esize, stream, &last, what);
  if (!err && stream) err = be->synchronize(what);
  if (!err) err = be->to_host(result, last, esize, what);
  if (tmp) {
    kp_error freed = be->release(tmp, 2 * half, what);
    if (!err) err = freed;
  }
  kp_error finished = kp_operand_finish(&input, in_what);
  return err ? err : finished;
}
