/* counts.c — the element-count entry points behind the memory macros of kernplug.h.
 *
 * device_array(T, n), to_device(p, n), copy_to_host(h, d, n), … take element counts. The
 * macros once multiplied n by the element size themselves, in size_t: a count whose size in
 * bytes needs more than 64 bits wrapped silently (device_array(double, 2^61 + 4) returned a
 * 32-byte array, and the copy of 2^61 + 4 elements copied 32 bytes). They now pass the count
 * and the element size here, which refuses such a size with an out-of-memory error naming
 * the call — no memory could hold it — before the byte-size functions see anything. */
#include <stdint.h>

#include "core/error.h"

/* count × size in *bytes; an error when the product overflows. */
static kp_error bytes_of(const char *call, size_t count, size_t elem_size, size_t *bytes) {
  if (!__builtin_mul_overflow(count, elem_size, bytes)) return KP_SUCCESS;
  return kp_fail(KP_ERROR_OUT_OF_MEMORY,
                 "%s: %zu elements of %zu bytes: out of memory (the size in bytes does not fit "
                 "in 64 bits%s)",
                 call, count, elem_size,
                 count > PTRDIFF_MAX ? "; was the count negative before it became a size_t?"
                                     : "");
}

KP_EXPORT void *kp_to_device_elems(const void *host, size_t count, size_t elem_size) {
  size_t bytes;
  return bytes_of("to_device", count, elem_size, &bytes) ? NULL
                                                         : kp_to_device_bytes(host, bytes);
}

KP_EXPORT void *kp_device_alloc_elems(size_t count, size_t elem_size) {
  size_t bytes;
  return bytes_of("device_array", count, elem_size, &bytes) ? NULL
                                                            : kp_device_alloc_bytes(bytes);
}

KP_EXPORT void *kp_managed_alloc_elems(size_t count, size_t elem_size) {
  size_t bytes;
  return bytes_of("managed_array", count, elem_size, &bytes) ? NULL
                                                             : kp_managed_alloc_bytes(bytes);
}

KP_EXPORT void *kp_pinned_alloc_elems(size_t count, size_t elem_size) {
  size_t bytes;
  return bytes_of("pinned_array", count, elem_size, &bytes) ? NULL
                                                            : kp_pinned_alloc_bytes(bytes);
}

KP_EXPORT void kp_copy_to_host_elems(void *host, const void *device_ptr, size_t count,
                                     size_t elem_size) {
  size_t bytes;
  if (!bytes_of("copy_to_host", count, elem_size, &bytes))
    kp_copy_to_host_bytes(host, device_ptr, bytes);
}

KP_EXPORT void kp_copy_to_device_elems(void *device_ptr, const void *host, size_t count,
                                       size_t elem_size) {
  size_t bytes;
  if (!bytes_of("copy_to_device", count, elem_size, &bytes))
    kp_copy_to_device_bytes(device_ptr, host, bytes);
}

KP_EXPORT void kp_copy_to_host_async_elems(void *host, const void *device_ptr, size_t count,
                                           size_t elem_size, kp_stream stream) {
  size_t bytes;
  if (!bytes_of("copy_to_host_async", count, elem_size, &bytes))
    kp_copy_to_host_async_bytes(host, device_ptr, bytes, stream);
}

KP_EXPORT void kp_copy_to_device_async_elems(void *device_ptr, const void *host, size_t count,
                                             size_t elem_size, kp_stream stream) {
  size_t bytes;
  if (!bytes_of("copy_to_device_async", count, elem_size, &bytes))
    kp_copy_to_device_async_bytes(device_ptr, host, bytes, stream);
}

KP_EXPORT void kp_copy_device_to_device_elems(void *dst, const void *src, size_t count,
                                              size_t elem_size) {
  size_t bytes;
  if (!bytes_of("copy_device_to_device", count, elem_size, &bytes))
    kp_copy_device_to_device_bytes(dst, src, bytes);
}

KP_EXPORT void kp_copy_device_to_device_async_elems(void *dst, const void *src, size_t count,
                                                    size_t elem_size, kp_stream stream) {
  size_t bytes;
  if (!bytes_of("copy_device_to_device_async", count, elem_size, &bytes))
    kp_copy_device_to_device_async_bytes(dst, src, bytes, stream);
}
