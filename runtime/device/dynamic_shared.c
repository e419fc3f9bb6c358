/* Dynamic shared memory: the bytes launch(k, blocks, threads, bytes) asks for.
 *
 * An unsized extern array in address space 3 becomes `.extern .shared .b8 name[]` in PTX; the
 * driver places it after the kernel's static shared arrays. Aligned to 16 so that any C type,
 * including double2-sized vectors, can live at its start. */
#include "kp_device.h"

extern __attribute__((address_space(3), aligned(16))) char kp_dynamic_shared_mem[];

/* A generic pointer, as CUDA's extern __shared__ arrays are in C++: plain loads and stores
 * work, and the O3 pipeline infers the shared address space back where it can. */
void *kp_dev_dynamic_shared(void) { return (void *)kp_dynamic_shared_mem; }
