/* cu_helpers.h — the few CUDA driver calls the kernplug GPU benchmark needs beside
 * kernplug's API: events for timing (the same clock the CUDA C and numba-cuda sides use),
 * the multiprocessor count, the device name, and page-locked host memory where the runtime
 * has no pinned_array yet. The driver is opened with dlopen, as libkernplug_rt opens it, so
 * the program still starts (and runs its checks on the CPU backend) where there is no GPU.
 * The calls work in the context kernplug made current (the primary context of device 0). */
#ifndef KP_BENCH_CU_HELPERS_H
#define KP_BENCH_CU_HELPERS_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef int cuh_result;
typedef struct cuh_event_s *cuh_event;
typedef int cuh_device;
enum { CUH_ATTR_SM_COUNT = 16, CUH_ATTR_CC_MAJOR = 75, CUH_ATTR_CC_MINOR = 76 };

typedef struct cuh_driver {
  void *lib;
  cuh_result (*event_create)(cuh_event *, unsigned);
  cuh_result (*event_record)(cuh_event, void *);
  cuh_result (*event_synchronize)(cuh_event);
  cuh_result (*event_elapsed)(float *, cuh_event, cuh_event);
  cuh_result (*ctx_synchronize)(void);
  cuh_result (*ctx_get_device)(cuh_device *);
  cuh_result (*device_attribute)(int *, int, cuh_device);
  cuh_result (*device_name)(char *, int, cuh_device);
  cuh_result (*driver_version)(int *);
  cuh_result (*mem_alloc_host)(void **, size_t);
  cuh_result (*mem_free_host)(void *);
} cuh_driver;

static cuh_driver cuh;

/* Opens the driver kernplug uses (KP_LIBCUDA, else libcuda.so.1); 1 on success. Call after
 * kernplug has started its CUDA backend. */
static inline int cuh_open(void) {
  if (cuh.lib) return 1;
  const char *path = getenv("KP_LIBCUDA");
  cuh.lib = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuh.lib) return 0;
#define CUH_SYM(field, name) *(void **)&cuh.field = dlsym(cuh.lib, name)
  CUH_SYM(event_create, "cuEventCreate");
  CUH_SYM(event_record, "cuEventRecord");
  CUH_SYM(event_synchronize, "cuEventSynchronize");
  CUH_SYM(event_elapsed, "cuEventElapsedTime_v2"); /* CUDA 12.8+; cuda.h maps the name to it */
  if (!cuh.event_elapsed) CUH_SYM(event_elapsed, "cuEventElapsedTime");
  CUH_SYM(ctx_synchronize, "cuCtxSynchronize");
  CUH_SYM(ctx_get_device, "cuCtxGetDevice");
  CUH_SYM(device_attribute, "cuDeviceGetAttribute");
  CUH_SYM(device_name, "cuDeviceGetName");
  CUH_SYM(driver_version, "cuDriverGetVersion");
  CUH_SYM(mem_alloc_host, "cuMemAllocHost_v2");
  CUH_SYM(mem_free_host, "cuMemFreeHost");
#undef CUH_SYM
  /* ctx_get_device and the host allocation are optional (device 0; pinned_array) */
  return cuh.event_create && cuh.event_record && cuh.event_synchronize && cuh.event_elapsed &&
         cuh.ctx_synchronize && cuh.device_attribute && cuh.device_name && cuh.driver_version;
}

static inline void cuh_check(cuh_result r, const char *what) {
  if (r != 0) {
    fprintf(stderr, "kp_bench: %s failed with CUDA error %d\n", what, r);
    exit(1);
  }
}

/* The device of the current context (device 0 where the driver cannot say). */
static inline cuh_device cuh_device_now(void) {
  cuh_device d = 0;
  if (cuh.ctx_get_device) cuh_check(cuh.ctx_get_device(&d), "cuCtxGetDevice");
  return d;
}

static inline int cuh_attribute(int attr) {
  cuh_device d = cuh_device_now();
  int v = 0;
  cuh_check(cuh.device_attribute(&v, attr, d), "cuDeviceGetAttribute");
  return v;
}

#endif
