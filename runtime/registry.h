/* registry.h — lookups into the table of registered kernels (registry.c). */
#ifndef KP_REGISTRY_H
#define KP_REGISTRY_H

#include <stddef.h>

#include "kp_abi.h"

/* The kernel whose host stub is `host_fn`, or NULL if no registered module has one. */
kp_kernel_desc *kp_registry_find(const void *host_fn);
size_t kp_registry_kernel_count(void);

#endif
