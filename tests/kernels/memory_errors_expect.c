/* memory_errors_expect.c — memory mistakes, each stopping with a message that names the call
 * (and for launches the kernel and the parameter), the same mistakes in return mode, the
 * KP_DEBUG=leaks report, and the CUDA path of every memory kind on the fake driver: the
 * program reads the driver's log back (FAKE_CUDA_LOG) and checks which calls each kind makes
 * and which pointers the kernel received. memory.cmake lists the scenarios.
 * Usage: kt_memory_errors_expect <scenario> */
#include <dlfcn.h>
#include <stdint.h>

#include "kernel_test.h"
#include "../runtime/fake_log.h"

__attribute__((kernel)) void add_one(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] += 1.0f;
}

__attribute__((kernel)) void twice_into(const float *in, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = 2.0f * in[i];
}

enum { N = 100, PAGE = 4096 };

/* ---- mistakes ------------------------------------------------------------------------------ */

/* Element counts whose size in bytes does not fit in 64 bits: 2^61 + 4 doubles are 2^64 + 32
 * bytes, which wrapped to 32. An out-of-memory error naming the call; nothing allocated or
 * copied. Returns 1 if s is one of them. */
static const size_t HUGE_COUNT = ((size_t)1 << 61) + 4;
static int size_mistake(const char *s) {
  static double host[4];
  double *d = NULL;
  if (!strcmp(s, "size_device_array")) {
    d = device_array(double, HUGE_COUNT);
  } else if (!strcmp(s, "size_managed_array")) {
    d = managed_array(double, HUGE_COUNT);
  } else if (!strcmp(s, "size_pinned_array")) {
    d = pinned_array(double, HUGE_COUNT);
  } else if (!strcmp(s, "size_to_device")) {
    d = to_device(host, HUGE_COUNT);
  } else if (!strcmp(s, "size_negative")) {
    long n = -3;
    d = device_array(double, n);
  } else {
    double *small = device_array(double, 4);
    host[3] = 42;
    if (!strcmp(s, "size_copy_to_host")) copy_to_host(host, small, HUGE_COUNT);
    else if (!strcmp(s, "size_copy_to_device")) copy_to_device(small, host, HUGE_COUNT);
    else if (!strcmp(s, "size_copy_to_host_async"))
      copy_to_host_async(host, small, HUGE_COUNT, NULL);
    else if (!strcmp(s, "size_copy_to_device_async"))
      copy_to_device_async(small, host, HUGE_COUNT, NULL);
    else return 0;
    KT_CHECK(host[3] == 42, "the copy ran: host[3] = %g", host[3]);
    return 1;
  }
  KT_CHECK(d == NULL, "%s returned %p (%zu bytes)", s, (void *)d, kp_alloc_size(d));
  return 1;
}

/* Makes one mistake; returns the error it must report. */
static kp_error mistake(const char *s) {
  static float stack_like[N];
  if (!strncmp(s, "size_", 5) && size_mistake(s)) return KP_ERROR_OUT_OF_MEMORY;
  if (!strcmp(s, "host_pointer")) {
    launch(add_one, 1, N)(stack_like, N);
  } else if (!strcmp(s, "host_pointer_const")) { /* const parameters need a size just the same */
    float *d = device_array(float, N);
    launch(twice_into, 1, N)(stack_like, d, N);
  } else if (!strcmp(s, "freed")) {
    float *d = device_array(float, N);
    kp_free(d);
    launch(add_one, 1, N)(d, N);
  } else if (!strcmp(s, "free_registered")) {
    float *h = aligned_alloc(PAGE, PAGE);
    kp_register(h, PAGE);
    kp_free(h);
  } else if (!strcmp(s, "free_interior")) {
    float *d = device_array(float, N);
    kp_free(d + 1);
  } else if (!strcmp(s, "unregister_unknown")) {
    kp_unregister(stack_like);
  } else if (!strcmp(s, "unregister_device")) {
    float *d = device_array(float, N);
    kp_unregister(d);
  } else if (!strcmp(s, "register_overlap")) {
    float *p = pinned_array(float, N);
    kp_register(p + 4, 16);
  } else if (!strcmp(s, "register_twice")) {
    float *h = aligned_alloc(PAGE, PAGE);
    kp_register(h, PAGE);
    kp_register(h + 1, 8);
  } else if (!strcmp(s, "register_null")) {
    kp_register(NULL, 8);
  } else if (!strcmp(s, "copy_pinned_as_device")) {
    float *p = pinned_array(float, N);
    copy_to_host(stack_like, p, N);
  } else if (!strcmp(s, "like_host")) {
    (void)device_array_like(stack_like);
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    exit(2);
  }
  return KP_ERROR_INVALID_VALUE;
}

static const char *const g_mistakes[] = {
    "host_pointer",       "host_pointer_const", "freed",          "free_registered",
    "free_interior",      "unregister_unknown", "unregister_device", "register_overlap",
    "register_twice",     "register_null",      "copy_pinned_as_device", "like_host",
    "size_device_array",  "size_managed_array", "size_pinned_array", "size_to_device",
    "size_negative",      "size_copy_to_host",  "size_copy_to_device", "size_copy_to_host_async",
    "size_copy_to_device_async"};

/* Every mistake in return mode: each is reported, nothing is copied or run, and the runtime
 * works afterwards. */
static void return_mode(void) {
  kt_each_mistake_returns(mistake, g_mistakes, sizeof g_mistakes / sizeof g_mistakes[0]);
  float *p = pinned_array(float, N);
  for (int i = 0; i < N; i++) p[i] = (float)i;
  launch(add_one, 1, N)(p, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  for (int i = 0; i < N; i++) KT_CHECK(p[i] == (float)i + 1, "p[%d] = %g", i, p[i]);
  kp_free(p);
}

/* KP_DEBUG=leaks: four allocations, one freed, one registration left. */
static void leaks(int free_all) {
  float *d = device_array(float, N), *p = pinned_array(float, 2 * N);
  float *m = managed_array(float, 3 * N), *h = aligned_alloc(PAGE, PAGE);
  kp_register(h, PAGE);
  kp_free(d);
  if (free_all) {
    kp_free(p);
    kp_free(m);
    kp_unregister(h);
  }
}

/* ---- the fake driver's log ----------------------------------------------------------------- */

/* The pointer the n-th (from 0) line starting with `prefix` ends with (" -> 0x..."). */
static void *nth_result(const char *prefix, int n) {
  const char *log = read_log();
  for (const char *line = log; *line;) {
    const char *end = strchr(line, '\n');
    if (!strncmp(line, prefix, strlen(prefix)) && n-- == 0) {
      const char *arrow = strstr(line, " -> 0x");
      if (arrow && (!end || arrow < end)) return (void *)(uintptr_t)strtoull(arrow + 4, NULL, 16);
      return NULL;
    }
    if (!end) break;
    line = end + 1;
  }
  return NULL;
}

/* Pinned and registered arrays through temporaries; managed and foreign device memory in
 * place; the pool for device memory. */
static void fake(void) {
  char line[256];
  /* pinned: in and out each copied in; out alone back (in is const) */
  float *in = pinned_array(float, N), *out = pinned_array(float, N);
  CHECK_LOG_COUNT("cuMemHostAlloc 400 flags=3 -> 0x", 2); /* portable | device-mapped */
  launch(twice_into, 1, N)(in, out, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  void *t_in = nth_result("cuMemAllocAsync 400 stream=(nil)", 0);
  void *t_out = nth_result("cuMemAllocAsync 400 stream=(nil)", 1);
  KT_CHECK(t_in && t_out && t_in != in && t_out != out, "temporaries %p %p", t_in, t_out);
  snprintf(line, sizeof line, "cuMemcpyHtoD %p 400 from pinned\n", t_in);
  CHECK_LOG_COUNT(line, 1);
  snprintf(line, sizeof line, "cuMemcpyHtoD %p 400 from pinned\n", t_out);
  CHECK_LOG_COUNT(line, 1);
  snprintf(line, sizeof line, "cuLaunchKernel twice_into grid=1,1,1 block=100,1,1 shared=0 "
                              "stream=(nil) params=%p,%p,0x64\n", t_in, t_out);
  CHECK_LOG_COUNT(line, 1);
  CHECK_LOG_COUNT("cuStreamSynchronize (nil)\n", 1); /* the launch waits for its kernel */
  snprintf(line, sizeof line, "cuMemcpyDtoH %p 400 to pinned\n", t_out);
  CHECK_LOG_COUNT(line, 1);
  CHECK_LOG_COUNT("cuMemcpyDtoH", 1); /* not for the const input */
  snprintf(line, sizeof line, "cuMemFreeAsync %p stream=(nil)\n", t_in);
  CHECK_LOG_COUNT(line, 1);
  snprintf(line, sizeof line, "cuMemFreeAsync %p stream=(nil)\n", t_out);
  CHECK_LOG_COUNT(line, 1);

  /* two parameters into one pinned array: one temporary, at the right offsets */
  launch(twice_into, 1, N / 2)(out, out + N / 2, N / 2);
  void *t_both = nth_result("cuMemAllocAsync 400 stream=(nil)", 2);
  CHECK_LOG_COUNT("cuMemAllocAsync 400 stream=(nil)", 3);
  snprintf(line, sizeof line, "params=%p,%p,0x32\n", t_both, (void *)((char *)t_both + 200));
  CHECK_LOG_COUNT(line, 1);
  kp_free(in);
  kp_free(out);
  CHECK_LOG_COUNT("cuMemFreeHost 0x", 2);

  /* managed: passed as it is, freed after the device is idle */
  float *m = managed_array(float, N);
  snprintf(line, sizeof line, "cuMemAllocManaged 400 -> %p\n", (void *)m);
  CHECK_LOG_COUNT(line, 1);
  launch(add_one, 1, N)(m + 10, N - 10);
  snprintf(line, sizeof line, "params=%p,0x5a\n", (void *)(m + 10));
  CHECK_LOG_COUNT(line, 1);
  CHECK_LOG_COUNT("cuMemAllocAsync", 3); /* nothing staged */
  kp_free(m);
  snprintf(line, sizeof line, "cuCtxSynchronize\ncuMemFree %p\n", (void *)m);
  CHECK_LOG_COUNT(line, 1);

  /* registered: page-locked once, staged like pinned memory, unlocked */
  float *h = aligned_alloc(PAGE, PAGE);
  KT_CHECK(kp_register(h, PAGE) == h, "%s", kp_last_error_message());
  snprintf(line, sizeof line, "cuMemHostRegister %p 4096 flags=1\n", (void *)h);
  CHECK_LOG_COUNT(line, 1);
  launch(add_one, 1, N)(h + 1, N);
  void *t_h = nth_result("cuMemAllocAsync 4096 stream=(nil)", 0);
  snprintf(line, sizeof line, "params=%p,0x64\n", (void *)((char *)t_h + 4));
  CHECK_LOG_COUNT(line, 1);
  snprintf(line, sizeof line, "cuMemcpyDtoH %p 4096 to pinned\n", t_h);
  CHECK_LOG_COUNT(line, 1);
  kp_unregister(h);
  snprintf(line, sizeof line, "cuMemHostUnregister %p\n", (void *)h);
  CHECK_LOG_COUNT(line, 1);
  free(h);

  /* device memory other code allocated through the driver passes; a host pointer does not */
  void *lib = dlopen(getenv("KP_LIBCUDA"), RTLD_NOW | RTLD_NOLOAD);
  KT_CHECK(lib, "the fake driver is loaded");
  int (*mem_alloc)(unsigned long long *, size_t) =
      (int (*)(unsigned long long *, size_t))(uintptr_t)dlsym(lib, "cuMemAlloc_v2");
  unsigned long long foreign = 0;
  KT_CHECK(mem_alloc && mem_alloc(&foreign, 400) == 0, "cuMemAlloc_v2 of the fake");
  launch(add_one, 1, N)((float *)(uintptr_t)foreign, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  snprintf(line, sizeof line, "params=0x%llx,0x64\n", foreign);
  CHECK_LOG_COUNT(line, 1);
  kp_set_error_mode(KP_ERRORS_RETURN);
  float host[N];
  launch(add_one, 1, N)(host, N);
  KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "a host pointer is refused");
  CHECK_LOG_COUNT("-> unknown", 1);
  CHECK_LOG_COUNT("cuLaunchKernel add_one", 3);

  /* the pool: a thousand allocations, each freed in stream order, no mixing */
  for (int i = 0; i < 1000; i++) kp_free(device_array(float, 1000 + i));
  CHECK_LOG_COUNT("cuMemAllocAsync", 1004);
  CHECK_LOG_COUNT("cuMemFreeAsync", 1004);
  CHECK_LOG_COUNT("cuDeviceGetDefaultMemPool 0\n", 1);
  CHECK_LOG_COUNT("cuMemPoolSetAttribute release_threshold 18446744073709551615\n", 1);
  CHECK_LOG_COUNT("MISMATCH", 0);
  CHECK_LOG_COUNT("INVALID", 0);
}

/* Without a pool (FAKE_CUDA_FAIL=no_pool or KP_MEMORY_POOL=0): cuMemAlloc, and cuMemFree
 * only after the device is idle; staging works the same. */
static void fake_no_pool(void) {
  float *d = device_array(float, N);
  char line[256];
  snprintf(line, sizeof line, "cuMemAlloc 400 -> %p\n", (void *)d);
  CHECK_LOG_COUNT(line, 1);
  kp_free(d);
  snprintf(line, sizeof line, "cuCtxSynchronize\ncuMemFree %p\n", (void *)d);
  CHECK_LOG_COUNT(line, 1);
  float *p = pinned_array(float, N);
  for (int i = 0; i < N; i++) p[i] = (float)i;
  launch(add_one, 1, N)(p, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  CHECK_LOG_COUNT("cuMemAlloc 400 -> ", 2);
  CHECK_LOG_COUNT("cuMemFree 0x", 2);
  CHECK_LOG_COUNT("cuMemAllocAsync", 0);
  CHECK_LOG_COUNT("MISMATCH", 0);
  kp_free(p);
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (!strncmp(s, "fake", 4) && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("memory_errors");
  if (!strcmp(s, "return_mode")) return_mode();
  else if (!strcmp(s, "leaks")) leaks(0);
  else if (!strcmp(s, "no_leaks")) leaks(1);
  else if (!strcmp(s, "fake")) fake();
  else if (!strcmp(s, "fake_no_pool")) fake_no_pool();
  else if (!strcmp(s, "oom_managed")) (void)managed_array(float, 1000);
  else if (!strcmp(s, "register_fails")) kp_register(aligned_alloc(PAGE, PAGE), PAGE);
  else {
    mistake(s);
    fprintf(stderr, "memory_errors: scenario '%s' did not stop the program\n", s);
    return 0;
  }
  printf("memory_errors %s: finished\n", s);
  return 0;
}
