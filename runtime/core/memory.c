/* memory.c — the memory API: device, managed and pinned arrays, registered host memory,
 * to_device, the range checks of the explicit copies (copies.c), kp_free, and
 * KP_DEBUG=leaks.
 *
 * The same checks on both backends, against the allocation table, before the backend acts:
 * the message then says which call, which pointer and how many bytes, where the driver would
 * only say CUDA_ERROR_INVALID_VALUE (and the CPU would corrupt memory). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/alloc_table.h"
#include "core/error.h"
#include "core/fork.h"
#include "core/memory.h"

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

void kp_memory_fork(kp_fork_phase phase) {
  if (phase == KP_FORK_PREPARE) pthread_mutex_lock(&g_freed_lock);
  else if (phase == KP_FORK_PARENT) pthread_mutex_unlock(&g_freed_lock);
  else g_freed_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
}

int kp_memory_was_freed(const void *p) {
  int found = 0;
  pthread_mutex_lock(&g_freed_lock);
  for (size_t i = 0; i < KP_FREED_RING && !found; i++) found = g_freed[i] == p;
  pthread_mutex_unlock(&g_freed_lock);
  return found;
}

KP_EXPORT const char *kp_memory_kind_name(kp_memory_kind kind) {
  switch (kind) {
  case KP_MEMORY_DEVICE: return "device";
  case KP_MEMORY_MANAGED: return "managed";
  case KP_MEMORY_PINNED: return "pinned";
  case KP_MEMORY_REGISTERED: return "registered";
  default: return "unknown";
  }
}

/* ---- KP_DEBUG=leaks ---------------------------------------------------------------------- */

/* Whether KP_DEBUG (words separated by commas or spaces) contains `word`. */
static int debug_has(const char *word) {
  const char *s = getenv("KP_DEBUG");
  size_t n = strlen(word);
  while (s && *s) {
    size_t len = strcspn(s, ", ");
    if (len == n && strncmp(s, word, n) == 0) return 1;
    s += len;
    s += strspn(s, ", ");
  }
  return 0;
}

static void report_leaks(void) { kp_alloc_table_report_leaks(); }

static pthread_once_t g_leaks_once = PTHREAD_ONCE_INIT;
static void arm_leak_report(void) {
  if (debug_has("leaks")) atexit(report_leaks);
}

/* ---- allocation -------------------------------------------------------------------------- */

static void *allocate(kp_memory_kind kind, size_t bytes, const char *what) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  pthread_once(&g_leaks_once, arm_leak_report);
  void *p = NULL;
  int device = 0;
  if (be->alloc_kind(kind, bytes, &p, &device, what)) return NULL;
  kp_alloc_info info = {p, bytes, kind, device, what, 0};
  if (kp_alloc_table_insert(&info)) {
    be->release_kind(kind, device, p, bytes, what);
    kp_fail(KP_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the table of allocations",
            what);
    return NULL;
  }
  return p;
}

KP_EXPORT void *kp_device_alloc_bytes(size_t bytes) {
  return allocate(KP_MEMORY_DEVICE, bytes, "device_array");
}
KP_EXPORT void *kp_managed_alloc_bytes(size_t bytes) {
  return allocate(KP_MEMORY_MANAGED, bytes, "managed_array");
}
KP_EXPORT void *kp_pinned_alloc_bytes(size_t bytes) {
  return allocate(KP_MEMORY_PINNED, bytes, "pinned_array");
}

static void free_entry(const kp_alloc_info *e, const char *what) {
  remember_freed(e->start);
  kp_backend_get()->release_kind(e->kind, e->device, e->start, e->bytes, what);
}

KP_EXPORT void *kp_to_device_bytes(const void *host, size_t bytes) {
  if (!host && bytes) {
    kp_fail(KP_ERROR_INVALID_VALUE, "to_device: the host pointer is NULL (%zu bytes)", bytes);
    return NULL;
  }
  void *d = allocate(KP_MEMORY_DEVICE, bytes, "to_device");
  if (!d) return NULL;
  if (bytes && kp_backend_get()->to_device(d, host, bytes, "to_device")) {
    kp_alloc_info e;
    if (kp_alloc_table_remove(d, &e)) free_entry(&e, "to_device");
    return NULL;
  }
  return d;
}

KP_EXPORT void *kp_device_alloc_like(const void *p) {
  kp_alloc_info e;
  if (!p || !kp_alloc_table_lookup(p, &e) || e.start != p) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "device_array_like: %p is not the start of an array kernplug knows (it must come "
            "from to_device, device_array, managed_array, pinned_array or kp_register%s)",
            p, p && kp_memory_was_freed(p) ? ", and it was freed" : "");
    return NULL;
  }
  return allocate(KP_MEMORY_DEVICE, e.bytes, "device_array_like");
}

/* ---- explicit copies --------------------------------------------------------------------- */

kp_error kp_check_alloc_range(const char *what, const void *p, size_t bytes,
                              const kp_alloc_info *e) {
  size_t offset = (size_t)((const char *)p - (const char *)e->start);
  if (bytes > e->bytes - offset)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: %zu bytes at %p run past the end of its %s array (%zu bytes at %p, "
                   "%zu bytes in)",
                   what, bytes, p, kp_memory_kind_name(e->kind), e->bytes, e->start, offset);
  return KP_SUCCESS;
}

kp_error kp_check_foreign_range(const kp_backend *be, const char *what, const void *p,
                                size_t bytes) {
  void *base = NULL;
  size_t size = 0;
  if (!be->foreign_device_range || !be->foreign_device_range(p, &base, &size))
    return KP_SUCCESS; /* the driver cannot say: unchecked */
  size_t offset = (size_t)((const char *)p - (const char *)base);
  if (offset > size || bytes > size - offset)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: %zu bytes at %p run past the end of the device memory other CUDA code "
                   "allocated there (%zu bytes at %p, %zu bytes in)",
                   what, bytes, p, size, base, offset);
  return KP_SUCCESS;
}

kp_error kp_check_reachable(const kp_backend *be, const char *what, const void *p) {
  if (!be || !be->is_unreachable_gpu_memory || !be->is_unreachable_gpu_memory(p))
    return KP_SUCCESS;
  return kp_fail(KP_ERROR_INVALID_VALUE,
                 "%s: %p is memory of a CUDA GPU (cudaMalloc, cudaMallocManaged, cuMemAlloc), "
                 "but kernels run on the %s backend, which cannot use it: allocate it with "
                 "device_array or managed_array, or run on the CUDA backend (KP_BACKEND=cuda)",
                 what, p, be->name);
}

/* Checks that [d, d + bytes) lies inside one live device or managed array, or in device
 * memory other CUDA code allocated (sized by the driver). */
kp_error kp_check_device_range(const char *what, const void *d, size_t bytes) {
  kp_alloc_info e;
  if (!d)
    return kp_fail(KP_ERROR_INVALID_VALUE, "%s: the device pointer is NULL", what);
  if (!kp_alloc_table_lookup(d, &e)) {
    if (kp_memory_was_freed(d))
      return kp_fail(KP_ERROR_INVALID_VALUE, "%s: device array %p was already freed", what, d);
    const kp_backend *be = kp_backend_chosen();
    if (be && be->is_foreign_device_memory && be->is_foreign_device_memory(d))
      return kp_check_foreign_range(be, what, d, bytes);
    if (kp_check_reachable(be, what, d)) return KP_ERROR_INVALID_VALUE;
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: %p is not a device array (not returned by to_device, device_array or "
                   "managed_array, or already freed)",
                   what, d);
  }
  if (e.kind == KP_MEMORY_PINNED || e.kind == KP_MEMORY_REGISTERED)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s: %p is %s host memory, not a device array: copy host memory with memcpy, "
                   "or pass it to the kernel, which copies it to the device and back",
                   what, d, kp_memory_kind_name(e.kind));
  return kp_check_alloc_range(what, d, bytes, &e);
}

/* ---- freeing, registering ---------------------------------------------------------------- */

KP_EXPORT void kp_free(void *p) {
  if (!p) return; /* like free(NULL) and cudaFree(NULL) */
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  kp_alloc_info e;
  if (!kp_alloc_table_lookup(p, &e) || e.start != p) {
    if (kp_memory_was_freed(p))
      kp_fail(KP_ERROR_INVALID_VALUE, "kp_free: array %p was freed twice", p);
    else if (kp_alloc_table_lookup(p, &e))
      kp_fail(KP_ERROR_INVALID_VALUE,
              "kp_free: %p points %zu bytes into the %s array at %p: free the pointer the "
              "allocation returned",
              p, (size_t)((char *)p - (char *)e.start), kp_memory_kind_name(e.kind), e.start);
    else if (be->is_foreign_device_memory && be->is_foreign_device_memory(p))
      kp_fail(KP_ERROR_INVALID_VALUE,
              "kp_free: %p is device memory other CUDA code allocated (cudaMalloc, "
              "cudaMallocManaged, cuMemAlloc): free it the way it was allocated (cudaFree)",
              p);
    else
      kp_fail(KP_ERROR_INVALID_VALUE,
              "kp_free: %p is not an array kernplug allocated (to_device, device_array, "
              "device_array_like, managed_array, pinned_array)",
              p);
    return;
  }
  if (e.kind == KP_MEMORY_REGISTERED) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "kp_free: %p is host memory registered with kp_register: release it with "
            "kp_unregister, then free it as it was allocated",
            p);
    return;
  }
  if (!kp_alloc_table_remove(p, &e)) { /* another thread freed it in between */
    kp_fail(KP_ERROR_INVALID_VALUE, "kp_free: array %p was freed twice", p);
    return;
  }
  free_entry(&e, "kp_free");
}

KP_EXPORT void *kp_register(void *p, size_t bytes) {
  const kp_backend *be = kp_backend_get();
  if (!be) return NULL;
  if (!p || !bytes) {
    kp_fail(KP_ERROR_INVALID_VALUE, "kp_register(%p, %zu): %s", p, bytes,
            !p ? "the pointer is NULL" : "registering 0 bytes");
    return NULL;
  }
  kp_alloc_info e;
  if (kp_alloc_table_overlap(p, bytes, &e)) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "kp_register(%p, %zu): the range overlaps the %s array of %zu bytes at %p, which "
            "kernplug already knows",
            p, bytes, kp_memory_kind_name(e.kind), e.bytes, e.start);
    return NULL;
  }
  pthread_once(&g_leaks_once, arm_leak_report);
  if (be->register_host(p, bytes, "kp_register")) return NULL;
  kp_alloc_info info = {p, bytes, KP_MEMORY_REGISTERED, 0, "kp_register", 0};
  if (kp_alloc_table_insert(&info)) {
    be->unregister_host(p, "kp_register");
    kp_fail(KP_ERROR_OUT_OF_MEMORY, "kp_register: out of host memory for the table of "
                                    "allocations");
    return NULL;
  }
  return p;
}

KP_EXPORT void kp_unregister(void *p) {
  if (!p) return;
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  kp_alloc_info e;
  if (!kp_alloc_table_lookup(p, &e) || e.start != p || e.kind != KP_MEMORY_REGISTERED) {
    if (kp_alloc_table_lookup(p, &e) && e.kind == KP_MEMORY_REGISTERED)
      kp_fail(KP_ERROR_INVALID_VALUE,
              "kp_unregister: %p points %zu bytes into the registered range at %p: pass the "
              "pointer given to kp_register",
              p, (size_t)((char *)p - (char *)e.start), e.start);
    else if (kp_alloc_table_lookup(p, &e))
      kp_fail(KP_ERROR_INVALID_VALUE, "kp_unregister: %p is a %s array, not registered host "
                                      "memory: free it with kp_free",
              p, kp_memory_kind_name(e.kind));
    else
      kp_fail(KP_ERROR_INVALID_VALUE, "kp_unregister: %p is not registered (kp_register)%s", p,
              kp_memory_was_freed(p) ? ": it was unregistered already" : "");
    return;
  }
  if (!kp_alloc_table_remove(p, &e)) return;
  remember_freed(p);
  be->unregister_host(p, "kp_unregister");
}

/* ---- questions --------------------------------------------------------------------------- */

KP_EXPORT size_t kp_alloc_size(const void *p) {
  kp_alloc_info e;
  if (p && kp_alloc_table_lookup(p, &e) && e.start == p) return e.bytes;
  return 0;
}

KP_EXPORT kp_memory_kind kp_memory_kind_of(const void *p) {
  kp_alloc_info e;
  if (p && kp_alloc_table_lookup(p, &e)) return e.kind;
  return KP_MEMORY_UNKNOWN;
}
