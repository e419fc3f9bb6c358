/* backend.c — choosing the backend once per process (KP_BACKEND=auto|cuda|cpu).
 *
 * auto: the GPU when libcuda.so.1 loads and reports a device, else the CPU, remembering why
 * so that kp_detect() can say it. cuda: a missing or unusable GPU is an error that says why;
 * the runtime never falls back, so that tests of the GPU path cannot pass on the CPU. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "backend/cpu/cpu_backend.h"
#include "core/kp_internal.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static const kp_backend *g_backend;
static char g_reason[1024];  /* why the CPU was chosen / why nothing could start */
static kp_error g_init_error; /* reported again on every use when no backend started */
static _Atomic(const kp_backend *) g_chosen; /* g_backend once choose() has run */

static void choose_backend(void) {
  kp_fork_install();
  const char *want = getenv("KP_BACKEND");
  if (!want || !*want) want = "auto";
  char why[sizeof g_reason - 100] = ""; /* room for the prefixes below */
  if (strcmp(want, "cpu") == 0) {
    g_backend = kp_cpu_backend_init(why, sizeof why);
    snprintf(g_reason, sizeof g_reason, "KP_BACKEND=cpu");
  } else if (strcmp(want, "cuda") == 0) {
    g_backend = kp_cuda_backend_init(why, sizeof why);
    if (!g_backend) {
      snprintf(g_reason, sizeof g_reason, "KP_BACKEND=cuda but no usable GPU: %s", why);
      g_init_error = KP_ERROR_NO_DEVICE;
      return;
    }
  } else if (strcmp(want, "auto") == 0) {
    g_backend = kp_cuda_backend_init(why, sizeof why);
    if (!g_backend) {
      snprintf(g_reason, sizeof g_reason, "no usable GPU: %s", why);
      why[0] = '\0';
      g_backend = kp_cpu_backend_init(why, sizeof why);
    }
  } else {
    snprintf(g_reason, sizeof g_reason, "KP_BACKEND=%s: expected auto, cuda or cpu", want);
    g_init_error = KP_ERROR_INVALID_VALUE;
    return;
  }
  if (!g_backend) { /* the CPU backend refused its settings (KP_NUM_THREADS, …) */
    snprintf(g_reason, sizeof g_reason, "the CPU backend cannot start: %s", why);
    g_init_error = KP_ERROR_INVALID_VALUE;
  }
}

static void choose(void) {
  choose_backend();
  atomic_store_explicit(&g_chosen, g_backend, memory_order_release);
}

const kp_backend *kp_backend_chosen(void) {
  return atomic_load_explicit(&g_chosen, memory_order_acquire);
}

/* A child of fork() inherits the parent's CUDA context, which the driver does not support:
 * every driver call there fails (CUDA_ERROR_INITIALIZATION_ERROR at best, a hang at worst),
 * and the device memory behind the parent's pointers is not the child's. So the CUDA backend
 * becomes an error naming the cause, as it is in CUDA; the CPU backend keeps working (its
 * "device" memory is ordinary memory, copied into the child). */
void kp_backend_after_fork_child(void) {
  if (!g_backend) return;
  if (g_backend->host_memory) {
    kp_pool_after_fork_child();
    kp_cpu_watchdog_after_fork_child();
    return;
  }
  g_backend = NULL;
  atomic_store_explicit(&g_chosen, NULL, memory_order_release); /* nothing to unload either */
  g_init_error = KP_ERROR_CUDA;
  snprintf(g_reason, sizeof g_reason,
           "this process was created by fork() after kernplug started the CUDA backend in its "
           "parent, and CUDA cannot be used in such a child (the driver fails with "
           "CUDA_ERROR_INITIALIZATION_ERROR); fork before the first kernplug call, or exec a "
           "new program in the child");
}

const kp_backend *kp_backend_get(void) {
  pthread_once(&g_once, choose);
  if (!g_backend) kp_fail(g_init_error, "%s", g_reason);
  return g_backend;
}

const kp_backend *kp_backend_peek(void) {
  pthread_once(&g_once, choose);
  return g_backend;
}

const char *kp_backend_reason(void) {
  pthread_once(&g_once, choose);
  return g_reason;
}

KP_EXPORT const char *kp_backend_name(void) {
  const kp_backend *be = kp_backend_get();
  return be ? be->name : "none";
}

const kp_limits *kp_backend_limits(const kp_backend *be, const char **owner) {
  if (be->thread_limits) return be->thread_limits(owner);
  *owner = be->limits_owner;
  return &be->limits;
}

/* ---- devices ----------------------------------------------------------------------------- */

KP_EXPORT int kp_device_count(void) {
  const kp_backend *be = kp_backend_get();
  return be ? be->device_count() : 0;
}

/* The CPU backend runs everything as device 0: selecting it is allowed (the same program runs
 * with and without a GPU), any other number is the mistake it would be on a one-GPU machine. */
KP_EXPORT void kp_select_device(int device) {
  const kp_backend *be = kp_backend_get();
  if (!be) return;
  if (be->select_device) {
    be->select_device(device, "kp_select_device");
  } else if (device != 0) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "kp_select_device(%d): the CPU backend has no CUDA devices; it runs kernels on the "
            "CPU as device 0, the only device that can be selected",
            device);
  }
}

KP_EXPORT int kp_current_device(void) {
  const kp_backend *be = kp_backend_get();
  return be && be->current_device ? be->current_device() : 0;
}

/* "Intel(R) Xeon(R) ..." from /proc/cpuinfo, or "" where there is none. */
static void cpu_model_name(char *out, size_t size) {
  out[0] = '\0';
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    const char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) != 0 || !colon) continue;
    colon += 1 + (colon[1] == ' ');
    snprintf(out, size, "%.*s", (int)strcspn(colon, "\n"), colon);
    break;
  }
  fclose(f);
}

/* The CPU backend's device 0: its workers, its limits and the machine's memory. */
static void cpu_properties(const kp_backend *be, kp_device_properties *p) {
  char model[200];
  cpu_model_name(model, sizeof model);
  snprintf(p->name, sizeof p->name, "%s%sCPU backend", model, model[0] ? " (" : "");
  if (model[0]) snprintf(p->name + strlen(p->name), sizeof p->name - strlen(p->name), ")");
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p->total_memory = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
  p->multiprocessors = kp_pool_size();
  p->max_threads_per_block = (int)be->limits.max_threads_per_block;
  p->max_threads_per_multiprocessor = p->max_threads_per_block;
  for (int a = 0; a < 3; a++) {
    p->max_block[a] = (int)be->limits.max_block[a];
    p->max_grid[a] = (int)be->limits.max_grid[a];
  }
  p->max_shared_per_block = (size_t)be->limits.max_shared_bytes;
  p->warp_size = kp_warpsize;
  p->integrated = 1;
  p->is_cpu = 1;
}

KP_EXPORT kp_error kp_device_properties_get(int device, kp_device_properties *out) {
  if (!out)
    return kp_fail(KP_ERROR_INVALID_VALUE, "kp_device_properties_get(%d, NULL): no place to "
                   "write the properties", device);
  memset(out, 0, sizeof *out);
  const kp_backend *be = kp_backend_get();
  if (!be) return g_init_error; /* kp_backend_get reported it */
  if (be->device_properties)
    return be->device_properties(device, out, "kp_device_properties_get");
  if (device != 0)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "kp_device_properties_get(%d): the CPU backend has no CUDA devices; it runs "
                   "kernels on the CPU as device 0, the only device there is",
                   device);
  cpu_properties(be, out);
  return KP_SUCCESS;
}

KP_EXPORT void kp_synchronize(void) {
  const kp_backend *be = kp_backend_get();
  if (be) be->synchronize("kp_synchronize");
}
