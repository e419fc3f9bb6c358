/* kernplug/short_names.h — the Numba-like short names: grid(1) for kp_grid(1), syncthreads()
 * for kp_syncthreads(), launch(...) for kp_launch(...), ... each a macro for its kp_ name.
 *
 * kernplug.h includes this file unless KP_NO_SHORT_NAMES is defined before it, so that a
 * program with its own `grid`, `launch` or `threadIdx` can keep them and use the kp_ names.
 * It may also be included on its own: it brings the topic headers its names stand for.
 * `kernel`, `device`, `vectorize`, `guvectorize`, `shared` and `reduce` are attribute names
 * and are never macros; there is no short name for kp_reduce, the streams and events, the
 * runtime functions, kp_memset and kp_fill (memset is libc's, fill too common a word) or
 * kp_dynamic_shared, which keep their prefix.
 */
#ifndef KERNPLUG_SHORT_NAMES_H
#define KERNPLUG_SHORT_NAMES_H

#include "device.h"
#include "atomics.h"
#include "warp.h"
#include "launch.h"
#include "forall.h"
#include "memory.h"
#include "constant.h"
#include "stream.h"
#include "ufunc.h"
#include "intrinsics.h"
#include "warp_match.h"
#include "timing.h"

/* CUDA's runtime headers name struct fields and parameters gridDim and blockDim and, in C++,
 * declare dim3's constructor: parsed after the macros below they do not compile. When
 * <cuda_runtime.h> is on the include path it is therefore included here, before the macros,
 * so that the program's own #include <cuda_runtime.h>, before or after kernplug.h, finds it
 * done. KP_NO_CUDA_RUNTIME_HEADER turns this off (docs/getting-started.md, "With the CUDA
 * runtime headers"). */
#if defined(__has_include) && !defined(KP_NO_CUDA_RUNTIME_HEADER)
#if __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>
#endif
#endif

/* CUDA C's spellings (__popc, rsqrtf, __match_any_sync, ...), after <cuda_runtime.h>. */
#include "cuda_names.h"

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
#define grid_sync() kp_grid_sync()
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
#define popc(x) kp_popc(x)
#define brev(x) kp_brev(x)
#define clz(x) kp_clz(x)
#define lanemask_lt() kp_lanemask_lt()
#define clock64() kp_clock64()
#define match_any_sync(mask, v) kp_match_any_sync(mask, v)
#define match_all_sync(mask, v, pred) kp_match_all_sync(mask, v, pred)
#define reduce_add_sync(mask, v) kp_reduce_add_sync(mask, v)
#define reduce_min_sync(mask, v) kp_reduce_min_sync(mask, v)
#define reduce_max_sync(mask, v) kp_reduce_max_sync(mask, v)
#define dim3(...) kp_dim3(__VA_ARGS__)
#define launch(...) kp_launch(__VA_ARGS__)
#define forall(...) kp_forall(__VA_ARGS__)
#define to_device(host, n) kp_to_device(host, n)
#define device_array(T, n) kp_device_array(T, n)
#define managed_array(T, n) kp_managed_array(T, n)
#define pinned_array(T, n) kp_pinned_array(T, n)
#define device_array_like(d) kp_device_array_like(d)
#define copy_to_host(host, d, n) kp_copy_to_host(host, d, n)
#define copy_to_device(d, host, n) kp_copy_to_device(d, host, n)
#define copy_to_constant(symbol, src, bytes) kp_copy_to_constant(symbol, src, bytes)
#define copy_device_to_device(dst, src, n) kp_copy_device_to_device(dst, src, n)
#define copy_to_host_async(host, d, n, stream) kp_copy_to_host_async(host, d, n, stream)
#define copy_to_device_async(d, host, n, stream) kp_copy_to_device_async(d, host, n, stream)
#define copy_device_to_device_async(d, s, n, st) kp_copy_device_to_device_async(d, s, n, st)
#define ufunc(f, n, ...) kp_ufunc(f, n, __VA_ARGS__)
#define ufunc_stream(stream, f, n, ...) kp_ufunc_stream(stream, f, n, __VA_ARGS__)
#define gufunc(f, n, ...) kp_gufunc(f, n, __VA_ARGS__)
#define gufunc_stream(stream, f, n, ...) kp_gufunc_stream(stream, f, n, __VA_ARGS__)

#endif /* KERNPLUG_SHORT_NAMES_H */
