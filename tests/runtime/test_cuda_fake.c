/* test_cuda_fake.c — the CUDA backend against the fake driver (fake_cuda.c): initialisation,
 * lazy module loading with the right image for the device, one load per module however many
 * launches and host threads, the launch configuration and parameter values cuLaunchKernel
 * receives, transfers, static + dynamic shared memory against the device's limit with the
 * opt-in beyond 48 KiB, and that the runtime's own checks stop
 * bad frees and copies before the driver sees them.
 * Usage: test_cuda_fake <expected module-load log line>   (it depends on FAKE_CUDA_CC)
 * Environment: KP_BACKEND=cuda KP_LIBCUDA=<fake> FAKE_CUDA_LOG=<file>. */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "hand_kernels.h"
#include "fake_log.h"
#include "test_util.h"


enum { HOST_THREADS = 4, ROUNDS = 20 };
static float *g_shared_d;
static void *launcher(void *arg) {
  (void)arg;
  for (int r = 0; r < ROUNDS; r++) launch(scale, 8, 125)(g_shared_d, 1.0f, 1000);
  return NULL;
}

/* Static shared memory counts against the per-block limit too; the opt-in is needed once
 * static + dynamic pass 48 KiB and is made once per increase. */
static void test_static_shared(int *d) {
  enum { KIB = 1024, OPTIN = 227 * KIB, STATIC = STATIC_SHARED_INTS * sizeof(int) };
  CHECK(hand_kernels[HK_STATIC_SHARED].shared_bytes == STATIC); /* the plugin's figure */
  launch(static_shared, 1, 32)(d);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuFuncGetAttribute static_shared 1 -> 4096\n", 1);
  CHECK_LOG_COUNT("cuFuncGetAttribute static_shared 8 -> 45056\n", 1);
  launch(static_shared, 1, 32, 44 * KIB)(d); /* 48 KiB in all: no opt-in */
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuFuncSetAttribute static_shared", 0);
  launch(static_shared, 1, 32, 48 * KIB)(d); /* 52 KiB in all */
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuFuncSetAttribute static_shared 8 49152\n", 1);
  launch(static_shared, 1, 32, 100 * KIB)(d);
  launch(static_shared, 1, 32, 48 * KIB)(d); /* already allowed: no call */
  launch(static_shared, 1, 32, 100 * KIB)(d);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuFuncSetAttribute static_shared 8 102400\n", 1);
  CHECK_LOG_COUNT("cuFuncSetAttribute static_shared", 2);
  CHECK_LOG_COUNT("cuLaunchKernel static_shared grid=1,1,1 block=32,1,1 shared=0 ", 1);
  CHECK_LOG_COUNT("cuLaunchKernel static_shared grid=1,1,1 block=32,1,1 shared=45056 ", 1);
  CHECK_LOG_COUNT("cuLaunchKernel static_shared grid=1,1,1 block=32,1,1 shared=49152 ", 2);
  CHECK_LOG_COUNT("cuLaunchKernel static_shared grid=1,1,1 block=32,1,1 shared=102400 ", 2);
  /* exactly the device's opt-in limit, then one byte more */
  launch(static_shared, 1, 32, OPTIN - STATIC)(d);
  CHECK_NO_ERROR();
  launch(static_shared, 1, 32, OPTIN - STATIC + 1)(d);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(static_shared, ...): 4096 bytes of static + 228353 bytes "
                               "of dynamic shared memory exceed the limit of 232448 bytes per "
                               "block of CUDA device 0 (Fake GPU sm_");
  CHECK_LOG_COUNT("cuFuncSetAttribute static_shared", 3);
  CHECK_LOG_COUNT("cuLaunchKernel static_shared", 7);
  CHECK_LOG_COUNT("over the function's allowance", 0);
  CHECK_LOG_COUNT("exceed the opt-in limit", 0);

  /* The plugin's count (16 KiB here) is an upper bound used until the module is loaded; then
   * the driver's figure (4 KiB) replaces it in the descriptor. */
  launch(shrunk_shared, 1, 32, OPTIN - 8 * KIB)(d);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(shrunk_shared, ...): 16384 bytes of static + 224256 "
                               "bytes of dynamic shared memory exceed the limit of 232448");
  CHECK_LOG_COUNT("cuModuleGetFunction shrunk_shared", 0);
  launch(shrunk_shared, 1, 32)(d);
  CHECK_NO_ERROR();
  CHECK(hand_kernels[HK_SHRUNK_SHARED].shared_bytes == 4096);
  launch(shrunk_shared, 1, 32, OPTIN - 8 * KIB)(d);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuFuncSetAttribute shrunk_shared 8 224256\n", 1);
}

int main(int argc, char **argv) {
  CHECK(argc == 2);
  const char *expected_load = argv[1];
  CHECK(getenv("FAKE_CUDA_LOG"));
  unlink(getenv("FAKE_CUDA_LOG"));
  kp_set_error_mode(KP_ERRORS_RETURN);

  CHECK(strcmp(kp_backend_name(), "cuda") == 0);
  CHECK(kp_device_count() == 1);
  CHECK_LOG_COUNT("cuInit 0", 1);
  CHECK_LOG_COUNT("cuDevicePrimaryCtxRetain", 1);
  CHECK_LOG_COUNT("cuModuleLoadDataEx", 0); /* lazy: nothing loaded before a launch */

  /* transfers */
  float data[1000], out[1000];
  for (int i = 0; i < 1000; i++) data[i] = (float)i;
  float *d = to_device(data, 1000);
  float *d2 = device_array(float, 1000);
  CHECK_NO_ERROR();
  char line[256];
  snprintf(line, sizeof line, "cuMemAllocAsync 4000 stream=(nil) -> %p", (void *)d); /* pool */
  CHECK_LOG_COUNT(line, 1);
  snprintf(line, sizeof line, "cuMemcpyHtoD %p 4000\n", (void *)d);
  CHECK_LOG_COUNT(line, 1);
  copy_to_host(out, d, 1000);
  CHECK(memcmp(out, data, sizeof out) == 0);

  /* first launch loads the module once, with the image chosen for FAKE_CUDA_CC */
  launch(foo, 1, 10)(d, d2);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT(expected_load, 1);
  CHECK_LOG_COUNT("cuModuleGetFunction foo\n", 1);
  snprintf(line, sizeof line,
           "cuLaunchKernel foo grid=1,1,1 block=10,1,1 shared=0 stream=(nil) params=%p,%p\n",
           (void *)d, (void *)d2);
  CHECK_LOG_COUNT(line, 1);
  CHECK(hand_kernels[HK_FOO].runtime_data != NULL); /* the cached kernel state */
  CHECK(hand_module.runtime_data != NULL);          /* the cached CUmodule */

  /* scalars by value: 2.0f is 0x40000000, 1000 is 0x3e8; dim3 sizes */
  launch(scale, dim3(8, 1, 1), dim3(125))(d, 2.0f, 1000);
  launch(foo, 1, 10)(d, d2);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT(expected_load, 1); /* still one load for the module */
  CHECK_LOG_COUNT("cuModuleGetFunction scale\n", 1);
  CHECK_LOG_COUNT("cuModuleGetFunction foo\n", 1);
  snprintf(line, sizeof line,
           "cuLaunchKernel scale grid=8,1,1 block=125,1,1 shared=0 stream=(nil) "
           "params=%p,0x40000000,0x3e8\n",
           (void *)d);
  CHECK_LOG_COUNT(line, 1);

  /* a struct by value arrives as its bytes */
  big_arg s = {1.5, 2.0, 3.0, 10};
  unsigned char bytes[sizeof s];
  memcpy(bytes, &s, sizeof s);
  char hex[2 * sizeof s + 1];
  for (size_t i = 0; i < sizeof s; i++) snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
  double *dd = device_array(double, 64);
  launch(byval_kernel, 2, 32)(s, dd);
  CHECK_NO_ERROR();
  snprintf(line, sizeof line, "block=32,1,1 shared=0 stream=(nil) params=%.*s", 24, hex);
  CHECK_LOG_COUNT(line, 1);

  /* 3D sizes and dynamic shared memory over 48 KiB: opt-in first */
  launch(dyn_shared, dim3(3, 2), dim3(4, 4, 2), 64 * 1024)((int *)d);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuFuncSetAttribute dyn_shared 8 65536", 1);
  CHECK_LOG_COUNT("cuLaunchKernel dyn_shared grid=3,2,1 block=4,4,2 shared=65536", 1);
  launch(dyn_shared, 1, 32, 300 * 1024)((int *)d); /* over the device's opt-in limit */
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(dyn_shared, ...): 0 bytes of static + 307200 bytes of "
                               "dynamic shared memory exceed the limit of 232448 bytes per "
                               "block of CUDA device 0 (Fake GPU sm_");
  test_static_shared((int *)d);

  /* barrier and warp kernels run on a GPU */
  launch(with_barrier, 1, 32)(d);
  launch(with_warp, 1, 32)((int *)d);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuLaunchKernel with_barrier grid=1,1,1 block=32,1,1", 1);
  CHECK_LOG_COUNT("cuLaunchKernel with_warp grid=1,1,1 block=32,1,1", 1);

  /* launch errors are checked against the device's limits before the driver sees them */
  launch(foo, dim3(1, 65536), 1)(d, d2);
  CHECK_ERROR(KP_ERROR_LAUNCH, "launch(foo, ...): blocks.y = 65536 exceeds the limit of 65535 of "
                               "CUDA device 0 (Fake GPU sm_");
  launch(foo, 1, 0)(d, d2);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(foo, ...): threads.x is 0");
  foo(d, d2);
  CHECK_ERROR(KP_ERROR_NO_LAUNCH_CONFIG, "kernel 'foo' (");
  CHECK_LOG_COUNT("BAD SIZES", 0);

  /* several host threads: each gets the context made current, the module stays loaded once */
  g_shared_d = d;
  pthread_t t[HOST_THREADS];
  for (int i = 0; i < HOST_THREADS; i++) CHECK(pthread_create(&t[i], NULL, launcher, NULL) == 0);
  for (int i = 0; i < HOST_THREADS; i++) pthread_join(t[i], NULL);
  CHECK_LOG_COUNT("no current context", 0);
  CHECK_LOG_COUNT("cuLaunchKernel scale grid=8,1,1", 1 + HOST_THREADS * ROUNDS);
  CHECK_LOG_COUNT(expected_load, 1);

  /* copies: the data goes through the driver both ways */
  for (int i = 0; i < 1000; i++) data[i] = (float)(2 * i);
  copy_to_device(d2, data, 1000);
  copy_to_host(out, d2, 1000);
  CHECK(memcmp(out, data, sizeof out) == 0);
  kp_synchronize();
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuCtxSynchronize", 1);

  /* The module's destructor (at dlclose) unregisters it: its GPU code is unloaded after the
   * device's queued work, its cached state freed, its kernels are no kernels any more;
   * registered again (dlopen), it loads again. */
  __kp_unregister_module(&hand_module);
  CHECK_LOG_COUNT("cuModuleUnload foo\n", 1); /* logged with the module's first .entry */
  CHECK_LOG_COUNT("cuCtxSynchronize", 2);
  CHECK(hand_module.runtime_data == NULL);
  for (int i = 0; i < HK_NUM_KERNELS; i++) CHECK(hand_kernels[i].runtime_data == NULL);
  launch(foo, 1, 10)(d, d2);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "launch(foo, ...): 'foo' is not a kernel");
  __kp_unregister_module(&hand_module); /* gone already: nothing happens */
  CHECK_LOG_COUNT("cuModuleUnload", 1);
  __kp_register_module(&hand_module);
  launch(foo, 1, 10)(d, d2);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT(expected_load, 2);
  CHECK_LOG_COUNT("cuModuleGetFunction foo\n", 2);
  CHECK_LOG_COUNT("module was unloaded", 0); /* no stale CUfunction used */

  /* the runtime's table stops bad frees and copies: the driver never sees them */
  copy_to_host(out, d2, 1001);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "copy_to_host: 4004 bytes at");
  kp_free(d2);
  kp_free(d2);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "was freed twice");
  kp_free(out);
  CHECK_ERROR(KP_ERROR_INVALID_VALUE, "is not an array kernplug allocated");
  CHECK_LOG_COUNT("INVALID", 0);
  snprintf(line, sizeof line, "cuMemFreeAsync %p stream=(nil)\n", (void *)d2);
  CHECK_LOG_COUNT(line, 1);
  kp_free(d);
  kp_free(dd);
  CHECK_NO_ERROR();
  CHECK_LOG_COUNT("cuMemFree", 3);
  puts("test_cuda_fake: OK");
  return 0;
}
