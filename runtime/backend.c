/* backend.c — choosing the backend once per process (KP_BACKEND=auto|cuda|cpu).
 *
 * auto: the GPU when libcuda.so.1 loads and reports a device, else the CPU, remembering why
 * so that kp_detect() can say it. cuda: a missing or unusable GPU is an error that says why;
 * the runtime never falls back, so that tests of the GPU path cannot pass on the CPU. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static const kp_backend *g_backend;
static char g_reason[1024];  /* why the CPU was chosen / why nothing could start */
static kp_error g_init_error; /* reported again on every use when no backend started */

static void choose(void) {
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

KP_EXPORT int kp_device_count(void) {
  const kp_backend *be = kp_backend_get();
  return be ? be->device_count() : 0;
}

KP_EXPORT void kp_synchronize(void) {
  const kp_backend *be = kp_backend_get();
  if (be) be->synchronize("kp_synchronize");
}
