/* memops_errors_expect.c — copies and fills used wrongly, each stopping with a message that
 * names the call and the sizes (memops.cmake lists them), the same mistakes in return mode,
 * and the CUDA path on the fake driver: the program reads the driver's log back and checks
 * that each pair of memory kinds was given the right transfer (cuMemcpyHtoD, DtoH, DtoD and
 * their Async forms on the stream's CUstream) with the right addresses and sizes, and each
 * fill the right cuMemsetD8/D16/D32.
 * Usage: kt_memops_errors_expect <scenario> */
#include <dlfcn.h>
#include <stdint.h>

#include "kernel_test.h"
#include "../runtime/fake_log.h"

enum { N = 100 };

/* ---- mistakes ---------------------------------------------------------------------------- */

static kp_error mistake(const char *s) {
  float *d = device_array(float, N), *d2 = device_array(float, N);
  float *p = pinned_array(float, N);
  static float host[N];
  if (!strcmp(s, "dtod_too_much")) {
    copy_device_to_device(d2, d + 4, N);
  } else if (!strcmp(s, "dtod_host")) {
    copy_device_to_device(d, host, N);
  } else if (!strcmp(s, "pinned_src_too_much")) {
    copy_to_device(d, p + 10, N);
  } else if (!strcmp(s, "device_dst_too_much")) {
    copy_to_host(d2 + 50, d, N);
  } else if (!strcmp(s, "overlap")) {
    copy_device_to_device(d + 1, d, 10);
  } else if (!strcmp(s, "memset_too_much")) {
    kp_memset(d + 1, 0, N * sizeof(float));
  } else if (!strcmp(s, "memset_host")) {
    kp_memset(host, 0, 4);
  } else if (!strcmp(s, "fill_odd_size")) {
    struct rgb { unsigned char r, g, b; } *c = device_array(struct rgb, N);
    struct rgb v = {1, 2, 3};
    kp_fill_elems(c, &v, N, sizeof v);
  } else if (!strcmp(s, "fill_double")) {
    double *dd = device_array(double, N);
    kp_fill(dd, 1.5, N);
  } else if (!strcmp(s, "fill_misaligned")) {
    unsigned v = 1;
    kp_fill_elems((char *)d + 1, &v, 1, sizeof v);
  } else if (!strcmp(s, "memset_async_destroyed")) {
    kp_stream st = kp_stream_create();
    kp_stream_destroy(st);
    kp_memset_async(d, 0, 4, st);
  } else if (!strcmp(s, "dtod_async_too_much")) {
    kp_stream st = kp_stream_create();
    copy_device_to_device_async(d, d2 + 1, N, st);
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    exit(2);
  }
  return KP_ERROR_INVALID_VALUE;
}

static const char *const g_mistakes[] = {
    "dtod_too_much",   "dtod_host",   "pinned_src_too_much", "device_dst_too_much",
    "overlap",         "memset_too_much", "memset_host",     "fill_odd_size",
    "fill_double",     "fill_misaligned", "memset_async_destroyed", "dtod_async_too_much"};

/* Every mistake in return mode: each is reported and the runtime works afterwards. */
static void return_mode(void) {
  kt_each_mistake_returns(mistake, g_mistakes, sizeof g_mistakes / sizeof g_mistakes[0]);
  float h[N], back[N];
  for (int i = 0; i < N; i++) h[i] = (float)i;
  float *a = to_device(h, N), *b = device_array(float, N);
  copy_device_to_device(b, a, N);
  copy_to_host(back, b, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "the runtime works after the mistakes");
  for (int i = 0; i < N; i++) KT_CHECK(back[i] == h[i], "element %d is %g", i, back[i]);
}

/* ---- the fake driver --------------------------------------------------------------------- */

/* "0x<hex>" of p as the fake logs device pointers. */
static const char *hex(const void *p, char *buf) {
  sprintf(buf, "0x%llx", (unsigned long long)(uintptr_t)p);
  return buf;
}

/* The log has exactly `n` lines containing the formatted text. */
#define CHECK_LOGGED(n, ...)                                                                   \
  do {                                                                                         \
    char needle_[256];                                                                         \
    snprintf(needle_, sizeof needle_, __VA_ARGS__);                                            \
    CHECK_LOG_COUNT(needle_, n);                                                               \
  } while (0)

static void fake_driver(void) {
  char a[32], b[32];
  float h[N], back[N];
  for (int i = 0; i < N; i++) h[i] = (float)i + 0.5f;
  float *d1 = to_device(h, N), *d2 = device_array(float, N), *m = managed_array(float, N);
  float *p = pinned_array(float, N);
  kp_stream s = kp_stream_create();
  /* the stream's CUstream, as the fake logged its creation: "cuStreamCreate flags=0 -> 0x.." */
  char cs[32] = "";
  const char *created = strstr(read_log(), "cuStreamCreate flags=0 -> ");
  KT_CHECK(created != NULL, "the stream was created with flags 0");
  sscanf(created, "cuStreamCreate flags=0 -> %31s", cs);

  /* device source through copy_to_device: device to device, never a host-to-device copy */
  copy_to_device(d2 + 5, d1 + 3, 10);
  CHECK_LOGGED(1, "cuMemcpyDtoD %s %s 40\n", hex(d2 + 5, a), hex(d1 + 3, b));
  copy_to_host(back, d2, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(back[i] == (i >= 5 && i < 15 ? h[i - 2] : 0.0f), "DtoD result %d: %g", i, back[i]);
  /* device destination through copy_to_host */
  copy_to_host(m, d1, N);
  CHECK_LOGGED(1, "cuMemcpyDtoD %s %s 400\n", hex(m, a), hex(d1, b));
  copy_device_to_device(d2, m, N);
  CHECK_LOGGED(1, "cuMemcpyDtoD %s %s 400\n", hex(d2, a), hex(m, b));
  /* host and pinned on the other side: host to device, device to host */
  copy_to_device(d2, p, N);
  CHECK_LOGGED(1, "cuMemcpyHtoD %s 400 from pinned\n", hex(d2, a));
  copy_to_host(p + 1, d1, N - 1);
  CHECK_LOGGED(1, "cuMemcpyDtoH %s 396 to pinned\n", hex(d1, a));
  /* on a stream: the Async forms with its CUstream */
  copy_to_device_async(d2, d1, N, s);
  copy_to_host_async(m, d1, N, s);
  copy_device_to_device_async(d1, d2, N, s);
  copy_to_device_async(d1, h, N, s);
  copy_to_host_async(h, d1, N, s);
  kp_stream_synchronize(s);
  CHECK_LOGGED(1, "cuMemcpyDtoDAsync %s %s 400 stream=%s\n", hex(d2, a), hex(d1, b),
               cs);
  CHECK_LOGGED(1, "cuMemcpyDtoDAsync %s %s 400 stream=%s\n", hex(m, a), hex(d1, b),
               cs);
  CHECK_LOGGED(1, "cuMemcpyDtoDAsync %s %s 400 stream=%s\n", hex(d1, a), hex(d2, b),
               cs);
  CHECK_LOG_COUNT("cuMemcpyHtoDAsync", 1);
  CHECK_LOG_COUNT("cuMemcpyDtoHAsync", 1);

  /* fills: the element size picks the driver call; the value is the element's bits */
  kp_memset(d1 + 1, 0xab, 8);
  CHECK_LOGGED(1, "cuMemsetD8 %s value=0xab count=8\n", hex(d1 + 1, a));
  kp_fill(d2, 1.0f, N);
  CHECK_LOGGED(1, "cuMemsetD32 %s value=0x3f800000 count=100\n", hex(d2, a));
  short *sh = device_array(short, N);
  kp_fill(sh, -2, N);
  CHECK_LOGGED(1, "cuMemsetD16 %s value=0xfffe count=100\n", hex(sh, a));
  double *dd = device_array(double, N);
  kp_fill_async(dd, 0.0, N, s);
  CHECK_LOGGED(1, "cuMemsetD32Async %s value=0x0 count=200 stream=%s\n", hex(dd, a),
               cs);
  kp_memset_async(m, 1, 3, s);
  CHECK_LOGGED(1, "cuMemsetD8Async %s value=0x1 count=3 stream=%s\n", hex(m, a),
               cs);
  kp_stream_synchronize(s);
  copy_to_host(back, d2, N);
  for (int i = 0; i < N; i++) KT_CHECK(back[i] == 1.0f, "kp_fill result %d: %g", i, back[i]);

  /* device memory kernplug did not allocate (cudaMalloc'd by other code): the driver says
   * what it is */
  void *lib = dlopen(getenv("KP_LIBCUDA"), RTLD_NOW | RTLD_NOLOAD);
  KT_CHECK(lib != NULL, "the fake driver is loaded");
  typedef int (*mem_alloc_fn)(unsigned long long *d, size_t bytes);
  mem_alloc_fn alloc = (mem_alloc_fn)dlsym(lib, "cuMemAlloc_v2");
  unsigned long long foreign = 0;
  KT_CHECK(alloc && alloc(&foreign, N * sizeof(float)) == 0, "cuMemAlloc");
  float *f = (float *)(uintptr_t)foreign;
  copy_to_device(f, d1, N);
  CHECK_LOGGED(1, "cuMemcpyDtoD %s %s 400\n", hex(f, a), hex(d1, b));
  copy_to_device(f, h, N);
  CHECK_LOGGED(1, "cuMemcpyHtoD %s 400\n", hex(f, a));
  copy_to_host(back, f, N);
  CHECK_LOGGED(1, "cuMemcpyDtoH %s 400\n", hex(f, a));
  for (int i = 0; i < N; i++) KT_CHECK(back[i] == h[i], "foreign round trip %d: %g", i, back[i]);

  CHECK_LOG_COUNT("MISMATCH", 0);
  CHECK_LOG_COUNT("INVALID", 0);
  kp_stream_destroy(s);
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (strncmp(s, "fake", 4) == 0 && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("memops_errors");
  if (strcmp(s, "fake") == 0) {
    fake_driver();
  } else if (strcmp(s, "fake_dtod_fails") == 0) {
    float *d1 = device_array(float, N), *d2 = device_array(float, N);
    copy_to_device(d2, d1, N);
  } else if (strcmp(s, "fake_memset_fails") == 0) {
    float *d = device_array(float, N);
    kp_memset_async(d, 0, 8, NULL);
  } else if (strcmp(s, "return_mode") == 0) {
    return_mode();
  } else {
    mistake(s);
  }
  printf("memops_errors %s: finished\n", s);
  return 0;
}
