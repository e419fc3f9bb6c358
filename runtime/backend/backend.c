/* backend.c — choosing the backend once per process (KP_BACKEND=auto|cuda|cpu).
 *
 * auto: the GPU when libcuda.so.1 loads and reports a device, else the CPU, remembering why
 * so that kp_detect() can say it. cuda: a missing or unusable GPU is an error that says why;
 * the runtime never falls back, so that tests of the GPU path cannot pass on the CPU.
 *
 * Also the public calls that only forward to the backend in use (kp_select_device,
 * kp_device_properties_get, kp_synchronize, …). Every backend is reached through its
 * constructor and its kp_backend hooks (backend.h); this file includes no backend's header. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/stream.h"

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

/* A backend that cannot be used in a child of fork() (CUDA: the parent's context is not the
 * child's) becomes an error naming the cause, as it is in CUDA; the CPU backend keeps working
 * (its "device" memory is ordinary memory, copied into the child). */
void kp_backend_after_fork_child(void) {
  if (!g_backend || !g_backend->after_fork_child) return;
  char why[sizeof g_reason];
  kp_error err = g_backend->after_fork_child(why, sizeof why);
  if (!err) return;
  g_backend = NULL;
  atomic_store_explicit(&g_chosen, NULL, memory_order_release); /* nothing to unload either */
  g_init_error = err;
  snprintf(g_reason, sizeof g_reason, "%s", why);
}

const kp_backend *kp_backend_get(void) {
  if (__builtin_expect(kp_tls_in_stream_callback, 0)) {
    kp_fail(KP_ERROR_INVALID_VALUE,
            "a kernplug function was called from a stream callback (kp_stream_add_callback): "
            "a callback must not call kernplug, as CUDA forbids driver calls there; set a flag "
            "or signal a host thread, and call kernplug from that thread");
    return NULL;
  }
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

long long kp_backend_grid_stride_blocks(const kp_backend *be, const kp_kernel_desc *kernel,
                                        long long items, long long threads) {
  if (be && be->grid_stride_blocks) return be->grid_stride_blocks(kernel, items, threads);
  return (items + threads - 1) / threads;
}

/* ---- devices ----------------------------------------------------------------------------- */

KP_EXPORT int kp_device_count(void) {
  const kp_backend *be = kp_backend_get();
  return be ? be->device_count() : 0;
}

KP_EXPORT void kp_select_device(int device) {
  const kp_backend *be = kp_backend_get();
  if (be) be->select_device(device, "kp_select_device");
}

KP_EXPORT int kp_current_device(void) {
  const kp_backend *be = kp_backend_get();
  return be ? be->current_device() : 0;
}

KP_EXPORT kp_error kp_device_properties_get(int device, kp_device_properties *out) {
  if (!out)
    return kp_fail(KP_ERROR_INVALID_VALUE, "kp_device_properties_get(%d, NULL): no place to "
                   "write the properties", device);
  memset(out, 0, sizeof *out);
  const kp_backend *be = kp_backend_get();
  if (!be) return g_init_error; /* kp_backend_get reported it */
  return be->device_properties(device, out, "kp_device_properties_get");
}

KP_EXPORT void kp_synchronize(void) {
  const kp_backend *be = kp_backend_get();
  if (be) be->synchronize("kp_synchronize");
}
