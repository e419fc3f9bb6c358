/* kernplug/memory.h — host-side memory: device, managed, pinned and registered arrays and the
 * copies between them (element counts in the macros, bytes in the functions; docs/memory.md).
 *
 * Kinds of memory the runtime knows, each usable by kernels in its own way:
 *   device     device_array, to_device, device_array_like: on the GPU; passed as is
 *   managed    managed_array: one pointer for host and device (unified memory); passed as is
 *   pinned     pinned_array: page-locked host memory; fast (and asynchronous) copies
 *   registered kp_register(p, bytes): existing host memory page-locked like pinned
 * A pinned or registered array passed to a kernel is copied to the device before the launch
 * and back after it (not back when the parameter is a pointer to const), and that launch
 * waits for the kernel. Any other non-NULL host pointer passed to a kernel is an error on
 * every backend. A pointer inside an allocation (p + k) counts as that allocation.
 */
#ifndef KERNPLUG_MEMORY_H
#define KERNPLUG_MEMORY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* kp_memory_kind_of(p): the kind of the allocation containing p. */
typedef enum kp_memory_kind {
  KP_MEMORY_UNKNOWN = 0, /* not allocated or registered through kernplug (or freed) */
  KP_MEMORY_DEVICE,
  KP_MEMORY_MANAGED,
  KP_MEMORY_PINNED,
  KP_MEMORY_REGISTERED
} kp_memory_kind;

void *kp_to_device_bytes(const void *host, size_t bytes);
void *kp_device_alloc_bytes(size_t bytes);
/* A device array the size of the allocation that starts at p (any kind). */
void *kp_device_alloc_like(const void *p);
void *kp_managed_alloc_bytes(size_t bytes);
void *kp_pinned_alloc_bytes(size_t bytes);
/* Copies (docs/memory.md, "Explicit transfers"). The side a name says is on the device
 * (copy_to_device's destination, copy_to_host's source) must be device or managed memory
 * (or device memory other CUDA code allocated); the other side may be any memory: host,
 * pinned, registered, managed or device. The runtime picks the transfer (host to device,
 * device to host, device to device), the same on both backends, and checks every range it
 * knows against its allocation; overlapping ranges are an error. */
void kp_copy_to_host_bytes(void *host, const void *device_ptr, size_t bytes);
void kp_copy_to_device_bytes(void *device_ptr, const void *host, size_t bytes);
/* Both sides device or managed memory (numba: d2.copy_to_device(d1)). */
void kp_copy_device_to_device_bytes(void *dst, const void *src, size_t bytes);
/* Sets `bytes` bytes of device or managed memory at d to (unsigned char)value, as memset. */
void kp_memset(void *d, int value, size_t bytes);
/* Sets `count` elements of elem_size bytes at d to *value (elem_size 1, 2 or 4, or 8 when
 * both halves of the value are equal, as 0.0 and 0; cuMemsetD8/D16/D32 on a GPU). */
void kp_fill_elems(void *d, const void *value, size_t count, size_t elem_size);
/* Frees a device, managed or pinned array (NULL: nothing). */
void kp_free(void *device_ptr);
/* Page-locks `bytes` of existing host memory at p so that kernels can take it like a pinned
 * array; returns p, or NULL after an error. kp_unregister(p) undoes it (p as registered). */
void *kp_register(void *p, size_t bytes);
void kp_unregister(void *p);
/* Bytes of the allocation that starts at p (0 if the runtime does not know it). */
size_t kp_alloc_size(const void *p);
kp_memory_kind kp_memory_kind_of(const void *p);
const char *kp_memory_kind_name(kp_memory_kind kind); /* "device", "managed", ... */

/* The same with an element count and size: a count whose size in bytes does not fit in a
 * size_t is an out-of-memory error naming the call, not a wrapped, smaller size. */
void *kp_to_device_elems(const void *host, size_t count, size_t elem_size);
void *kp_device_alloc_elems(size_t count, size_t elem_size);
void *kp_managed_alloc_elems(size_t count, size_t elem_size);
void *kp_pinned_alloc_elems(size_t count, size_t elem_size);
void kp_copy_to_host_elems(void *host, const void *device_ptr, size_t count, size_t elem_size);
void kp_copy_to_device_elems(void *device_ptr, const void *host, size_t count,
                             size_t elem_size);
void kp_copy_device_to_device_elems(void *dst, const void *src, size_t count,
                                    size_t elem_size);

#ifndef __cplusplus
#define kp_to_device(host, n) kp_to_device_elems((host), (size_t)(n), sizeof *(host))
#endif
#define kp_device_array(T, n) ((T *)kp_device_alloc_elems((size_t)(n), sizeof(T)))
#define kp_managed_array(T, n) ((T *)kp_managed_alloc_elems((size_t)(n), sizeof(T)))
#define kp_pinned_array(T, n) ((T *)kp_pinned_alloc_elems((size_t)(n), sizeof(T)))
/* &(d)[0]: the element pointer type whether d is a pointer or (by mistake) an array */
#define kp_device_array_like(d) ((__typeof__(&(d)[0]))kp_device_alloc_like(d))
#define kp_copy_to_host(host, d, n)                                                            \
  kp_copy_to_host_elems((host), (d), (size_t)(n), sizeof *(host))
#define kp_copy_to_device(d, host, n)                                                          \
  kp_copy_to_device_elems((d), (host), (size_t)(n), sizeof *(host))
#define kp_copy_device_to_device(dst, src, n)                                                  \
  kp_copy_device_to_device_elems((dst), (src), (size_t)(n), sizeof *(src))
/* kp_fill(d, 1.5f, n): n elements of d set to the value converted to d's element type (a
 * scalar type; kp_fill_elems takes any value by address). */
#define kp_fill(d, value, n)                                                                   \
  kp_fill_elems((d), &(__typeof__(*(d))){(value)}, (size_t)(n), sizeof *(d))

#ifdef __cplusplus
}
/* C++ does not convert void * to T * implicitly: kp_to_device returns the element pointer
 * type there (const dropped: the copy is the caller's to write), as the other macros do. */
template <class T> static inline T *kp_to_device_typed(const T *host, size_t n) {
  return static_cast<T *>(kp_to_device_elems(host, n, sizeof(T)));
}
#define kp_to_device(host, n) kp_to_device_typed((host), (size_t)(n))
#endif

#endif /* KERNPLUG_MEMORY_H */
