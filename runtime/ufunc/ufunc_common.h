/* ufunc_common.h — what the generated-kernel calls share (ufunc, gufunc, reduce): staging
 * array operands between host and device, an occupancy-based grid for grid-stride kernels,
 * launching a generated kernel without launch() (as a grid, or through its CPU range entry), finding a function's generated kernels, and
 * the names of element types. Never installed. */
#ifndef KP_UFUNC_COMMON_H
#define KP_UFUNC_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "core/alloc_table.h"
#include "core/error.h"
#include "core/launch.h"
#include "core/registry.h" /* finding a function's generated kernels, what f is */
#include "core/staging.h"

/* An array operand of a generated-kernel call: host arrays are staged through a temporary
 * device array on the CUDA backend (copied in; copied back when is_output); device arrays and,
 * on the CPU backend, host arrays are used in place (kp_staging, staging.c). */
typedef kp_staging kp_operand;

/* Makes op->device the pointer a kernel can use for `bytes` bytes at `user`. A device array
 * (a pointer into an allocation made through kp_*) must hold `bytes` from `user` on; device
 * memory other CUDA code allocated (the backend's is_foreign_device_memory) is used in place
 * too; any other pointer is a host array of that size. `what` names the argument for messages
 * ("ufunc(add, ...): argument 2 ('b')"). On failure op is left safe to finish. */
kp_error kp_operand_stage(kp_operand *op, const void *user, size_t bytes, int copy_in,
                          int is_output, const char *what);
/* Copies back if output+staged, frees the temporary; safe on a failed or zeroed operand. */
kp_error kp_operand_finish(kp_operand *op, const char *what);

/* Occupancy-based configuration for a grid-stride kernel over n items (CUDA:
 * cuOccupancyMaxPotentialBlockSize, blocks = min(ceil(n/threads), SMs * active blocks per
 * SM); CPU: 256 threads of 8 items each, and for reduce kernels at most enough blocks for all
 * workers). threads_multiple: 32 for kernels that need whole warps, else 1. Fewer threads
 * (whole warps) when n is small; n < 1 gives one block. */
void kp_grid_for(const kp_kernel_desc *k, long long n, int threads_multiple, kp_extent *blocks,
                 kp_extent *threads);

/* Launches a generated kernel (no launch() configuration): checks limits like __kp_launch
 * and calls the backend. `what` starts the messages ("ufunc(add, ...)"). */
kp_error kp_launch_generated(kp_kernel_desc *k, kp_extent blocks, kp_extent threads,
                             kp_stream stream, void **args, const char *what);

/* Whether the backend runs generated kernel k through its CPU range entry (kp_abi.h:
 * cpu_range_entry) rather than as a grid: the CPU backend, for ufunc and gufunc kernels. */
int kp_generated_has_range(const kp_kernel_desc *k);
/* Runs k's range entry for the loop indices [0, n), n >= 1, with the arguments a grid launch
 * would get (the checks of kp_launch_generated that apply: the stream); only where
 * kp_generated_has_range(k). Fewer than serial_below indices run on the calling thread. */
kp_error kp_launch_generated_range(kp_kernel_desc *k, long long n, long long serial_below,
                                   kp_stream stream, void **args, const char *what);

/* Element type codes: the header's kp_type, which are abi/types.def's KP_ELEM_* (checked in
 * ufunc_common.c), as in descriptors. */
const char *kp_type_short_name(int kp_type_code); /* "f32", "i64", ...; "?" if unknown */
/* Bytes of one element of the type (0 if unknown). */
size_t kp_type_size(int kp_type_code);

#endif
