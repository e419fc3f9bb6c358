/* kernplug/cuda_interop.h — the CUDA driver objects behind kernplug's, for CUDA libraries
 * (cuBLAS, cuFFT, NCCL, your own CUDA code) used beside kernplug kernels (docs/cuda-libraries.md).
 *
 * kernplug works in each device's primary context, the one the CUDA runtime (cudart) uses, so
 * memory from cudaMalloc/cudaMallocManaged is device memory to launch, the copies, ufunc,
 * gufunc and kp_reduce, and kernplug's device arrays are device pointers to CUDA libraries.
 * The handles are returned as void * so that this header needs no CUDA header: cast them to
 * CUstream / cudaStream_t (the same type) and CUcontext. On the CPU backend there are no
 * driver objects: each call reports KP_ERROR_UNSUPPORTED and returns NULL. */
#ifndef KERNPLUG_CUDA_INTEROP_H
#define KERNPLUG_CUDA_INTEROP_H

#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The CUstream behind `stream`; NULL for the default stream (NULL), which is CUDA's legacy
 * default stream, and after an error. */
void *kp_cuda_stream(kp_stream stream);
/* The CUcontext of the calling thread's device (kp_select_device): its primary context. */
void *kp_cuda_context(void);
/* A kp_stream standing for a CUstream/cudaStream_t other code created, on the device whose
 * primary context it belongs to (non-blocking if it is): launches, copies and events on it
 * are ordered with that code's work. kp_stream_destroy forgets the kp_stream and leaves the
 * CUstream alive (its creator destroys it, after kp_stream_destroy). NULL after an error. */
kp_stream kp_stream_from_cuda(void *cu_stream);

#ifdef __cplusplus
}
#endif

#endif /* KERNPLUG_CUDA_INTEROP_H */
