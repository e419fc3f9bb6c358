/* cuda_link.h — loading a module whose device code calls `device` functions of other files
 * (cuda_link.c). Only the CUDA backend includes it. */
#ifndef KP_CUDA_LINK_H
#define KP_CUDA_LINK_H

#include "backend/cuda/cuda_backend.h"

/* Whether the PTX calls functions it does not define and the driver does not provide. */
int kp_ptx_has_imports(const char *ptx);
/* Links ptx (k's module's PTX for a device of arch sm) with the PTX of the registered modules
 * that define what it imports, transitively, and loads the result into *out; the current
 * context is the device's. Errors name k, the files and the missing function. */
kp_error kp_cuda_load_linked(const kp_kernel_desc *k, const char *ptx, int sm, CUmodule *out);

#endif /* KP_CUDA_LINK_H */
