/* registry.h — lookups into the table of registered kernels (registry.c). */
#ifndef KP_REGISTRY_H
#define KP_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "kp_abi.h"

/* The kernel whose host stub is `host_fn`, or NULL if no registered module has one. */
kp_kernel_desc *kp_registry_find(const void *host_fn);
size_t kp_registry_kernel_count(void);
/* Registered kernels whose host_fn is f and whose flags include `flag`, in registration
 * order; returns how many (fills up to max). Generated kernels (vectorize, guvectorize,
 * reduce) share their host_fn, the user's function, so they are found only this way. */
size_t kp_registry_find_all(const void *f, uint64_t flag, kp_kernel_desc **out, size_t max);

#endif
