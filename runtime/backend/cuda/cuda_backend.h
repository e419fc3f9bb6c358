/* cuda_backend.h — what the files of the CUDA backend share (never installed): the driver
 * functions loaded with dlopen, the device in use, error reporting and the per-thread
 * context. backend_cuda.c starts the driver and launches kernels; cuda_memory.c allocates
 * and copies; cuda_stream.c runs streams and events. Only this folder includes it: the rest
 * of the runtime sees the backend through backend/backend.h. */
#ifndef KP_CUDA_BACKEND_H
#define KP_CUDA_BACKEND_H

#include "backend/backend.h"
#include "backend/cuda/cuda_driver.h"
#include "core/error.h"

/* The driver's functions (cuda_driver.h lists them), loaded by kp_cuda_backend_init. */
typedef struct kp_cuda_driver {
  void *lib;
  KP_CUDA_DRIVER_FUNCTIONS(KP_CUDA_POINTER)
} kp_cuda_driver;
extern kp_cuda_driver kp_cu;

/* ---- devices (backend_cuda.c) ---- */

/* The device the calling host thread uses (kp_select_device; 0 until it selects one). */
int kp_cuda_current_device(void);
/* Makes `device`'s primary context current on the calling thread, retaining it on first use;
 * cheap when it already is. For work on another device than the thread's own (freeing or
 * copying an array allocated there): the thread's selection is unchanged, and its next
 * kp_cuda_ensure_context switches back. Errors name `what` and the device. */
kp_error kp_cuda_use_device(int device, const char *what);
/* "CUDA device 1 (NVIDIA H100, sm_90)": for messages; "CUDA device N" when out of range. */
const char *kp_cuda_device_owner(int device);
/* The calling thread's device, for messages in the files that predate several devices. */
#define kp_cuda_owner (kp_cuda_device_owner(kp_cuda_current_device()))

/* Reports "<context>: <call> returned CUDA_ERROR_X (description)[; a kernel failed earlier
 * …]" through kp_fail with the kp_error matching r (or `otherwise`) and returns that code. */
kp_error kp_cuda_fail(CUresult r, kp_error otherwise, const char *call, const char *fmt, ...)
    KP_PRINTF(4, 5);
/* Makes the calling thread's device's context current on it (kp_cuda_use_device of
 * kp_cuda_current_device()). */
kp_error kp_cuda_ensure_context(const char *what);
/* The backend's native_context hook: the calling thread's device's primary context. */
kp_error kp_cuda_native_context(void **out, const char *what);
/* The device whose primary context `context` (a CUcontext) is, comparing the contexts kernplug
 * retained and the active ones (retaining them); -1 when it is none of them (a context made
 * with cuCtxCreate), or after reporting an error. */
int kp_cuda_device_of_context(void *context, const char *what);

/* cuda_memory.c: the backend's memory operations. */
kp_error kp_cuda_alloc(size_t bytes, void **out, const char *what);
kp_error kp_cuda_release(void *p, size_t bytes, const char *what);
kp_error kp_cuda_alloc_kind(kp_memory_kind kind, size_t bytes, void **out, int *device,
                            const char *what);
kp_error kp_cuda_release_kind(kp_memory_kind kind, int device, void *p, size_t bytes,
                              const char *what);
kp_error kp_cuda_register_host(void *p, size_t bytes, const char *what);
kp_error kp_cuda_unregister_host(void *p, const char *what);
int kp_cuda_is_foreign_device_memory(const void *p);
int kp_cuda_foreign_device_range(const void *p, void **base, size_t *size);
kp_error kp_cuda_to_device(void *dst, const void *src, size_t bytes, const char *what);
kp_error kp_cuda_to_host(void *dst, const void *src, size_t bytes, const char *what);
kp_error kp_cuda_device_to_device(void *dst, const void *src, size_t bytes, const char *what);
kp_error kp_cuda_fill(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                      const char *what);
/* The fill on a driver stream (a CUstream as void *; async: the cuMemsetD*Async forms). */
kp_error kp_cuda_fill_on(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                         void *stream, int async, const char *what);
kp_error kp_cuda_synchronize(const char *what);

/* cuda_stream.c: the backend's stream and event hooks. */
#define KP_CUDA_STREAM_HOOK_DECL(Ret, Name, Params) Ret kp_cuda_##Name Params;
KP_BACKEND_STREAM_HOOKS(KP_CUDA_STREAM_HOOK_DECL)
#undef KP_CUDA_STREAM_HOOK_DECL

/* The backend's stream_wrap hook (kp_stream_from_cuda). */
kp_error kp_cuda_stream_wrap(kp_stream s, void *native, const char *what);
/* How many non-blocking streams are live (device frees then wait for the whole device). */
int kp_cuda_non_blocking_streams(void);
/* The driver's stream for a launch on s (NULL for the default stream), after checking that s
 * belongs to the calling thread's device; `kernel` names the launch in messages. The result
 * is a CUstream, typed void * so that this header needs no driver types. */
kp_error kp_cuda_launch_stream(kp_stream s, const char *kernel, void **out);

#endif /* KP_CUDA_BACKEND_H */
