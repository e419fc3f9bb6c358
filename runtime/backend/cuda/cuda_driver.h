/* cuda_driver.h — the part of the CUDA driver API (cuda.h) that libkernplug_rt uses.
 *
 * Declared here instead of including cuda.h so that the runtime builds without the toolkit;
 * the driver itself is loaded with dlopen at run time. Values are those of cuda.h, which are
 * ABI and never change meaning. The fake driver of tests/runtime includes this file too, so
 * both sides agree by construction; the values were checked against CUDA 13's cuda.h.
 *
 * Every entry point is one line of an X-macro table (KP_CUDA_DRIVER_FUNCTIONS, and
 * KP_CUDA_POOL_FUNCTIONS for the optional ones): X(name, symbol, parameters), all returning
 * CUresult. From it come the runtime's function pointers (KP_CUDA_POINTER), their dlsym
 * loading (KP_CUDA_SYMBOL_NAME) and the fake driver's prototypes (KP_CUDA_PROTOTYPE), so a
 * signature written once cannot disagree between them. */
#ifndef KP_CUDA_DRIVER_H
#define KP_CUDA_DRIVER_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
/* Dynamic shared bytes a kernel uses at a given block size (for the occupancy calculator). */
typedef size_t (*CUoccupancyB2DSize)(int block_size);

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
  CUDA_ERROR_UNKNOWN = 999
};

/* CUdevice_attribute */
enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT = 17,
  CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
  CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
  CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
};
typedef int CUdevice_attribute;

/* CUfunction_attribute */
enum {
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,            /* static shared bytes of the function */
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8 /* dynamic bytes a launch may ask for */
};
typedef int CUfunction_attribute;

/* CUjit_option */
enum {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};
typedef int CUjit_option;

/* cuStreamCreate / cuEventCreate flags: a blocking stream (ordered with the legacy default
 * stream) and an event with timing. */
enum { CU_STREAM_DEFAULT = 0, CU_STREAM_NON_BLOCKING = 1, CU_EVENT_DEFAULT = 0 };
enum { CU_EVENT_DISABLE_TIMING = 2 };
/* A host function queued on a stream (cuLaunchHostFunc). */
typedef void (*CUhostFn)(void *data);

/* The entry points, with the exported symbol each is loaded from (the _v2 names are the
 * 64-bit ones that cuda.h's macros select). X(name, symbol, parameters); all return CUresult. */
#define KP_CUDA_DRIVER_FUNCTIONS(X)                                                                \
  X(cuGetErrorName, cuGetErrorName, (CUresult error, const char **str))                            \
  X(cuGetErrorString, cuGetErrorString, (CUresult error, const char **str))                        \
  X(cuInit, cuInit, (unsigned flags))                                                              \
  X(cuDriverGetVersion, cuDriverGetVersion, (int *version))                                        \
  X(cuDeviceGetCount, cuDeviceGetCount, (int *count))                                              \
  X(cuDeviceGet, cuDeviceGet, (CUdevice * device, int ordinal))                                    \
  X(cuDeviceGetName, cuDeviceGetName, (char *name, int len, CUdevice dev))                         \
  X(cuDeviceGetAttribute, cuDeviceGetAttribute,                                                    \
    (int *value, CUdevice_attribute attrib, CUdevice dev))                                         \
  X(cuDeviceTotalMem, cuDeviceTotalMem_v2, (size_t * bytes, CUdevice dev))                         \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, (CUcontext * ctx, CUdevice dev))           \
  X(cuDevicePrimaryCtxGetState, cuDevicePrimaryCtxGetState,                                        \
    (CUdevice dev, unsigned *flags, int *active))                                                  \
  X(cuCtxSetCurrent, cuCtxSetCurrent, (CUcontext ctx))                                             \
  X(cuCtxSynchronize, cuCtxSynchronize, (void))                                                    \
  X(cuModuleLoadDataEx, cuModuleLoadDataEx,                                                        \
    (CUmodule * module, const void *image, unsigned num_options, CUjit_option *options,            \
     void **option_values))                                                                        \
  X(cuModuleGetFunction, cuModuleGetFunction,                                                      \
    (CUfunction * fn, CUmodule module, const char *name))                                          \
  X(cuModuleUnload, cuModuleUnload, (CUmodule module))                                             \
  X(cuModuleGetGlobal, cuModuleGetGlobal_v2,                                                       \
    (CUdeviceptr * dptr, size_t * bytes, CUmodule module, const char *name))                       \
  X(cuFuncGetAttribute, cuFuncGetAttribute,                                                        \
    (int *value, CUfunction_attribute attrib, CUfunction fn))                                      \
  X(cuFuncSetAttribute, cuFuncSetAttribute,                                                        \
    (CUfunction fn, CUfunction_attribute attrib, int value))                                       \
  X(cuLaunchKernel, cuLaunchKernel,                                                                \
    (CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,            \
     unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,                   \
     void **kernel_params, void **extra))                                                          \
  X(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel,                                          \
    (CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,            \
     unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,                   \
     void **kernel_params))                                                                        \
  X(cuMemAlloc, cuMemAlloc_v2, (CUdeviceptr * dptr, size_t bytes))                                 \
  X(cuMemFree, cuMemFree_v2, (CUdeviceptr dptr))                                                   \
  X(cuMemcpyHtoD, cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t bytes))               \
  X(cuMemcpyDtoH, cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t bytes))                     \
  X(cuMemcpyDtoD, cuMemcpyDtoD_v2, (CUdeviceptr dst, CUdeviceptr src, size_t bytes))               \
  X(cuMemsetD8, cuMemsetD8_v2, (CUdeviceptr dst, unsigned char value, size_t count))               \
  X(cuMemsetD16, cuMemsetD16_v2, (CUdeviceptr dst, unsigned short value, size_t count))            \
  X(cuMemsetD32, cuMemsetD32_v2, (CUdeviceptr dst, unsigned value, size_t count))                  \
  KP_CUDA_MEMORY_FUNCTIONS(X)                                                                      \
  X(cuOccupancyMaxPotentialBlockSize, cuOccupancyMaxPotentialBlockSize,                            \
    (int *min_grid_size, int *block_size, CUfunction fn, CUoccupancyB2DSize dynamic_bytes_of,      \
     size_t dynamic_bytes, int block_size_limit))                                                  \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveBlocksPerMultiprocessor,      \
    (int *blocks, CUfunction fn, int block_size, size_t dynamic_bytes))                            \
  KP_CUDA_STREAM_FUNCTIONS(X)                                                                      \
  KP_CUDA_LINK_FUNCTIONS(X)

/* The JIT linker (cuda_link.c): modules whose device code calls `device` functions of other
 * files are linked with those files' PTX when loaded. */
typedef struct CUlinkState_st *CUlinkState;
enum { CU_JIT_INPUT_CUBIN = 0, CU_JIT_INPUT_PTX = 1 }; /* CUjitInputType */
typedef int CUjitInputType;
#define KP_CUDA_LINK_FUNCTIONS(X)                                                                  \
  X(cuLinkCreate, cuLinkCreate_v2,                                                                 \
    (unsigned num_options, CUjit_option *options, void **option_values, CUlinkState *state))       \
  X(cuLinkAddData, cuLinkAddData_v2,                                                               \
    (CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,            \
     unsigned num_options, CUjit_option *options, void **option_values))                           \
  X(cuLinkComplete, cuLinkComplete, (CUlinkState state, void **cubin, size_t *size))               \
  X(cuLinkDestroy, cuLinkDestroy, (CUlinkState state))

/* Streams and events (cuda_stream.c). cuEventElapsedTime is the original symbol, which every
 * driver since CUDA 2 exports (the _v2 of CUDA 12.8 only changes how errors are reported). */
#define KP_CUDA_STREAM_FUNCTIONS(X)                                                                \
  X(cuStreamCreate, cuStreamCreate, (CUstream * stream, unsigned flags))                           \
  X(cuStreamDestroy, cuStreamDestroy_v2, (CUstream stream))                                        \
  X(cuStreamSynchronize, cuStreamSynchronize, (CUstream stream))                                   \
  X(cuEventCreate, cuEventCreate, (CUevent * event, unsigned flags))                               \
  X(cuEventDestroy, cuEventDestroy_v2, (CUevent event))                                            \
  X(cuEventRecord, cuEventRecord, (CUevent event, CUstream stream))                                \
  X(cuEventSynchronize, cuEventSynchronize, (CUevent event))                                       \
  X(cuEventQuery, cuEventQuery, (CUevent event))                                                   \
  X(cuEventElapsedTime, cuEventElapsedTime, (float *ms, CUevent start, CUevent end))               \
  X(cuStreamWaitEvent, cuStreamWaitEvent, (CUstream stream, CUevent event, unsigned flags))        \
  X(cuLaunchHostFunc, cuLaunchHostFunc, (CUstream stream, CUhostFn fn, void *data))                \
  X(cuStreamGetCtx, cuStreamGetCtx, (CUstream stream, CUcontext * ctx))                            \
  X(cuStreamGetFlags, cuStreamGetFlags, (CUstream stream, unsigned *flags))                        \
  X(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2,                                                       \
    (CUdeviceptr dst, const void *src, size_t bytes, CUstream stream))                             \
  X(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2,                                                       \
    (void *dst, CUdeviceptr src, size_t bytes, CUstream stream))                                   \
  X(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2,                                                       \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                             \
  X(cuMemsetD8Async, cuMemsetD8Async,                                                              \
    (CUdeviceptr dst, unsigned char value, size_t count, CUstream stream))                         \
  X(cuMemsetD16Async, cuMemsetD16Async,                                                            \
    (CUdeviceptr dst, unsigned short value, size_t count, CUstream stream))                        \
  X(cuMemsetD32Async, cuMemsetD32Async,                                                            \
    (CUdeviceptr dst, unsigned value, size_t count, CUstream stream))

/* Memory kinds (cuda_memory.c): managed, pinned and registered host memory, free memory for
 * out-of-memory messages, and what a pointer the runtime does not know is. */
typedef struct CUmemPoolHandle_st *CUmemoryPool;
enum { CU_MEM_ATTACH_GLOBAL = 1 };                             /* cuMemAllocManaged */
enum { CU_MEMHOSTALLOC_PORTABLE = 1, CU_MEMHOSTALLOC_DEVICEMAP = 2 }; /* cuMemHostAlloc */
enum { CU_MEMHOSTREGISTER_PORTABLE = 1 };                      /* cuMemHostRegister */
enum { CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712 };
/* CUpointer_attribute and CUmemorytype (cuPointerGetAttribute) */
enum { CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2, CU_POINTER_ATTRIBUTE_IS_MANAGED = 8 };
enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_UNIFIED = 4 };
typedef int CUpointer_attribute;
/* CUmemPool_attribute: bytes a pool keeps across synchronisations (value: cuuint64_t) */
enum { CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4 };
typedef int CUmemPool_attribute;

#define KP_CUDA_MEMORY_FUNCTIONS(X)                                                                \
  X(cuMemAllocManaged, cuMemAllocManaged, (CUdeviceptr * dptr, size_t bytes, unsigned flags))      \
  X(cuMemHostAlloc, cuMemHostAlloc, (void **p, size_t bytes, unsigned flags))                      \
  X(cuMemFreeHost, cuMemFreeHost, (void *p))                                                       \
  X(cuMemHostRegister, cuMemHostRegister_v2, (void *p, size_t bytes, unsigned flags))              \
  X(cuMemHostUnregister, cuMemHostUnregister, (void *p))                                           \
  X(cuMemGetInfo, cuMemGetInfo_v2, (size_t * free_bytes, size_t * total_bytes))                    \
  X(cuPointerGetAttribute, cuPointerGetAttribute,                                                  \
    (void *data, CUpointer_attribute attribute, CUdeviceptr ptr))                                  \
  X(cuMemGetAddressRange, cuMemGetAddressRange_v2,                                                 \
    (CUdeviceptr * base, size_t * size, CUdeviceptr ptr))

/* The stream-ordered allocator (CUDA 11.2+), loaded when the driver has it: cuda_memory.c
 * falls back to cuMemAlloc/cuMemFree without it, so it is not in the list above. */
#define KP_CUDA_POOL_FUNCTIONS(X)                                                                  \
  X(cuMemAllocAsync, cuMemAllocAsync, (CUdeviceptr * dptr, size_t bytes, CUstream stream))         \
  X(cuMemFreeAsync, cuMemFreeAsync, (CUdeviceptr dptr, CUstream stream))                           \
  X(cuDeviceGetDefaultMemPool, cuDeviceGetDefaultMemPool, (CUmemoryPool * pool, CUdevice dev))     \
  X(cuMemPoolSetAttribute, cuMemPoolSetAttribute,                                                  \
    (CUmemoryPool pool, CUmemPool_attribute attribute, void *value))                               \
  X(cuMemPoolTrimTo, cuMemPoolTrimTo, (CUmemoryPool pool, size_t keep_bytes))

/* What the tables expand to. A function pointer member named like cuda.h's macro
 * ("cuMemAlloc"), the string dlsym looks up ("cuMemAlloc_v2"), and the prototype of the
 * exported symbol (for a library that defines it: the fake driver). */
#define KP_CUDA_POINTER(name, symbol, params) CUresult(*name) params;
#define KP_CUDA_SYMBOL_NAME(symbol) #symbol
#define KP_CUDA_PROTOTYPE(name, symbol, params) CUresult symbol params;

#endif /* KP_CUDA_DRIVER_H */
