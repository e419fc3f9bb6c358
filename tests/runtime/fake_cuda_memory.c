/* fake_cuda_memory.c — the fake driver's memory: device, pooled and managed allocations are
 * host memory behind a table of live allocations, so that bad pointers and sizes fail as they
 * would on a real driver; pinned and registered host memory are tracked too.
 *
 * Every call is logged ("cuMemAllocAsync 4000 stream=(nil) -> 0x.."). Checks beyond a real
 * driver's, logged as MISMATCH: freeing pooled memory with cuMemFree or plain memory with
 * cuMemFreeAsync, and pinned memory given to cuMemHostRegister. The device has
 * FAKE_CUDA_MEMORY bytes (default 80 GiB): allocations beyond what is free fail with
 * CUDA_ERROR_OUT_OF_MEMORY and cuMemGetInfo reports the rest. FAKE_CUDA_FAIL=oom fails every
 * device and managed allocation; no_pool makes cuDeviceGetDefaultMemPool answer
 * CUDA_ERROR_NOT_SUPPORTED (a GPU without pools); register fails cuMemHostRegister; dtod
 * fails cuMemcpyDtoD(Async) and memset the cuMemsetD* calls with CUDA_ERROR_ILLEGAL_ADDRESS.
 * cuMemcpyHtoD given device memory as its source and cuMemcpyDtoH given it as its
 * destination are logged as MISMATCH (the copy needed was device to device). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"

enum { FAKE_NOT_SUPPORTED = 801, FAKE_HOST_MEMORY_NOT_REGISTERED = 713 };

struct fake_alloc fake_allocs[FAKE_MAX_ALLOCS];
static size_t g_used; /* bytes of device and managed memory allocated; under fake_lock */

/* Pinned (cuMemHostAlloc) and registered (cuMemHostRegister) host ranges; under fake_lock. */
enum { FAKE_MAX_HOST = 1024 };
static struct {
  char *p;
  size_t n;
  int registered;
} g_host[FAKE_MAX_HOST];

static size_t total_memory(void) {
  const char *s = getenv("FAKE_CUDA_MEMORY");
  return s && *s ? (size_t)strtoull(s, NULL, 10) : (size_t)80 << 30;
}

int fake_find_alloc(CUdeviceptr d, size_t bytes) {
  for (int i = 0; i < FAKE_MAX_ALLOCS; i++) {
    char *p = fake_allocs[i].p;
    if (p && (char *)(uintptr_t)d >= p && (char *)(uintptr_t)d + bytes <= p + fake_allocs[i].n)
      return i;
  }
  return -1;
}

static const char *how_name(int how) {
  return how == FAKE_POOLED ? "cuMemAllocAsync" : how == FAKE_MANAGED ? "cuMemAllocManaged"
                                                                      : "cuMemAlloc";
}

/* An allocation of `bytes` made as `how`; logs "<call> <bytes>[ stream=..] -> 0x..". */
static CUresult allocate(CUdeviceptr *d, size_t bytes, int how, const char *extra) {
  NEED_CONTEXT();
  const char *call = how_name(how);
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&fake_lock);
  int fits = g_used <= total_memory() && bytes <= total_memory() - g_used;
  pthread_mutex_unlock(&fake_lock);
  if (fake_failing("oom") || !fits) {
    fake_log("%s %zu%s -> CUDA_ERROR_OUT_OF_MEMORY", call, bytes, extra);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  /* Zeroed: the fake runs no kernels, so what programs copy back must at least be defined. */
  char *p = calloc(1, bytes);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  pthread_mutex_lock(&fake_lock);
  int slot = -1;
  for (int i = 0; i < FAKE_MAX_ALLOCS && slot < 0; i++)
    if (!fake_allocs[i].p) slot = i;
  if (slot >= 0) {
    fake_allocs[slot] = (struct fake_alloc){p, bytes, how};
    g_used += bytes;
  }
  pthread_mutex_unlock(&fake_lock);
  if (slot < 0) {
    free(p);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *d = (CUdeviceptr)(uintptr_t)p;
  fake_log("%s %zu%s -> 0x%llx", call, bytes, extra, *d);
  return CUDA_SUCCESS;
}

/* A module's .const or .global variable: device memory that is never freed (the fake never
 * reuses a module's memory), zeroed, not logged as an allocation. 0 when the table is full. */
CUdeviceptr fake_module_global(size_t bytes) {
  char *p = calloc(1, bytes ? bytes : 1);
  pthread_mutex_lock(&fake_lock);
  int slot = -1;
  for (int i = 0; i < FAKE_MAX_ALLOCS && slot < 0; i++)
    if (!fake_allocs[i].p) slot = i;
  if (slot >= 0) fake_allocs[slot] = (struct fake_alloc){p, bytes, FAKE_PLAIN};
  pthread_mutex_unlock(&fake_lock);
  if (slot < 0) free(p);
  return slot < 0 ? 0 : (CUdeviceptr)(uintptr_t)p;
}

/* Frees the allocation starting at d; logs MISMATCH when it was made another way. */
static CUresult release(CUdeviceptr d, int pooled_free, const char *call, const char *extra) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int found = 0, mismatch = 0;
  for (int i = 0; i < FAKE_MAX_ALLOCS && !found; i++)
    if (fake_allocs[i].p == (char *)(uintptr_t)d) {
      mismatch = (fake_allocs[i].how == FAKE_POOLED) != pooled_free;
      free(fake_allocs[i].p);
      g_used -= fake_allocs[i].n;
      fake_allocs[i].p = NULL;
      found = 1;
    }
  pthread_mutex_unlock(&fake_lock);
  fake_log("%s 0x%llx%s%s%s", call, d, extra, found ? "" : " INVALID", mismatch ? " MISMATCH" : "");
  return found ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *d, size_t bytes) {
  return allocate(d, bytes, FAKE_PLAIN, "");
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr d) { return release(d, 0, "cuMemFree", ""); }

FAKE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *d, size_t bytes, unsigned flags) {
  if (flags != CU_MEM_ATTACH_GLOBAL) fake_log("cuMemAllocManaged flags=%u MISMATCH", flags);
  return allocate(d, bytes, FAKE_MANAGED, "");
}

/* ---- the stream-ordered pool ---- */

struct CUmemPoolHandle_st {
  int dummy;
};
static struct CUmemPoolHandle_st g_pool;

static const char *stream_text(CUstream s, char *buf, size_t size) {
  snprintf(buf, size, " stream=%p", (void *)s);
  return buf;
}

FAKE_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *d, size_t bytes, CUstream s) {
  char buf[64];
  return allocate(d, bytes, FAKE_POOLED, stream_text(s, buf, sizeof buf));
}

FAKE_EXPORT CUresult cuMemFreeAsync(CUdeviceptr d, CUstream s) {
  char buf[64];
  return release(d, 1, "cuMemFreeAsync", stream_text(s, buf, sizeof buf));
}

FAKE_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev) {
  if (fake_failing("no_pool")) {
    fake_log("cuDeviceGetDefaultMemPool %d -> CUDA_ERROR_NOT_SUPPORTED", dev);
    return FAKE_NOT_SUPPORTED;
  }
  *pool = &g_pool;
  fake_log("cuDeviceGetDefaultMemPool %d", dev);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute a, void *v) {
  if (pool != &g_pool) return CUDA_ERROR_INVALID_HANDLE;
  if (a == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
    fake_log("cuMemPoolSetAttribute release_threshold %llu", *(unsigned long long *)v);
  else
    fake_log("cuMemPoolSetAttribute %d", a);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep) {
  if (pool != &g_pool) return CUDA_ERROR_INVALID_HANDLE;
  fake_log("cuMemPoolTrimTo %zu", keep);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  *total = total_memory();
  *free_bytes = g_used < *total ? *total - g_used : 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemGetInfo -> %zu %zu", *free_bytes, *total);
  return CUDA_SUCCESS;
}

/* ---- pinned and registered host memory ---- */

/* The host range holding p, or -1; fake_lock held. */
static int find_host(const char *p, size_t bytes) {
  for (int i = 0; i < FAKE_MAX_HOST; i++)
    if (g_host[i].p && p < g_host[i].p + g_host[i].n && p + (bytes ? bytes : 1) > g_host[i].p)
      return i;
  return -1;
}

static int add_host(char *p, size_t n, int registered) {
  for (int i = 0; i < FAKE_MAX_HOST; i++)
    if (!g_host[i].p) {
      g_host[i].p = p, g_host[i].n = n, g_host[i].registered = registered;
      return 1;
    }
  return 0;
}

FAKE_EXPORT CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags) {
  NEED_CONTEXT();
  char *m = bytes ? malloc(bytes) : NULL;
  pthread_mutex_lock(&fake_lock);
  int ok = m && add_host(m, bytes, 0);
  pthread_mutex_unlock(&fake_lock);
  if (!ok) {
    free(m);
    fake_log("cuMemHostAlloc %zu flags=%u -> CUDA_ERROR_OUT_OF_MEMORY", bytes, flags);
    return bytes ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
  }
  *p = m;
  fake_log("cuMemHostAlloc %zu flags=%u -> %p", bytes, flags, (void *)m);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFreeHost(void *p) {
  pthread_mutex_lock(&fake_lock);
  int i = find_host(p, 1);
  int ok = i >= 0 && g_host[i].p == p && !g_host[i].registered;
  if (ok) g_host[i].p = NULL;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemFreeHost %p%s", p, ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  free(p);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags) {
  NEED_CONTEXT();
  if (fake_failing("register")) {
    fake_log("cuMemHostRegister %p %zu flags=%u -> CUDA_ERROR_INVALID_VALUE", p, bytes, flags);
    return CUDA_ERROR_INVALID_VALUE;
  }
  pthread_mutex_lock(&fake_lock);
  int taken = find_host(p, bytes) >= 0;
  int ok = !taken && bytes && add_host(p, bytes, 1);
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemHostRegister %p %zu flags=%u%s", p, bytes, flags,
           taken ? " -> CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED" : ok ? "" : " INVALID");
  if (taken) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuMemHostUnregister(void *p) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int i = find_host(p, 1);
  int ok = i >= 0 && g_host[i].p == p && g_host[i].registered;
  if (ok) g_host[i].p = NULL;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemHostUnregister %p%s", p, ok ? "" : " INVALID");
  return ok ? CUDA_SUCCESS : FAKE_HOST_MEMORY_NOT_REGISTERED;
}

/* Device and managed allocations are device memory; pinned and registered ranges host
 * memory; anything else is unknown to the driver (CUDA_ERROR_INVALID_VALUE). */
FAKE_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr d) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int slot = fake_find_alloc(d, 1);
  int how = slot >= 0 ? fake_allocs[slot].how : -1;
  int host = slot < 0 && find_host((char *)(uintptr_t)d, 1) >= 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuPointerGetAttribute %d 0x%llx%s", a, d, slot < 0 && !host ? " -> unknown" : "");
  if (slot < 0 && !host) return CUDA_ERROR_INVALID_VALUE;
  if (a == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
    *(unsigned *)data = host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
  else if (a == CU_POINTER_ATTRIBUTE_IS_MANAGED)
    *(unsigned char *)data = how == FAKE_MANAGED; /* a bool, as in the driver */
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

/* The device or managed allocation d lies in. */
FAKE_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr d) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int slot = fake_find_alloc(d, 1);
  if (slot >= 0) {
    if (base) *base = (CUdeviceptr)(uintptr_t)fake_allocs[slot].p;
    if (size) *size = fake_allocs[slot].n;
  }
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemGetAddressRange 0x%llx%s", d, slot < 0 ? " -> unknown" : "");
  return slot >= 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

/* ---- synchronous copies ---- */

FAKE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int ok = fake_find_alloc(dst, bytes) >= 0;
  int pinned = find_host(src, bytes) >= 0;
  /* A device source given as host memory: the bug of a runtime that does not classify. */
  int from_device = fake_find_alloc((CUdeviceptr)(uintptr_t)src, 1) >= 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemcpyHtoD 0x%llx %zu%s%s%s", dst, bytes, pinned ? " from pinned" : "",
           from_device ? " from device MISMATCH" : "", ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  NEED_CONTEXT();
  if (fake_sticky_error) return fake_sticky_error;
  pthread_mutex_lock(&fake_lock);
  int ok = fake_find_alloc(src, bytes) >= 0;
  int pinned = find_host(dst, bytes) >= 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemcpyDtoH 0x%llx %zu%s%s%s", src, bytes, pinned ? " to pinned" : "",
           fake_device_range(dst) ? " to device MISMATCH" : "", ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

int fake_device_range(const void *p) {
  pthread_mutex_lock(&fake_lock);
  int found = fake_find_alloc((CUdeviceptr)(uintptr_t)p, 1) >= 0;
  pthread_mutex_unlock(&fake_lock);
  return found;
}

/* ---- device to device, fills ---- */

CUresult fake_dtod(const char *call, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                   const char *extra) {
  if (fake_failing("dtod")) {
    fake_log("%s 0x%llx 0x%llx %zu%s -> CUDA_ERROR_ILLEGAL_ADDRESS", call, dst, src, bytes, extra);
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  }
  pthread_mutex_lock(&fake_lock);
  int ok = fake_find_alloc(dst, bytes) >= 0 && fake_find_alloc(src, bytes) >= 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("%s 0x%llx 0x%llx %zu%s%s", call, dst, src, bytes, extra, ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

CUresult fake_memset(const char *call, CUdeviceptr dst, unsigned value, size_t size,
                     size_t count, const char *extra) {
  if (fake_failing("memset")) {
    fake_log("%s 0x%llx value=0x%x count=%zu%s -> CUDA_ERROR_ILLEGAL_ADDRESS", call, dst, value,
             count, extra);
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  }
  pthread_mutex_lock(&fake_lock);
  int ok = dst % size == 0 && fake_find_alloc(dst, count * size) >= 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("%s 0x%llx value=0x%x count=%zu%s%s", call, dst, value, count, extra,
           ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; i++)
    memcpy((char *)(uintptr_t)dst + i * size, &value, size); /* the low bytes: little-endian */
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  NEED_CONTEXT();
  return fake_dtod("cuMemcpyDtoD", dst, src, bytes, "");
}

FAKE_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count) {
  NEED_CONTEXT();
  return fake_memset("cuMemsetD8", dst, value, 1, count, "");
}

FAKE_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short value, size_t count) {
  NEED_CONTEXT();
  return fake_memset("cuMemsetD16", dst, value, 2, count, "");
}

FAKE_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count) {
  NEED_CONTEXT();
  return fake_memset("cuMemsetD32", dst, value, 4, count, "");
}
