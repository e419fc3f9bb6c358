/* launch.h — the generic launch path (launch.c, transfers.c): what core does for every
 * launch before and after the backend's launch_impl. */
#ifndef KP_LAUNCH_H
#define KP_LAUNCH_H

#include "backend/backend.h"

/* launch.c: checks a configuration against the calling thread's device limits (grid, block,
 * threads per block, shared memory, stream) before any backend sees it; messages start with
 * `call` ("ufunc(add, ...)"), or with "launch(<kernel>, ...)" when call is NULL (formatted
 * only for a message, so that the launch path formats nothing). */
kp_error kp_launch_check(const kp_backend *be, const kp_kernel_desc *kernel,
                         const kp_launch_config *cfg, const char *call);

/* launch.c: a launch the runtime makes itself (generated ufunc, gufunc and reduce kernels,
 * no launch() configuration): kp_launch_check with `call`, then the backend's launch_impl. */
kp_error kp_launch_checked(const kp_backend *be, kp_kernel_desc *kernel,
                           const kp_launch_config *cfg, void **args, const char *call);

/* transfers.c: launches through the backend's launch_impl, moving pinned and registered host
 * arrays to the device and back around the launch; refuses host pointers the runtime cannot
 * size. */
kp_error kp_launch_with_transfers(const kp_backend *be, kp_kernel_desc *kernel,
                                  const kp_launch_config *cfg, void **args);

/* The name of the last kernel launched on any host thread (for asynchronous CUDA errors);
 * the backends note it as they start a kernel. */
const char *kp_last_launched_kernel(void);
void kp_note_launched_kernel(const char *name);
/* Forgets `name` as the last kernel launched if it is (its module is being unloaded). */
void kp_forget_launched_kernel(const char *name);

#endif /* KP_LAUNCH_H */
