/* kernplug/constant.h — constant memory filled at run time (CUDA C's __constant__ with
 * cudaMemcpyToSymbol; numba's cuda.const.array_like):
 *   __attribute__((constant)) float coeffs[64];          // file scope, in a kernplug file
 *   kp_copy_to_constant(coeffs, host, sizeof coeffs);     // host -> every device's copy
 *   kp_copy_to_constant_offset(coeffs, host, bytes, offset);
 * Kernels read the variable by name; on a GPU it lives in .const memory (cached, broadcast
 * to a warp reading one address). Writes to it in C code are compile errors: fill it with
 * these calls, which wait for the device's queued work first (kernels may be reading it) and
 * check the range against the variable's size (docs/memory.md, "Constant memory"). */
#ifndef KERNPLUG_CONSTANT_H
#define KERNPLUG_CONSTANT_H

#include <stddef.h>
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies `bytes` from src into the constant variable at `symbol` (of symbol_size bytes,
 * spelled symbol_expr in messages), starting `offset` bytes in. */
kp_error kp_copy_to_constant_bytes(void *symbol, size_t symbol_size, const char *symbol_expr,
                                   const void *src, size_t bytes, size_t offset);

#define kp_copy_to_constant(symbol, src, bytes)                                                \
  kp_copy_to_constant_bytes((void *)&(symbol), sizeof(symbol), #symbol, (src), (bytes), 0)
#define kp_copy_to_constant_offset(symbol, src, bytes, offset)                                 \
  kp_copy_to_constant_bytes((void *)&(symbol), sizeof(symbol), #symbol, (src), (bytes),       \
                            (offset))

#ifdef __cplusplus
}
#endif

#endif /* KERNPLUG_CONSTANT_H */
