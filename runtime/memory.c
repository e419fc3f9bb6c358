/* memory.c — explicit transfers: to_device, device_array(_like), copy_to_host/device, free.
 *
 * The same checks on both backends, against the allocation table, before the backend copies:
 * the message then says which call, which pointer and how many bytes, where the driver would
 * only say CUDA_ERROR_INVALID_VALUE (and the CPU would corrupt memory). */
#include <pthread.h>
#include <string.h>

#include "kp_internal.h"

/* Recently freed pointers, so that a second kp_free says "freed twice" rather than
 * "unknown pointer". A pointer that a new allocation reuses is live again, as it should be. */
enum { KP_FREED_RING = 256 };
static pthread_mutex_t g_freed_lock = PTHREAD_MUTEX_INITIALIZER;
static const void *g_freed[KP_FREED_RING];
static size_t g_freed_next;

static void remember_freed(const void *p) {
  pthread_mutex_lock(&g_freed_lock);
  g_freed[g_freed_next++ % KP_FREED_RING] = p;
  pthread_mutex_unlock(&g_freed_lock);
}

static int was_freed(const void *p) {
  int found = 0;
  pthread_mutex_lock(&g_freed_lock);
  for (size_t i = 0; i < KP_FREED_RING && !found; i++) found = g_freed[i] == p;
  pthread_mutex_unlock(&g_freed_lock);
  return found;
}

static void *allocate(size_t bytes, const char *what) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  void *p = NULL;
  if (be->alloc(bytes, &p, what)) return NULL;
  kp_alloc_table_insert(p, bytes);
  return p;
}

KP_EXPORT void *kp_device_alloc_bytes(size_t bytes) { return allocate(bytes, "device_array"); }

KP_EXPORT void *kp_to_device_bytes(const void *host, size_t bytes) {
  if (!host && bytes) {
    kp_fail(KP_ERROR_INVALID_VALUE, "to_device: the host pointer is NULL (%zu bytes)", bytes);
    return NULL;
  }
  void *d = allocate(bytes, "to_device");
  if (!d) return NULL;
  if (bytes && kp_backend_get()->to_device(d, host, bytes, "to_device")) {
    kp_backend_get()->release(d, "to_device");
    kp_alloc_table_remove(d);
    return NULL;
  }
  return d;
}

KP_EXPORT void *kp_device_alloc_like(const void *device_ptr) {
  void *start;
  size_t bytes;
  if (!device_ptr || !kp_alloc_table_find(device_ptr, &start, &bytes) || start != device_ptr) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "device_array_like: %p is not a device array (it must be a pointer returned by "
            "to_device or device_array%s)",
            device_ptr, device_ptr && was_freed(device_ptr) ? ", and it was freed" : "");
    return NULL;
  }
  return allocate(bytes, "device_array_like");
}

/* Checks that [d, d + bytes) lies inside one live allocation. */
static kp_error check_range(const char *what, const void *d, size_t bytes) {
  void *start;
  size_t size;
  if (!d)
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s: the device pointer is NULL", what);
  if (!kp_alloc_table_find(d, &start, &size)) {
    if (was_freed(d))
      return kp_fail(KP_ERROR_INVALID_VALUE, "%s: device array %p was already freed", what, d);
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: %p is not a device array (not returned by to_device or device_array, "
                   "or already freed)",
                   what, d);
  }
  size_t offset = (size_t)((const char *)d - (const char *)start);
  if (bytes > size - offset)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: %zu bytes at %p run past the end of its device array (%zu bytes at %p, "
                   "%zu bytes in)",
                   what, bytes, d, size, start, offset);
  return KP_SUCCESS;
}

KP_EXPORT void kp_copy_to_host_bytes(void *host, const void *device_ptr, size_t bytes) {
  const kp_backend *be = kp_backend_get();
  if (!be || check_range("copy_to_host", device_ptr, bytes)) return;
  if (!host && bytes) {
    kp_fail(KP_ERROR_INVALID_VALUE, "copy_to_host: the host pointer is NULL (%zu bytes)", bytes);
    return;
  }
  if (bytes) be->to_host(host, device_ptr, bytes, "copy_to_host");
}

KP_EXPORT void kp_copy_to_device_bytes(void *device_ptr, const void *host, size_t bytes) {
  const kp_backend *be = kp_backend_get();
  if (!be || check_range("copy_to_device", device_ptr, bytes)) return;
  if (!host && bytes) {
    kp_fail(KP_ERROR_INVALID_VALUE, "copy_to_device: the host pointer is NULL (%zu bytes)",
            bytes);
    return;
  }
  if (bytes) be->to_device(device_ptr, host, bytes, "copy_to_device");
}

KP_EXPORT void kp_free(void *device_ptr) {
  if (!device_ptr) return; /* like free(NULL) and cudaFree(NULL) */
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  if (!kp_alloc_table_remove(device_ptr)) {
    if (was_freed(device_ptr))
      kp_fail(KP_ERROR_INVALID_VALUE, "kp_free: device array %p was freed twice", device_ptr);
    else
      kp_fail(KP_ERROR_INVALID_VALUE,
              "kp_free: %p is not a device array (not returned by to_device or device_array)",
              device_ptr);
    return;
  }
  remember_freed(device_ptr);
  be->release(device_ptr, "kp_free");
}

KP_EXPORT size_t kp_alloc_size(const void *device_ptr) {
  void *start;
  size_t bytes;
  if (device_ptr && kp_alloc_table_find(device_ptr, &start, &bytes) && start == device_ptr)
    return bytes;
  return 0;
}
