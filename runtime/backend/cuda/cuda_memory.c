/* cuda_memory.c — memory of the CUDA backend: device, managed and pinned allocations,
 * registered host memory, copies, fills, synchronisation.
 *
 * Device memory comes from each device's stream-ordered pool (cuMemAllocAsync/cuMemFreeAsync
 * on the legacy default stream) where the driver has one, so that allocating in a loop costs
 * about a microsecond instead of a cuMemAlloc's page mapping, and the pool keeps its memory
 * across synchronisations (release threshold: unlimited) so it is not handed back and mapped
 * again every iteration. The legacy default stream waits for all earlier work on every
 * blocking stream (every kp_stream is one), so a free of memory a queued kernel still uses
 * happens after that kernel. Without pools (drivers before CUDA 11.2, KP_MEMORY_POOL=0)
 * cuMemAlloc/cuMemFree, with a cuCtxSynchronize before each free for the same guarantee:
 * cuMemFree only says it "may" synchronise.
 *
 * Every operation makes the right device's context current first: the calling thread's
 * device for new memory, the allocation's device (from the allocation table) for copies and
 * frees. Errors name the user-level call (`what`), the size and the device; out of memory
 * also says how much is free. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/cuda_backend.h"
#include "core/alloc_table.h"

/* ---- the pool ---------------------------------------------------------------------------- */

static struct {
  KP_CUDA_POOL_FUNCTIONS(KP_CUDA_POINTER)
} g_pool_fn;
static int g_pool_fn_complete; /* every pool entry point was found */
static pthread_once_t g_pool_fn_once = PTHREAD_ONCE_INIT;

static void load_pool_functions(void) {
  g_pool_fn_complete = 1;
#define KP_LOAD_FN(name, symbol, params)                                                       \
  *(void **)&g_pool_fn.name = dlsym(kp_cu.lib, KP_CUDA_SYMBOL_NAME(symbol));                  \
  if (!g_pool_fn.name) g_pool_fn_complete = 0;
  KP_CUDA_POOL_FUNCTIONS(KP_LOAD_FN)
#undef KP_LOAD_FN
  const char *env = getenv("KP_MEMORY_POOL");
  if (env && strcmp(env, "0") == 0) g_pool_fn_complete = 0;
}

enum { KP_MAX_POOL_DEVICES = 64 };
/* Per device: 0 undecided, 1 the default pool, -1 no pool (decided once, on first use, so
 * that every allocation of a device is freed the way it was made). */
static int g_pool_state[KP_MAX_POOL_DEVICES];
static CUmemoryPool g_pools[KP_MAX_POOL_DEVICES];
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device's default pool, set to keep what it holds; 0 when there is none. */
static int setup_pool(int device) {
  pthread_once(&g_pool_fn_once, load_pool_functions);
  if (!g_pool_fn_complete) return 0;
  CUdevice dev;
  CUmemoryPool pool;
  if (kp_cu.cuDeviceGet(&dev, device) != CUDA_SUCCESS ||
      g_pool_fn.cuDeviceGetDefaultMemPool(&pool, dev) != CUDA_SUCCESS) /* NOT_SUPPORTED */
    return 0;
  /* Without this the pool gives its memory back at every synchronisation. Not fatal. */
  unsigned long long keep = UINT64_MAX;
  g_pool_fn.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep);
  g_pools[device] = pool;
  return 1;
}

/* Whether device memory of `device` comes from its pool. */
static int uses_pool(int device) {
  if (device < 0 || device >= KP_MAX_POOL_DEVICES) return 0;
  int state = __atomic_load_n(&g_pool_state[device], __ATOMIC_ACQUIRE);
  if (state) return state > 0;
  pthread_mutex_lock(&g_pool_lock);
  state = g_pool_state[device];
  if (!state) {
    state = setup_pool(device) ? 1 : -1;
    __atomic_store_n(&g_pool_state[device], state, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&g_pool_lock);
  return state > 0;
}

/* After an out-of-memory error: wait for pending frees and give the pool's unused memory
 * back to the device, so that a retry (of a pool or a managed allocation) can succeed. */
static int trim_pool(int device) {
  if (!uses_pool(device)) return 0;
  kp_cu.cuCtxSynchronize();
  return g_pool_fn.cuMemPoolTrimTo(g_pools[device], 0) == CUDA_SUCCESS;
}

/* ---- helpers ----------------------------------------------------------------------------- */

/* "1.5 GiB" */
static const char *human(size_t bytes, char *buf, size_t size) {
  static const char *unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, u++;
  if (u == 0) snprintf(buf, size, "%zu bytes", bytes);
  else snprintf(buf, size, "%.1f %s", v, unit[u]);
  return buf;
}

/* Reports a failed allocation; out of memory says what the device has free. */
static kp_error alloc_failed(CUresult r, const char *call, const char *what, size_t bytes,
                             const char *kind, int device) {
  size_t free_bytes = 0, total = 0;
  if (r == CUDA_ERROR_OUT_OF_MEMORY && kp_cu.cuMemGetInfo(&free_bytes, &total) == CUDA_SUCCESS) {
    char h1[32], h2[32], h3[32];
    return kp_fail(KP_ERROR_OUT_OF_MEMORY,
                   "%s: allocating %zu bytes%s (%s) on %s: out of memory (%zu bytes free of "
                   "%zu: %s of %s); %s returned CUDA_ERROR_OUT_OF_MEMORY",
                   what, bytes, kind, human(bytes, h1, sizeof h1), kp_cuda_device_owner(device),
                   free_bytes, total, human(free_bytes, h2, sizeof h2),
                   human(total, h3, sizeof h3), call);
  }
  return kp_cuda_fail(r, KP_ERROR_CUDA, call, "%s: allocating %zu bytes%s on %s", what, bytes,
                      kind, kp_cuda_device_owner(device));
}

/* The device of the device or managed allocation containing p; the calling thread's device
 * for memory the table does not know (the runtime's temporaries). */
static int device_of(const void *p) {
  kp_alloc_info e;
  if (kp_alloc_table_lookup(p, &e) &&
      (e.kind == KP_MEMORY_DEVICE || e.kind == KP_MEMORY_MANAGED))
    return e.device;
  return kp_cuda_current_device();
}

/* ---- device memory ----------------------------------------------------------------------- */

/* Device memory on `device`, whose context is current. */
static kp_error device_alloc(int device, size_t bytes, void **out, const char *what) {
  CUdeviceptr d = 0;
  size_t n = bytes ? bytes : 1; /* an empty array still needs a distinct pointer */
  int pool = uses_pool(device);
  const char *call = pool ? "cuMemAllocAsync" : "cuMemAlloc";
  CUresult r = pool ? g_pool_fn.cuMemAllocAsync(&d, n, NULL) : kp_cu.cuMemAlloc(&d, n);
  if (r == CUDA_ERROR_OUT_OF_MEMORY && trim_pool(device))
    r = pool ? g_pool_fn.cuMemAllocAsync(&d, n, NULL) : kp_cu.cuMemAlloc(&d, n);
  if (r != CUDA_SUCCESS) return alloc_failed(r, call, what, bytes, "", device);
  *out = (void *)(uintptr_t)d;
  return KP_SUCCESS;
}

/* Frees device memory of `device`, whose context is current, after the work queued before. */
static kp_error device_free(int device, void *p, const char *what) {
  CUdeviceptr d = (CUdeviceptr)(uintptr_t)p;
  if (uses_pool(device)) {
    /* The legacy default stream orders the free after every blocking stream's work, not
     * after a non-blocking stream's: while one exists, wait for the device first. */
    if (kp_cuda_non_blocking_streams() > 0) {
      CUresult r = kp_cu.cuCtxSynchronize();
      if (r != CUDA_SUCCESS)
        return kp_cuda_fail(r, KP_ERROR_CUDA, "cuCtxSynchronize",
                            "%s(%p): waiting for the work that may use it", what, p);
    }
    CUresult r = g_pool_fn.cuMemFreeAsync(d, NULL);
    if (r != CUDA_SUCCESS) return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemFreeAsync", "%s(%p)", what, p);
    return KP_SUCCESS;
  }
  CUresult r = kp_cu.cuCtxSynchronize();
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuCtxSynchronize", "%s(%p): waiting for the work that "
                        "may use it", what, p);
  r = kp_cu.cuMemFree(d);
  if (r != CUDA_SUCCESS) return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemFree", "%s(%p)", what, p);
  return KP_SUCCESS;
}

kp_error kp_cuda_alloc(size_t bytes, void **out, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  return device_alloc(kp_cuda_current_device(), bytes, out, what);
}

kp_error kp_cuda_release(void *p, size_t bytes, const char *what) {
  (void)bytes; /* the driver knows */
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  return device_free(kp_cuda_current_device(), p, what);
}

/* ---- kinds ------------------------------------------------------------------------------- */

kp_error kp_cuda_alloc_kind(kp_memory_kind kind, size_t bytes, void **out, int *device,
                            const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  int dev = kp_cuda_current_device();
  *device = dev;
  size_t n = bytes ? bytes : 1;
  CUresult r;
  switch (kind) {
  case KP_MEMORY_DEVICE: return device_alloc(dev, bytes, out, what);
  case KP_MEMORY_MANAGED: {
    CUdeviceptr d = 0;
    r = kp_cu.cuMemAllocManaged(&d, n, CU_MEM_ATTACH_GLOBAL);
    if (r == CUDA_ERROR_OUT_OF_MEMORY && trim_pool(dev))
      r = kp_cu.cuMemAllocManaged(&d, n, CU_MEM_ATTACH_GLOBAL);
    if (r != CUDA_SUCCESS)
      return alloc_failed(r, "cuMemAllocManaged", what, bytes, " of managed memory", dev);
    *out = (void *)(uintptr_t)d;
    return KP_SUCCESS;
  }
  case KP_MEMORY_PINNED:
    /* Portable: usable from every device's context; mapped: the GPU can reach it too. */
    r = kp_cu.cuMemHostAlloc(out, n, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
    if (r != CUDA_SUCCESS)
      return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemHostAlloc",
                          "%s: allocating %zu bytes of pinned host memory", what, bytes);
    return KP_SUCCESS;
  default:
    return kp_fail(KP_ERROR_INTERNAL, "%s: cannot allocate %s memory", what,
                   kp_memory_kind_name(kind));
  }
}

kp_error kp_cuda_release_kind(kp_memory_kind kind, int device, void *p, size_t bytes,
                              const char *what) {
  (void)bytes; /* the driver knows */
  kp_error err = kind == KP_MEMORY_PINNED ? kp_cuda_ensure_context(what)
                                          : kp_cuda_use_device(device, what);
  if (err) return err;
  CUresult r;
  switch (kind) {
  case KP_MEMORY_DEVICE: return device_free(device, p, what);
  case KP_MEMORY_MANAGED:
    /* The host may touch managed memory at any time, so nothing may still use it: wait. */
    r = kp_cu.cuCtxSynchronize();
    if (r == CUDA_SUCCESS) r = kp_cu.cuMemFree((CUdeviceptr)(uintptr_t)p);
    if (r != CUDA_SUCCESS)
      return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemFree", "%s(%p) (managed memory)", what, p);
    return KP_SUCCESS;
  case KP_MEMORY_PINNED:
    /* Asynchronous copies of this thread's device may still use it: wait for them. */
    r = kp_cu.cuCtxSynchronize();
    if (r == CUDA_SUCCESS) r = kp_cu.cuMemFreeHost(p);
    if (r != CUDA_SUCCESS)
      return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemFreeHost", "%s(%p) (pinned memory)", what, p);
    return KP_SUCCESS;
  default:
    return kp_fail(KP_ERROR_INTERNAL, "%s(%p): cannot free %s memory", what, p,
                   kp_memory_kind_name(kind));
  }
}

kp_error kp_cuda_register_host(void *p, size_t bytes, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUresult r = kp_cu.cuMemHostRegister(p, bytes, CU_MEMHOSTREGISTER_PORTABLE);
  if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    return kp_cuda_fail(r, KP_ERROR_INVALID_VALUE, "cuMemHostRegister",
                        "%s(%p, %zu): part of the range is page-locked already (by other code, "
                        "or a neighbour registered on the same page)",
                        what, p, bytes);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemHostRegister", "%s(%p, %zu)", what, p, bytes);
  return KP_SUCCESS;
}

kp_error kp_cuda_unregister_host(void *p, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUresult r = kp_cu.cuMemHostUnregister(p);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemHostUnregister", "%s(%p)", what, p);
  return KP_SUCCESS;
}

/* One driver query for a host pointer (the common case: a mistake about to be reported). */
int kp_cuda_is_foreign_device_memory(const void *p) {
  if (kp_cuda_ensure_context("launch")) return 0;
  CUdeviceptr d = (CUdeviceptr)(uintptr_t)p;
  unsigned type = 0;
  if (kp_cu.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d) != CUDA_SUCCESS)
    return 0; /* memory the driver has never seen */
  if (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED) return 1;
  unsigned long long managed = 0; /* a "boolean" of unstated width: room for any */
  return kp_cu.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d) ==
             CUDA_SUCCESS &&
         managed;
}

/* The allocation of device memory other code made, so that calls on it are range-checked like
 * kernplug's own arrays. */
int kp_cuda_foreign_device_range(const void *p, void **base, size_t *size) {
  if (kp_cuda_ensure_context("launch")) return 0;
  CUdeviceptr b = 0;
  size_t n = 0;
  if (kp_cu.cuMemGetAddressRange(&b, &n, (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS || !n)
    return 0;
  *base = (void *)(uintptr_t)b;
  *size = n;
  return 1;
}

/* ---- copies ------------------------------------------------------------------------------ */

/* A host-to-device copy from pageable memory, a device-to-device copy and a fill may still be
 * running on the legacy default stream when the driver returns. Blocking streams wait for
 * that stream's work; a non-blocking stream does not, so while one exists the synchronous
 * calls wait for their work to finish: what a program issues to such a stream afterwards sees
 * it, as on the CPU backend. */
static kp_error finish_for_non_blocking(kp_error err, const char *what) {
  if (err || kp_cuda_non_blocking_streams() == 0) return err;
  CUresult r = kp_cu.cuStreamSynchronize(NULL);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuStreamSynchronize",
                        "%s: waiting for the copy, since a non-blocking stream exists", what);
  return KP_SUCCESS;
}

kp_error kp_cuda_to_device(void *dst, const void *src, size_t bytes, const char *what) {
  int dev = device_of(dst);
  kp_error err = kp_cuda_use_device(dev, what);
  if (err) return err;
  CUresult r = kp_cu.cuMemcpyHtoD((CUdeviceptr)(uintptr_t)dst, src, bytes);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyHtoD", "%s: copying %zu bytes to %p on %s",
                        what, bytes, dst, kp_cuda_device_owner(dev));
  return finish_for_non_blocking(KP_SUCCESS, what);
}

kp_error kp_cuda_to_host(void *dst, const void *src, size_t bytes, const char *what) {
  int dev = device_of(src);
  kp_error err = kp_cuda_use_device(dev, what);
  if (err) return err;
  CUresult r = kp_cu.cuMemcpyDtoH(dst, (CUdeviceptr)(uintptr_t)src, bytes);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyDtoH", "%s: copying %zu bytes from %p on %s",
                        what, bytes, src, kp_cuda_device_owner(dev));
  return KP_SUCCESS;
}

kp_error kp_cuda_device_to_device(void *dst, const void *src, size_t bytes, const char *what) {
  int dev = device_of(dst);
  kp_error err = kp_cuda_use_device(dev, what);
  if (err) return err;
  /* Asynchronous with the host once queued, as CUDA documents for device-to-device copies;
   * ordered with everything on the legacy default stream. */
  CUresult r =
      kp_cu.cuMemcpyDtoD((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, bytes);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyDtoD",
                        "%s: copying %zu bytes from %p to %p on %s", what, bytes, src, dst,
                        kp_cuda_device_owner(dev));
  return finish_for_non_blocking(KP_SUCCESS, what);
}

/* cuMemsetD8/D16/D32 or their Async forms on `stream` (NULL: the legacy default stream). */
kp_error kp_cuda_fill_on(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                         void *stream, int async, const char *what) {
  CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst;
  CUstream s = stream;
  CUresult r;
  const char *call;
  if (elem_size == 1) {
    call = async ? "cuMemsetD8Async" : "cuMemsetD8";
    r = async ? kp_cu.cuMemsetD8Async(d, (unsigned char)pattern, count, s)
              : kp_cu.cuMemsetD8(d, (unsigned char)pattern, count);
  } else if (elem_size == 2) {
    call = async ? "cuMemsetD16Async" : "cuMemsetD16";
    r = async ? kp_cu.cuMemsetD16Async(d, (unsigned short)pattern, count, s)
              : kp_cu.cuMemsetD16(d, (unsigned short)pattern, count);
  } else {
    call = async ? "cuMemsetD32Async" : "cuMemsetD32";
    r = async ? kp_cu.cuMemsetD32Async(d, pattern, count, s) : kp_cu.cuMemsetD32(d, pattern, count);
  }
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, call, "%s: filling %zu bytes at %p (%zu-byte elements)",
                        what, count * elem_size, dst, elem_size);
  return KP_SUCCESS;
}

kp_error kp_cuda_fill(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                      const char *what) {
  kp_error err = kp_cuda_use_device(device_of(dst), what);
  if (err) return err;
  return finish_for_non_blocking(kp_cuda_fill_on(dst, pattern, elem_size, count, NULL, 0, what),
                                 what);
}

kp_error kp_cuda_synchronize(const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUresult r = kp_cu.cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return kp_cuda_fail(r, KP_ERROR_CUDA, "cuCtxSynchronize", "%s", what);
  return KP_SUCCESS;
}
