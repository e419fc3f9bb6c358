/* memory.h — checks of the memory API (memory.c) that other calls share. */
#ifndef KP_MEMORY_H
#define KP_MEMORY_H

#include <stddef.h>

#include "core/common.h"

/* [d, d + bytes) lies inside one live device or managed array; else an error that says what
 * d is (NULL, freed, host memory, unknown, too short), prefixed with `what`. */
kp_error kp_check_device_range(const char *what, const void *d, size_t bytes);
/* Whether ptr started an allocation that was freed recently (for "freed twice" messages). */
int kp_memory_was_freed(const void *ptr);

#endif /* KP_MEMORY_H */
