/* test_devices.c — devices: kp_device_count, kp_select_device per host thread,
 * kp_current_device and kp_device_properties_get, on the CPU backend and on the CUDA backend
 * over a fake driver with two devices (FAKE_CUDA_DEVICES=2; device 0 "Fake GPU sm_90", an
 * H100; device 1 "Fake GPU 1 sm_80", an A100). With several devices the fake starts every log
 * line with "dev<N>: ", the device whose context was current, which is what the checks read.
 * Usage: test_devices cpu | cuda | retain_fail
 * Environment for cuda and retain_fail: KP_BACKEND=cuda KP_LIBCUDA=<fake> FAKE_CUDA_LOG=<file>
 * FAKE_CUDA_DEVICES=2 FAKE_CUDA_CC=90 FAKE_CUDA_CC1=80 (retain_fail: FAKE_CUDA_FAIL=retain1). */
#include <pthread.h>
#include <unistd.h>

#include "hand_kernels.h"
#include "fake_log.h"
#include "test_util.h"


/* ---- CPU backend: no CUDA devices, everything runs as device 0 ---- */

static void test_cpu(void) {
  CHECK(strcmp(kp_backend_name(), "cpu") == 0);
  CHECK(kp_device_count() == 0);
  CHECK(kp_current_device() == 0);
  kp_select_device(0); /* allowed: a program written for a GPU runs unchanged */
  CHECK_NO_ERROR();
  kp_select_device(1);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_select_device(1): the CPU backend has no CUDA "
                                      "devices; it runs kernels on the CPU as device 0");
  CHECK(kp_current_device() == 0);

  kp_device_properties p;
  CHECK(kp_device_properties_get(0, &p) == KP_SUCCESS);
  CHECK_MSG(strstr(p.name, "CPU backend") != NULL, "name '%s'", p.name);
  CHECK(p.is_cpu == 1 && p.major == 0 && p.minor == 0);
  CHECK(p.multiprocessors == atoi(getenv("KP_NUM_THREADS")));
  CHECK(p.max_threads_per_block == 1024 && p.max_block[2] == 64 && p.max_grid[1] == 65535);
  CHECK(p.max_shared_per_block == 48 * 1024 && p.warp_size == 32);
  CHECK(p.total_memory > 0 && p.pci_bus_id[0] == '\0');
  CHECK(kp_device_properties_get(1, &p) == KP_ERROR_INVALID_VALUE);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_device_properties_get(1): the CPU backend has no CUDA "
                                      "devices");
  CHECK(kp_device_properties_get(0, NULL) == KP_ERROR_INVALID_VALUE);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_device_properties_get(0, NULL)");
}

/* ---- CUDA backend, two fake devices ---- */

static void check_properties(void) {
  kp_device_properties p;
  CHECK(kp_device_properties_get(0, &p) == KP_SUCCESS);
  CHECK(strcmp(p.name, "Fake GPU sm_90") == 0);
  CHECK(p.major == 9 && p.minor == 0 && !p.is_cpu);
  CHECK(p.multiprocessors == 132 && p.total_memory == (size_t)80 << 30);
  CHECK(p.max_shared_per_block == 227 * 1024 && p.warp_size == 32);
  CHECK(p.max_threads_per_block == 1024 && p.max_threads_per_multiprocessor == 2048);
  CHECK(p.max_block[0] == 1024 && p.max_grid[0] == 2147483647 && p.max_grid[2] == 65535);
  CHECK(p.l2_cache_bytes == 50 << 20 && p.memory_bus_width == 5120 && p.clock_khz > 0);
  CHECK_MSG(strcmp(p.pci_bus_id, "0000:07:00.0") == 0, "pci '%s'", p.pci_bus_id);

  CHECK(kp_device_properties_get(1, &p) == KP_SUCCESS);
  CHECK(strcmp(p.name, "Fake GPU 1 sm_80") == 0);
  CHECK(p.major == 8 && p.minor == 0);
  CHECK(p.multiprocessors == 108 && p.total_memory == (size_t)40 << 30);
  CHECK(p.max_shared_per_block == 163 * 1024);
  CHECK_MSG(strcmp(p.pci_bus_id, "0000:17:00.0") == 0, "pci '%s'", p.pci_bus_id);

  CHECK(kp_device_properties_get(2, &p) == KP_ERROR_INVALID_VALUE);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_device_properties_get(2): there is no CUDA device 2; "
                                      "this process sees 2 (numbered 0 to 1)");
  /* asking about a device creates no context on it */
  CHECK_LOG_COUNT("cuDevicePrimaryCtxRetain device 1", 0);
}

enum { ROUNDS = 25 };
typedef struct worker {
  int device;
  int ok;
} worker;

/* A new host thread starts on device 0 whatever other threads selected. */
static void *run_on_device(void *arg) {
  worker *w = arg;
  if (kp_current_device() != 0) return NULL;
  kp_select_device(w->device);
  float *d = device_array(float, 100);
  for (int r = 0; r < ROUNDS; r++) {
    launch(scale, 1, 100)(d, 2.0f, 100);
    if (kp_current_device() != w->device) return NULL;
  }
  kp_synchronize();
  kp_free(d);
  w->ok = kp_last_error() == KP_SUCCESS;
  return NULL;
}

static void test_cuda(void) {
  CHECK(strcmp(kp_backend_name(), "cuda") == 0);
  CHECK(kp_device_count() == 2);
  CHECK(kp_current_device() == 0);
  /* device 0's context at start-up, device 1's only when a thread selects it */
  CHECK_LOG_COUNT("cuDevicePrimaryCtxRetain device 0", 1);
  CHECK_LOG_COUNT("cuDevicePrimaryCtxRetain device 1", 0);
  check_properties();

  float *d0 = device_array(float, 100);
  launch(foo, 1, 10)(d0, d0);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("dev0: cuModuleLoadDataEx cubin sm_90\n", 1);
  CHECK_LOG_COUNT("dev0: cuLaunchKernel foo", 1);

  /* device 1: its context, its own module load with the cubin for its arch */
  kp_select_device(1);
  CHECK_NO_ERROR();
  CHECK(kp_current_device() == 1);
  CHECK_LOG_COUNT("cuDevicePrimaryCtxRetain device 1", 1);
  float *d1 = device_array(float, 100);
  launch(foo, 1, 10)(d1, d1);
  launch(foo, 2, 10)(d1, d1);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("dev1: cuModuleLoadDataEx cubin sm_80\n", 1);
  CHECK_LOG_COUNT("cuModuleLoadDataEx", 2); /* once per device */
  CHECK_LOG_COUNT("dev1: cuModuleGetFunction foo\n", 1);
  CHECK_LOG_COUNT("dev1: cuLaunchKernel foo grid=1,1,1", 1);
  CHECK_LOG_COUNT("dev1: cuLaunchKernel foo grid=2,1,1", 1);
  kp_synchronize();
  CHECK_LOG_COUNT("dev1: cuCtxSynchronize", 1);

  /* launch checks use the thread's device: 200 KiB fits an H100's block, not an A100's */
  launch(dyn_shared, 1, 32, 200 * 1024)((int *)d1);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(dyn_shared, ...): 0 bytes of static + 204800 bytes of "
                               "dynamic shared memory exceed the limit of 166912 bytes per "
                               "block of CUDA device 1 (Fake GPU 1 sm_80, sm_80)");
  kp_select_device(0);
  launch(dyn_shared, 1, 32, 200 * 1024)((int *)d0);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("dev0: cuLaunchKernel dyn_shared grid=1,1,1 block=32,1,1 shared=204800", 1);
  launch(foo, 3, 10)(d0, d0); /* back on device 0: its cached function, no new load */
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("dev0: cuLaunchKernel foo grid=3,1,1", 1);
  CHECK_LOG_COUNT("cuModuleLoadDataEx", 2); /* dyn_shared is in the module already loaded */

  /* out of range: an error naming the count; the selection stays */
  kp_select_device(2);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_select_device(2): there is no CUDA device 2; this "
                                      "process sees 2 (numbered 0 to 1");
  kp_select_device(-1);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "kp_select_device(-1): there is no CUDA device -1");
  CHECK(kp_current_device() == 0);

  /* two host threads on different devices at once, while this one is on device 1 */
  kp_select_device(1);
  worker w[2] = {{0, 0}, {1, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, run_on_device, &w[i]) == 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  CHECK(w[0].ok && w[1].ok);
  CHECK(kp_current_device() == 1);
  CHECK_LOG_COUNT("dev0: cuLaunchKernel scale grid=1,1,1 block=100,1,1", ROUNDS);
  CHECK_LOG_COUNT("dev1: cuLaunchKernel scale grid=1,1,1 block=100,1,1", ROUNDS);
  CHECK_LOG_COUNT("cuModuleLoadDataEx", 2);
  CHECK_LOG_COUNT("cuDevicePrimaryCtxRetain", 2); /* one per device, ever */
  CHECK_LOG_COUNT("belongs to device", 0);        /* no function used in another context */
  CHECK_LOG_COUNT("no current context", 0);

  kp_free(d1);
  kp_select_device(0);
  kp_free(d0);
  CHECK_NO_ERROR();
}

/* Device 1's context cannot be created: the selection fails with the device named and the
 * thread stays on device 0. */
static void test_retain_fail(void) {
  CHECK(kp_device_count() == 2);
  kp_select_device(1);
  CHECK_ERROR(KP_ERROR_OUT_OF_MEMORY, "kp_select_device(1): creating a context on CUDA device 1 "
                                      "(Fake GPU 1 sm_80, sm_80): cuDevicePrimaryCtxRetain "
                                      "returned CUDA_ERROR_OUT_OF_MEMORY");
  CHECK(kp_current_device() == 0);
  launch(foo, 1, 10)(NULL, NULL);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("dev0: cuLaunchKernel foo", 1);
}

int main(int argc, char **argv) {
  CHECK(argc == 2);
  kp_set_error_mode(KP_ERRORS_RETURN);
  if (strcmp(argv[1], "cpu") == 0) {
    test_cpu();
  } else {
    CHECK(getenv("FAKE_CUDA_LOG"));
    unlink(getenv("FAKE_CUDA_LOG"));
    if (strcmp(argv[1], "cuda") == 0) test_cuda();
    else if (strcmp(argv[1], "retain_fail") == 0) test_retain_fail();
    else CHECK_MSG(0, "unknown scenario '%s'", argv[1]);
  }
  printf("test_devices %s: OK\n", argv[1]);
  return 0;
}
