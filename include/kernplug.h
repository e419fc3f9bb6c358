/* kernplug.h — the public header of kernplug: includes every topic header below.
 *
 * Device side, for functions marked __attribute__((kernel)) / ((device)) / ((vectorize("…"))):
 *   kernplug/device.h       thread indexing (grid, threadIdx, ...), barriers, fences, dynamic
 *                           shared memory
 *   kernplug/atomics.h      atomic_add & co., type-generic (also on _Float16, __bf16 and the
 *                           kp_half2 pairs of kernplug/half.h)
 *   kernplug/warp.h         shuffles, votes, activemask
 *   kernplug/warp_match.h   lane masks, match_any/all_sync, reduce_add/min/max_sync
 *   kernplug/intrinsics.h   popc, brev, clz, ffs, mul24, umulhi, byte_perm, funnel shifts
 *   kernplug/cuda_math.h    CUDA's math beyond math.h: rsqrt, sinpi, erfinv, normcdf, __expf, ...
 *   kernplug/timing.h       clock64(), kp_nanosleep(ns)
 *   kernplug/rounding.h     arithmetic and conversions with a rounding mode (__fadd_rd, ...)
 * Host side:
 *   kernplug/launch.h       launch(k, blocks, threads)(args...), dim3(...)
 *   kernplug/forall.h       forall(k, n)(args...), kp_occupancy()
 *   kernplug/generic.h      one kernel body over several element types (kp_generic)
 *   kernplug/memory.h       device, managed, pinned and registered arrays; copies
 *   kernplug/constant.h     constant memory filled at run time (kp_copy_to_constant)
 *   kernplug/stream.h       streams, events, asynchronous copies
 *   kernplug/ufunc.h        ufunc(), gufunc(), kp_reduce()
 *   kernplug/runtime.h      errors, backends, devices, kp_detect()
 *   kernplug/cuda_interop.h the CUstream and CUcontext behind kernplug's, for CUDA libraries
 * Shared: kernplug/types.h (kp_dim3, kp_int2, kp_int3), kernplug/version.h (KP_VERSION_*).
 * kernplug/detail/ holds what the names above expand to (typed functions, _Generic
 * selections, argument counting, the kp_dev_* primitives, runtime entries); user code does
 * not use it directly. Each header compiles on its own (tests/header checks it).
 *
 * Every name has a kp_ prefix. The short Numba-like aliases (grid, syncthreads, launch,
 * atomic_add, to_device, ufunc, ...) are kernplug/short_names.h, which this header includes
 * unless KP_NO_SHORT_NAMES is defined before the include; a topic header included on its own
 * brings only kp_ names. `kernel`, `device`, `vectorize`, `guvectorize`, `shared` and `reduce`
 * are attribute names handled by the plugin and are never macros.
 *
 * The device API is built from a small set of extern primitives (kp_dev_*,
 * kernplug/detail/primitives.h). The plugin links their NVPTX definitions (runtime/device/)
 * into the GPU code, where they inline away; the CPU backend of libkernplug_rt defines the
 * same symbols for the host copy of each kernel. Where a generic C builtin means the same
 * thing on both targets (most atomics), the header uses it directly so that both backends
 * share one definition.
 */
#ifndef KERNPLUG_H
#define KERNPLUG_H

#include <stddef.h> /* size_t and uint32_t & co. come with kernplug.h, as they always did */
#include <stdint.h>

#include "kernplug/version.h"
#include "kernplug/types.h"
#include "kernplug/device.h"
#include "kernplug/atomics.h"
#include "kernplug/warp.h"
#include "kernplug/warp_match.h"
#include "kernplug/intrinsics.h"
#include "kernplug/cuda_math.h"
#include "kernplug/timing.h"
#include "kernplug/rounding.h"
#include "kernplug/launch.h"
#include "kernplug/forall.h"
#include "kernplug/generic.h"
#include "kernplug/memory.h"
#include "kernplug/constant.h"
#include "kernplug/stream.h"
#include "kernplug/cuda_interop.h"
#include "kernplug/runtime.h"
#include "kernplug/ufunc.h"

#ifndef KP_NO_SHORT_NAMES
#include "kernplug/short_names.h"
#endif

#endif /* KERNPLUG_H */
