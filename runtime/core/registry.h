/* registry.h — lookups into the table of registered kernels (registry.c). */
#ifndef KP_REGISTRY_H
#define KP_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "core/common.h"

/* The kernel whose host stub is `host_fn`, or NULL if no registered module has one. */
kp_kernel_desc *kp_registry_find(const void *host_fn);
size_t kp_registry_kernel_count(void);
/* Changes whenever a module is unregistered: what a thread remembers about a descriptor
 * (transfers.c's launch memo) holds only while the generation is the same. */
unsigned long long kp_registry_generation(void);
/* Registered kernels whose host_fn is f and whose flags include `flag`, in registration
 * order; returns how many (fills up to max). Generated kernels (vectorize, guvectorize,
 * reduce) share their host_fn, the user's function, so they are found only this way. */
size_t kp_registry_find_all(const void *f, uint64_t flag, kp_kernel_desc **out, size_t max);

/* The registered modules, in registration order: copies up to max into out and returns how
 * many there are (for the CUDA backend's device link, which looks for the modules defining
 * the device functions a module calls). */
size_t kp_registry_modules(kp_module_desc **out, size_t max);

/* The registered `constant` variable whose host copy starts at `host`, and its module in
 * *module; NULL if none. */
const kp_constant_desc *kp_registry_find_constant(const void *host, kp_module_desc **module);

/* What a function is to kernplug, for messages about calling it the wrong way. */
typedef enum kp_function_kind {
  KP_FUNCTION_PLAIN, /* none of the others: a plain function, or built without the plugin */
  KP_FUNCTION_KERNEL,
  KP_FUNCTION_VECTORIZE,
  KP_FUNCTION_GUVECTORIZE,
  KP_FUNCTION_REDUCE,
} kp_function_kind;

kp_function_kind kp_registry_kind_of(const void *f);
/* Reports that `call`(fx, ...) ("launch", "ufunc", "gufunc", "kp_reduce") needs a function of
 * kind `wanted` but f, spelled fx, is not one: what f is and how to call it ("'twice' is a
 * vectorize function, not a kernel: call it with ufunc(twice, n, out, in...)"), or, for a
 * plain function, how to make it one. Returns KP_ERROR_INVALID_VALUE. */
kp_error kp_registry_wrong_kind(const char *call, const void *f, const char *fx,
                                kp_function_kind wanted);

#endif
