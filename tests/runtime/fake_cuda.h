/* fake_cuda.h — what the files of the fake libcuda.so.1 share (see fake_cuda.c for what the
 * fake does): logging, failure injection, the current context and the allocation table. */
#ifndef KP_FAKE_CUDA_H
#define KP_FAKE_CUDA_H

#include <pthread.h>
#include <stddef.h>

#include "cuda_driver.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

/* Every entry point of the runtime's driver table, exported with the table's signature: a
 * fake definition that differs from it does not compile, and one that is missing does not
 * link (fake_entry_points in fake_cuda.c; the library links with --no-undefined). */
#define FAKE_PROTOTYPE(name, symbol, params) FAKE_EXPORT KP_CUDA_PROTOTYPE(name, symbol, params)
KP_CUDA_DRIVER_FUNCTIONS(FAKE_PROTOTYPE)
KP_CUDA_POOL_FUNCTIONS(FAKE_PROTOTYPE)
#undef FAKE_PROTOTYPE

extern pthread_mutex_t fake_lock; /* guards the tables and the log */
/* Whether FAKE_CUDA_LOG names a log: without one, hot calls skip formatting their line. */
int fake_logging(void);
/* Appends one line to the file named by FAKE_CUDA_LOG. */
void fake_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether FAKE_CUDA_FAIL names this failure. */
int fake_failing(const char *what);
extern int fake_sticky_error;              /* set by an illegal_address launch */

/* Devices: FAKE_CUDA_DEVICES of them (default 1, at most FAKE_MAX_DEVICES), device i of
 * compute capability FAKE_CUDA_CC<i> (FAKE_CUDA_CC for device 0; defaults 90 for device 0,
 * 80 for the others), each with one primary context. */
enum { FAKE_MAX_DEVICES = 8 };
int fake_device_count(void);
int fake_device_sm_of(int device);
int fake_device_sm(void);     /* of the calling thread's current context (device 0 without) */
int fake_current_device(void); /* the device of the current context, -1 without one */

struct CUctx_st {
  int device;
};
extern struct CUctx_st fake_contexts[FAKE_MAX_DEVICES]; /* the primary contexts */
extern __thread CUcontext fake_tls_current;

/* Entry points that need a current context start with this, as the real driver checks. */
#define NEED_CONTEXT()                                                                         \
  do {                                                                                         \
    if (!fake_tls_current) {                                                                   \
      fake_log("%s: no current context on this thread", __func__);                             \
      return CUDA_ERROR_INVALID_CONTEXT;                                                       \
    }                                                                                          \
  } while (0)

/* Live device allocations (fake_cuda_memory.c); take fake_lock around uses. */
enum { FAKE_MAX_ALLOCS = 4096 };
enum { FAKE_PLAIN = 0, FAKE_POOLED = 1, FAKE_MANAGED = 2 }; /* how it was allocated */
struct fake_alloc {
  char *p;
  size_t n;
  int how;
};
extern struct fake_alloc fake_allocs[FAKE_MAX_ALLOCS];
/* The slot whose allocation holds [d, d + bytes), or -1. */
int fake_find_alloc(CUdeviceptr d, size_t bytes);
/* Whether p is inside a device or managed allocation (takes fake_lock). */
int fake_device_range(const void *p);
/* Memory for a module's .const variable (fake_cuda.c's cuModuleGetGlobal). */
CUdeviceptr fake_module_global(size_t bytes);
/* Device-to-device copies and fills, checked and logged as `call` with `extra` (" stream=..")
 * appended; the synchronous and asynchronous entry points share them. */
CUresult fake_dtod(const char *call, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                   const char *extra);
CUresult fake_memset(const char *call, CUdeviceptr dst, unsigned value, size_t size,
                     size_t count, const char *extra);

#endif
