/* kernplug/runtime.h — the runtime as a whole: errors and the error mode, the backend,
 * kp_detect(), kp_synchronize(), and the devices (docs/runtime.md). */
#ifndef KERNPLUG_RUNTIME_H
#define KERNPLUG_RUNTIME_H

#include <stddef.h>
#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kp_error {
  KP_SUCCESS = 0,
  KP_ERROR_INVALID_VALUE,    /* bad argument: size, pointer, configuration */
  KP_ERROR_NO_LAUNCH_CONFIG, /* a kernel called without launch(...) */
  KP_ERROR_LAUNCH,           /* the launch failed (limits, resources) */
  KP_ERROR_NO_DEVICE,        /* KP_BACKEND=cuda without a usable GPU */
  KP_ERROR_OUT_OF_MEMORY,
  KP_ERROR_CUDA,             /* any other CUDA driver error; the message names it */
  KP_ERROR_UNSUPPORTED,      /* the backend cannot run this kernel */
  KP_ERROR_INTERNAL
} kp_error;

/* What happens on an error: print the message and abort (the default, also selected by
 * KP_ERRORS=abort), or record it for kp_last_error() and return (KP_ERRORS=return). */
typedef enum kp_error_mode { KP_ERRORS_ABORT = 0, KP_ERRORS_RETURN = 1 } kp_error_mode;
void kp_set_error_mode(kp_error_mode mode);
/* The last error on this host thread, then cleared. */
kp_error kp_last_error(void);
/* The message of the last error on this host thread ("" if none); not cleared. */
const char *kp_last_error_message(void);

const char *kp_backend_name(void); /* "cuda" or "cpu" */
void kp_detect(void);              /* prints the devices, like numba.cuda.detect() */
void kp_synchronize(void);         /* waits for the calling thread's device */

/* Devices (docs/runtime.md, "Devices"). Each host thread uses one device, 0 until it calls
 * kp_select_device; launches, allocations and kp_synchronize go to that device. The CPU
 * backend has no CUDA devices (kp_device_count() is 0) and runs everything as device 0,
 * which kp_select_device(0) and kp_device_properties_get(0) accept. */
int kp_device_count(void);         /* CUDA devices usable by kernplug; 0 on the CPU backend */
void kp_select_device(int device); /* for the calling host thread; out of range: an error */
int kp_current_device(void);       /* the calling host thread's device */

typedef struct kp_device_properties {
  char name[256];             /* "NVIDIA H100 80GB HBM3"; on the CPU backend, the CPU's */
  int major, minor;           /* compute capability (9.0 = sm_90); 0.0 on the CPU backend */
  size_t total_memory;        /* bytes of device memory (CPU backend: the machine's) */
  int multiprocessors;        /* SMs (CPU backend: worker threads) */
  int max_threads_per_block;
  int max_threads_per_multiprocessor;
  int max_block[3];           /* threads.x, .y, .z */
  int max_grid[3];            /* blocks.x, .y, .z */
  size_t max_shared_per_block; /* static + dynamic shared bytes, after the opt-in */
  int warp_size;
  int registers_per_block;
  int clock_khz;              /* peak SM clock; 0 if unknown */
  int memory_clock_khz;       /* peak memory clock; 0 if unknown */
  int memory_bus_width;       /* bits; 0 if unknown */
  int l2_cache_bytes;
  int integrated;             /* shares memory with the host (Jetson, GH200's C2C is not) */
  int pci_domain, pci_bus, pci_device;
  char pci_bus_id[16];        /* "0000:07:00.0", as nvidia-smi prints it; "" on the CPU */
  int is_cpu;                 /* the CPU backend's device 0 */
} kp_device_properties;
/* Fills *out for `device`; returns KP_SUCCESS or the error it reported. */
kp_error kp_device_properties_get(int device, kp_device_properties *out);

#ifdef __cplusplus
}
#endif

#endif /* KERNPLUG_RUNTIME_H */
