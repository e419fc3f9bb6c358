/* kp_device.h — common prelude of the NVPTX device runtime.
 *
 * Every file in runtime/device/ is compiled only for nvptx64-nvidia-cuda (see CMakeLists.txt)
 * and defines some of the kp_dev_* primitives that include/kernplug.h declares. Including the
 * public header here makes the compiler check each definition against its declaration, so the
 * host (CPU backend) and device definitions cannot drift apart silently.
 *
 * Every definition has external linkage: the plugin links this bitcode into each device
 * module with LinkOnlyNeeded, internalizes it and optimises at O3, after which none of these
 * functions is a call any more.
 */
#ifndef KP_DEVICE_H
#define KP_DEVICE_H

#if !defined(__NVPTX__)
#error "runtime/device is device code: compile it for the nvptx64-nvidia-cuda target"
#endif

/* The short Numba-like names (syncthreads, laneid, ...) are macros that would clash with
 * nothing here, but the runtime spells everything with its kp_ prefix to stay unambiguous. */
#define KP_NO_SHORT_NAMES
#include "kernplug.h"

/* Barriers and warp collectives must not be moved into or out of control flow that only
 * some threads take. The intrinsics they call are convergent; marking the wrappers too keeps
 * the property on calls made before the plugin inlines them (LLVM treats a call to a
 * convergent function as convergent). */
#define KP_CONVERGENT __attribute__((convergent))

/* A full warp: the `c` operand of shfl.sync packs the segment mask (bits 8..12, 0 for one
 * 32-lane segment) and the clamp lane (bits 0..4). */
#define KP_WARP_CLAMP_TOP 0x1f /* idx/down/xor: lanes past 31 read their own value */
#define KP_WARP_CLAMP_BOTTOM 0 /* up: lanes below 0 read their own value */

#endif /* KP_DEVICE_H */
