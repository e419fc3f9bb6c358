/* fake_cuda_memory.c — the fake driver's device memory: host memory behind a table of live
 * allocations, so that bad pointers and sizes fail as they would on a real driver. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cuda.h"

struct fake_alloc fake_allocs[FAKE_MAX_ALLOCS];

int fake_find_alloc(CUdeviceptr d, size_t bytes) {
  for (int i = 0; i < FAKE_MAX_ALLOCS; i++) {
    char *p = fake_allocs[i].p;
    if (p && (char *)(uintptr_t)d >= p && (char *)(uintptr_t)d + bytes <= p + fake_allocs[i].n)
      return i;
  }
  return -1;
}

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *d, size_t bytes) {
  NEED_CONTEXT();
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  if (fake_failing("oom")) {
    fake_log("cuMemAlloc %zu -> CUDA_ERROR_OUT_OF_MEMORY", bytes);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  char *p = malloc(bytes);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  pthread_mutex_lock(&fake_lock);
  int slot = -1;
  for (int i = 0; i < FAKE_MAX_ALLOCS && slot < 0; i++)
    if (!fake_allocs[i].p) slot = i;
  if (slot >= 0) fake_allocs[slot].p = p, fake_allocs[slot].n = bytes;
  pthread_mutex_unlock(&fake_lock);
  if (slot < 0) {
    free(p);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *d = (CUdeviceptr)(uintptr_t)p;
  fake_log("cuMemAlloc %zu -> 0x%llx", bytes, *d);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr d) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int found = 0;
  for (int i = 0; i < FAKE_MAX_ALLOCS && !found; i++)
    if (fake_allocs[i].p == (char *)(uintptr_t)d) {
      free(fake_allocs[i].p);
      fake_allocs[i].p = NULL;
      found = 1;
    }
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemFree 0x%llx%s", d, found ? "" : " INVALID");
  return found ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  NEED_CONTEXT();
  pthread_mutex_lock(&fake_lock);
  int ok = fake_find_alloc(dst, bytes) >= 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemcpyHtoD 0x%llx %zu%s", dst, bytes, ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  NEED_CONTEXT();
  if (fake_sticky_error) return fake_sticky_error;
  pthread_mutex_lock(&fake_lock);
  int ok = fake_find_alloc(src, bytes) >= 0;
  pthread_mutex_unlock(&fake_lock);
  fake_log("cuMemcpyDtoH 0x%llx %zu%s", src, bytes, ok ? "" : " INVALID");
  if (!ok) return CUDA_ERROR_INVALID_VALUE;
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}
