/* memory.h — checks of the memory API (memory.c) that other calls share. */
#ifndef KP_MEMORY_H
#define KP_MEMORY_H

#include <stddef.h>

#include "core/alloc_table.h"
#include "core/common.h"

/* [d, d + bytes) lies inside one live device or managed array (or device memory other CUDA
 * code allocated); else an error that says what d is (NULL, freed, host memory, unknown,
 * too short), prefixed with `what`. */
kp_error kp_check_device_range(const char *what, const void *d, size_t bytes);
/* [p, p + bytes) lies inside e, the allocation containing p; else "<what>: N bytes at p run
 * past the end of its <kind> array (...)". */
kp_error kp_check_alloc_range(const char *what, const void *p, size_t bytes,
                              const kp_alloc_info *e);
/* [p, p + bytes) lies inside the allocation of device memory other CUDA code made that p is
 * in, when the backend can size it (foreign_device_range); else unchecked. */
struct kp_backend;
kp_error kp_check_foreign_range(const struct kp_backend *be, const char *what, const void *p,
                                size_t bytes);
/* An error when p, unknown to the allocation table, is a GPU's memory the backend cannot use
 * (is_unreachable_gpu_memory): "<what>: p is memory of a CUDA GPU …". */
kp_error kp_check_reachable(const struct kp_backend *be, const char *what, const void *p);
/* Whether ptr started an allocation that was freed recently (for "freed twice" messages). */
int kp_memory_was_freed(const void *ptr);

#endif /* KP_MEMORY_H */
