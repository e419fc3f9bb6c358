/* cuda_memory.c — device memory of the CUDA backend: allocation, copies, synchronisation.
 * Every call first makes the device's context current on the calling host thread; errors
 * name the user-level call (`what`), the size and the device. */
#include <stdint.h>

#include "cuda_backend.h"

kp_error kp_cuda_alloc(size_t bytes, void **out, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUdeviceptr d = 0;
  /* cuMemAlloc refuses 0 bytes; an empty array still needs a distinct pointer. */
  CUresult r = kp_cu.cuMemAlloc(&d, bytes ? bytes : 1);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemAlloc", "%s: allocating %zu bytes on %s", what,
                     bytes, kp_cuda_owner);
  *out = (void *)(uintptr_t)d;
  return KP_SUCCESS;
}

kp_error kp_cuda_release(void *p, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUresult r = kp_cu.cuMemFree((CUdeviceptr)(uintptr_t)p);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemFree", "%s(%p)", what, p);
  return KP_SUCCESS;
}

kp_error kp_cuda_to_device(void *dst, const void *src, size_t bytes, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUresult r = kp_cu.cuMemcpyHtoD((CUdeviceptr)(uintptr_t)dst, src, bytes);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyHtoD", "%s: copying %zu bytes to %p", what,
                     bytes, dst);
  return KP_SUCCESS;
}

kp_error kp_cuda_to_host(void *dst, const void *src, size_t bytes, const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUresult r = kp_cu.cuMemcpyDtoH(dst, (CUdeviceptr)(uintptr_t)src, bytes);
  if (r != CUDA_SUCCESS)
    return kp_cuda_fail(r, KP_ERROR_CUDA, "cuMemcpyDtoH", "%s: copying %zu bytes from %p", what,
                     bytes, src);
  return KP_SUCCESS;
}

kp_error kp_cuda_synchronize(const char *what) {
  kp_error err = kp_cuda_ensure_context(what);
  if (err) return err;
  CUresult r = kp_cu.cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return kp_cuda_fail(r, KP_ERROR_CUDA, "cuCtxSynchronize", "%s", what);
  return KP_SUCCESS;
}
