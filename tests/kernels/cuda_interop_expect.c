/* cuda_interop_expect.c — kernplug beside other CUDA code (kernplug/cuda_interop.h,
 * docs/cuda-libraries.md): device and managed memory another library allocated through the
 * driver (what cudaMalloc and cudaMallocManaged return) used in place by launch, ufunc, gufunc,
 * kp_reduce and the copies; the CUstream and CUcontext behind kernplug's; a CUstream made
 * elsewhere wrapped as a kp_stream. On the fake driver the program reads the driver's log back
 * (FAKE_CUDA_LOG) to see which calls ran and which pointers the kernels received; on the CPU
 * backend each driver-object call is an error that says why. cuda_interop.cmake lists the
 * scenarios. Usage: kt_cuda_interop_expect <scenario> */
#include <dlfcn.h>
#include <stdint.h>

#include "kernel_test.h"
#include "../runtime/fake_log.h"

__attribute__((kernel)) void add_one(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] += 1.0f;
}

__attribute__((vectorize("f32(f32, f32)"))) float add(float a, float b) { return a + b; }

__attribute__((guvectorize("(i)->()"))) void row_sum(const float *row, float *out, int i) {
  float s = 0;
  for (int k = 0; k < i; k++) s += row[k];
  *out = s;
}

__attribute__((reduce)) float fsum(float a, float b) { return a + b; }

enum { N = 256, ROW = 8 };

/* ---- the fake driver's entry points, as another CUDA library would call them ------------- */

typedef int (*mem_alloc_fn)(unsigned long long *, size_t);
typedef int (*mem_alloc_managed_fn)(unsigned long long *, size_t, unsigned);
typedef int (*stream_create_fn)(void **, unsigned);
typedef int (*stream_destroy_fn)(void *);
typedef int (*primary_ctx_fn)(void **, int);
typedef int (*ctx_set_current_fn)(void *);

static void *driver_symbol(const char *name) {
  static void *lib;
  const char *lib_name = getenv("KP_LIBCUDA") ? getenv("KP_LIBCUDA") : "libcuda.so.1";
  if (!lib) lib = dlopen(lib_name, RTLD_NOW | RTLD_NOLOAD);
  KT_CHECK(lib, "the driver kernplug loaded (%s) is loaded", lib_name);
  void *f = dlsym(lib, name);
  KT_CHECK(f, "the driver has %s", name);
  return f;
}
#define DRIVER(type, name) ((type)(uintptr_t)driver_symbol(name))

/* Device memory allocated behind kernplug's back (cudaMalloc: cuMemAlloc; cudaMallocManaged:
 * cuMemAllocManaged with CU_MEM_ATTACH_GLOBAL). */
static float *foreign_array(size_t n, int managed) {
  unsigned long long d = 0;
  int r = managed ? DRIVER(mem_alloc_managed_fn, "cuMemAllocManaged")(&d, n * sizeof(float), 1)
                  : DRIVER(mem_alloc_fn, "cuMemAlloc_v2")(&d, n * sizeof(float));
  KT_CHECK(r == 0 && d, "allocating %zu floats through the fake driver: %d", n, r);
  return (float *)(uintptr_t)d;
}

/* How many cuLaunchKernel lines of the log pass p as a parameter. */
static int launches_with(const void *p) {
  char needle[64];
  snprintf(needle, sizeof needle, "%#llx", (unsigned long long)(uintptr_t)p);
  int n = 0;
  for (const char *line = read_log(); line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    const char *params = strstr(line, "params=");
    if (!strncmp(line, "cuLaunchKernel", 14) && params && params < line + len) {
      for (const char *q = params; (q = strstr(q, needle)) && q < line + len; q += strlen(needle))
        if (q[strlen(needle)] == ',' || q[strlen(needle)] == '\n' || !q[strlen(needle)]) {
          n++;
          break;
        }
    }
    line = end ? end + 1 : NULL;
  }
  return n;
}

/* launch, ufunc, gufunc, kp_reduce and the copies take memory other code allocated as device
 * memory: no staging copy (which would read device addresses on the host: the fake logs
 * that as MISMATCH), the pointer itself in the kernel's parameters. */
static void foreign_memory(int managed) {
  float *x = foreign_array(N, managed), *y = foreign_array(N, managed);
  float *sums = foreign_array(N / ROW, managed);
  int copies_before = count(read_log(), "cuMemcpyHtoD");
  launch(add_one, 1, N)(x, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "launch: %s", kp_last_error_message());
  KT_CHECK(launches_with(x) == 1, "launch passes x as it is; log:\n%s", read_log());

  ufunc(add, N, y, x, 2.0f);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "ufunc: %s", kp_last_error_message());
  KT_CHECK(launches_with(y) == 1 && launches_with(x) == 2, "ufunc passes y and x in place; "
           "log:\n%s", read_log());

  gufunc(row_sum, N / ROW, x, sums, ROW);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "gufunc: %s", kp_last_error_message());
  KT_CHECK(launches_with(sums) == 1 && launches_with(x) == 3, "gufunc passes x and sums in "
           "place; log:\n%s", read_log());

  float total = kp_reduce(fsum, y, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "kp_reduce: %s", kp_last_error_message());
  KT_CHECK(launches_with(y) == 2, "kp_reduce folds y in place; log:\n%s", read_log());
  (void)total; /* the fake runs no kernels */

  KT_CHECK(count(read_log(), "cuMemcpyHtoD") == copies_before, "nothing was staged; log:\n%s",
           read_log());
  /* Copies between kernplug's arrays and foreign ones are device to device. */
  float *d = device_array(float, N);
  copy_device_to_device(d, x, N);
  float host[N];
  copy_to_host(host, y, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "copies: %s", kp_last_error_message());
  CHECK_LOG_COUNT("MISMATCH", 0);
  CHECK_LOG_COUNT("INVALID", 0);
  kp_free(d);
  /* kernplug does not free what it did not allocate, and checks ranges against the driver's
   * allocation as against its own arrays: nothing runs or copies. */
  kp_set_error_mode(KP_ERRORS_RETURN);
  kp_free(x);
  KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "kp_free of foreign memory is refused");
  printf("free_foreign: %s\n", kp_last_error_message());
  int launches = count(read_log(), "cuLaunchKernel"), copies = count(read_log(), "cuMemcpy");
  ufunc(add, N + 1, y, x, 2.0f);
  KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "ufunc past the end is refused");
  printf("ufunc_past_end: %s\n", kp_last_error_message());
  kp_reduce(fsum, y + 1, N);
  KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "kp_reduce past the end is refused");
  printf("reduce_past_end: %s\n", kp_last_error_message());
  copy_to_host(host, x + 1, N);
  KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "copy_to_host past the end is refused");
  printf("copy_past_end: %s\n", kp_last_error_message());
  KT_CHECK(count(read_log(), "cuLaunchKernel") == launches &&
           count(read_log(), "cuMemcpy") == copies, "nothing ran; log:\n%s", read_log());
  kp_set_error_mode(KP_ERRORS_ABORT);
}

/* The CUcontext is the device's primary context (cudart's); the CUstream of a kp_stream is
 * the one kernplug created; the default stream is CUDA's legacy NULL stream. */
static void handles(void) {
  void *ctx = kp_cuda_context();
  void *primary = NULL;
  KT_CHECK(DRIVER(primary_ctx_fn, "cuDevicePrimaryCtxRetain")(&primary, 0) == 0, "retain");
  KT_CHECK(ctx && ctx == primary, "kp_cuda_context() %p is device 0's primary context %p", ctx,
           primary);
  KT_CHECK(kp_cuda_stream(NULL) == NULL && kp_last_error() == KP_SUCCESS,
           "the default stream is the NULL CUstream");
  kp_stream s = kp_stream_create();
  void *cs = kp_cuda_stream(s);
  char line[128];
  snprintf(line, sizeof line, "cuStreamCreate flags=0 -> %p\n", cs);
  KT_CHECK(cs, "kp_cuda_stream(s): %s", kp_last_error_message());
  CHECK_LOG_COUNT(line, 1);
  float *d = device_array(float, N);
  launch(add_one, 1, N, 0, s)(d, N);
  snprintf(line, sizeof line, "stream=%p params=", cs);
  CHECK_LOG_COUNT(line, 1);
  kp_stream_destroy(s);
  snprintf(line, sizeof line, "cuStreamDestroy %p\n", cs);
  CHECK_LOG_COUNT(line, 1);
  kp_free(d);
}

/* A CUstream created by other code: kernplug's work goes to it, kp_stream_destroy leaves it
 * to its creator, a non-blocking one is non-blocking to kernplug too. */
static void wrap(void) {
  void *cs = NULL, *nb = NULL;
  KT_CHECK(DRIVER(stream_create_fn, "cuStreamCreate")(&cs, 0) == 0, "cuStreamCreate");
  KT_CHECK(DRIVER(stream_create_fn, "cuStreamCreate")(&nb, 1) == 0, "cuStreamCreate");
  kp_stream s = kp_stream_from_cuda(cs), t = kp_stream_from_cuda(nb);
  KT_CHECK(s && t, "kp_stream_from_cuda: %s", kp_last_error_message());
  KT_CHECK(kp_cuda_stream(s) == cs && kp_cuda_stream(t) == nb, "the wrapped handles come back");
  float *d = device_array(float, N), host[N] = {0};
  char line[128];
  launch(add_one, 1, N, 0, s)(d, N);
  snprintf(line, sizeof line, "stream=%p params=", cs);
  CHECK_LOG_COUNT(line, 1);
  copy_to_host_async(host, d, N, t);
  kp_stream_synchronize(t);
  snprintf(line, sizeof line, "stream=%p", nb);
  KT_CHECK(count(read_log(), "cuMemcpyDtoHAsync") == 1 && count(read_log(), line) >= 1,
           "one async copy on nb; log:\n%s", read_log());
  snprintf(line, sizeof line, "cuStreamSynchronize %p\n", nb);
  CHECK_LOG_COUNT(line, 1);
  /* A non-blocking stream is counted: device frees now wait for the whole device. */
  int syncs = count(read_log(), "cuCtxSynchronize");
  kp_free(d);
  KT_CHECK(count(read_log(), "cuCtxSynchronize") == syncs + 1,
           "freeing with a non-blocking stream alive waits for the device; log:\n%s",
           read_log());
  kp_stream_destroy(s);
  kp_stream_destroy(t);
  CHECK_LOG_COUNT("cuStreamDestroy", 0);
  KT_CHECK(DRIVER(stream_destroy_fn, "cuStreamDestroy_v2")(cs) == 0, "the creator destroys cs");
  KT_CHECK(DRIVER(stream_destroy_fn, "cuStreamDestroy_v2")(nb) == 0, "the creator destroys nb");
  CHECK_LOG_COUNT("INVALID", 0);
}

/* A stream of device 1's context is device 1's: launching on it from device 0 is refused as
 * for a stream kernplug created there. */
static void wrap_other_device(void) {
  kp_select_device(1);
  void *cs = NULL;
  KT_CHECK(DRIVER(stream_create_fn, "cuStreamCreate")(&cs, 0) == 0, "cuStreamCreate");
  kp_select_device(0);
  kp_stream s = kp_stream_from_cuda(cs);
  KT_CHECK(s, "kp_stream_from_cuda: %s", kp_last_error_message());
  float *d = device_array(float, N);
  kp_set_error_mode(KP_ERRORS_RETURN);
  launch(add_one, 1, N, 0, s)(d, N);
  printf("other_device: %s\n", kp_last_error_message());
  KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "launch on device 1's stream refused");
  kp_select_device(1);
  float *d1 = device_array(float, N);
  launch(add_one, 1, N, 0, s)(d1, N);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "on device 1: %s", kp_last_error_message());
  kp_stream_destroy(s);
}

/* On a GPU: the same calls on memory cuMemAlloc and cuMemAllocManaged returned, with the
 * results checked, and a kernel and a ufunc on a wrapped stream. */
static void gpu(void) {
  float *x = foreign_array(N, 0), *y = foreign_array(N, 1), *sums = foreign_array(N / ROW, 0);
  float host[N], back[N];
  for (int i = 0; i < N; i++) host[i] = (float)i;
  copy_to_device(x, host, N);
  launch(add_one, 1, N)(x, N);                   /* x = i + 1 */
  ufunc(add, N, y, x, 2.0f);                     /* y = i + 3 (managed) */
  gufunc(row_sum, N / ROW, x, sums, ROW);        /* sums[r] = sum of row r of x */
  float total = kp_reduce(fsum, y, N);           /* sum of i + 3 */
  copy_to_host(back, y, N);
  for (int i = 0; i < N; i++) KT_CHECK(back[i] == (float)i + 3, "y[%d] = %g", i, back[i]);
  float s[N / ROW];
  copy_to_host(s, sums, N / ROW);
  for (int r = 0; r < N / ROW; r++) {
    float want = 0;
    for (int k = 0; k < ROW; k++) want += (float)(r * ROW + k) + 1;
    KT_CHECK(s[r] == want, "sums[%d] = %g, expected %g", r, s[r], want);
  }
  KT_CHECK(total == (float)(N * (N - 1) / 2 + 3 * N), "kp_reduce: %g", total);
  void *cs = NULL;
  KT_CHECK(DRIVER(stream_create_fn, "cuStreamCreate")(&cs, 1) == 0, "cuStreamCreate");
  kp_stream t = kp_stream_from_cuda(cs);
  KT_CHECK(kp_cuda_stream(t) == cs, "the wrapped stream comes back");
  launch(add_one, 1, N, 0, t)(x, N);             /* x = i + 2 */
  ufunc_stream(t, add, N, y, x, 1.0f);           /* y = i + 3 */
  copy_to_host_async(back, y, N, t);
  kp_stream_synchronize(t);
  for (int i = 0; i < N; i++) KT_CHECK(back[i] == (float)i + 3, "on the stream: y[%d] = %g", i,
                                       back[i]);
  kp_stream_destroy(t);
  KT_CHECK(DRIVER(stream_destroy_fn, "cuStreamDestroy_v2")(cs) == 0, "cuStreamDestroy");
}

/* Three devices, kernplug on device 0, a stream made by other code on device 2: wrapping it
 * finds device 2 without creating a context on device 1, whose primary context nobody uses
 * (on a node shared by MPI ranks, another rank's GPU). */
static void wrap_skips_inactive(void) {
  float *d0 = device_array(float, N); /* kernplug on device 0 */
  void *ctx0 = kp_cuda_context(), *ctx2 = NULL, *cs = NULL;
  KT_CHECK(DRIVER(primary_ctx_fn, "cuDevicePrimaryCtxRetain")(&ctx2, 2) == 0, "retain 2");
  KT_CHECK(DRIVER(ctx_set_current_fn, "cuCtxSetCurrent")(ctx2) == 0, "ctx 2");
  KT_CHECK(DRIVER(stream_create_fn, "cuStreamCreate")(&cs, 0) == 0, "cuStreamCreate");
  KT_CHECK(DRIVER(ctx_set_current_fn, "cuCtxSetCurrent")(ctx0) == 0, "back to ctx 0");
  kp_stream s = kp_stream_from_cuda(cs);
  KT_CHECK(s, "kp_stream_from_cuda: %s", kp_last_error_message());
  CHECK_LOG_COUNT("cuDevicePrimaryCtxGetState device 1 -> inactive\n", 1);
  CHECK_LOG_COUNT("cuDevicePrimaryCtxRetain device 1\n", 0);
  kp_select_device(2);
  float *d2 = device_array(float, N);
  launch(add_one, 1, N, 0, s)(d2, N);
  char line[128];
  snprintf(line, sizeof line, "stream=%p params=", cs);
  CHECK_LOG_COUNT(line, 1);
  kp_stream_destroy(s);
  kp_free(d2);
  kp_select_device(0);
  kp_free(d0);
}

/* KP_BACKEND=cpu in a process whose other CUDA code allocated GPU memory (the fake driver,
 * loaded and started here as cudart would): every call refuses the pointer saying what it
 * is, and nothing reads it (the CPU would fault). */
static void cpu_gpu_memory(void) {
  void *lib = dlopen(getenv("KP_LIBCUDA"), RTLD_NOW | RTLD_GLOBAL);
  KT_CHECK(lib, "loading the fake driver: %s", dlerror());
  void *ctx = NULL;
  KT_CHECK(DRIVER(int (*)(unsigned), "cuInit")(0) == 0, "cuInit");
  KT_CHECK(DRIVER(primary_ctx_fn, "cuDevicePrimaryCtxRetain")(&ctx, 0) == 0, "retain");
  KT_CHECK(DRIVER(ctx_set_current_fn, "cuCtxSetCurrent")(ctx) == 0, "cuCtxSetCurrent");
  float *g = foreign_array(N, 0), *out = device_array(float, N), host[N] = {0};
  kp_set_error_mode(KP_ERRORS_RETURN);
  launch(add_one, 1, N)(g, N);
  printf("cpu_launch: %s\n", kp_last_error_message());
  ufunc(add, N, out, g, 1.0f);
  printf("cpu_ufunc: %s\n", kp_last_error_message());
  kp_reduce(fsum, g, N);
  printf("cpu_reduce: %s\n", kp_last_error_message());
  copy_to_host(host, g, N);
  printf("cpu_copy_to_host: %s\n", kp_last_error_message());
  copy_device_to_device(out, g, N);
  printf("cpu_copy_dtod: %s\n", kp_last_error_message());
  kp_set_error_mode(KP_ERRORS_ABORT);
  /* Host memory is still host memory with the driver loaded. */
  ufunc(add, N, out, host, 1.0f);
  copy_to_host(host, out, N);
  for (int i = 0; i < N; i++) KT_CHECK(host[i] == 1.0f, "host[%d] = %g", i, host[i]);
  kp_free(out);
}

/* Mistakes, each an error in return mode (cuda_interop.cmake checks the messages); returns
 * the error the mistake must cause. */
static kp_error mistake(const char *s) {
  if (!strcmp(s, "wrap_null")) kp_stream_from_cuda(NULL);
  else if (!strcmp(s, "wrap_garbage")) kp_stream_from_cuda((void *)(uintptr_t)16);
  else if (!strcmp(s, "stream_destroyed")) {
    kp_stream st = kp_stream_create();
    kp_stream_destroy(st);
    kp_cuda_stream(st);
  } else if (!strcmp(s, "cpu_stream")) kp_cuda_stream(NULL);
  else if (!strcmp(s, "cpu_context")) kp_cuda_context();
  else if (!strcmp(s, "cpu_wrap")) kp_stream_from_cuda((void *)&s);
  return !strncmp(s, "cpu_", 4) ? KP_ERROR_UNSUPPORTED : KP_ERROR_INVALID_VALUE;
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("cuda_interop");
  if (!strcmp(s, "foreign")) foreign_memory(0);
  else if (!strcmp(s, "foreign_managed")) foreign_memory(1);
  else if (!strcmp(s, "handles")) handles();
  else if (!strcmp(s, "gpu")) gpu();
  else if (!strcmp(s, "cpu_gpu_memory")) cpu_gpu_memory();
  else if (!strcmp(s, "wrap")) wrap();
  else if (!strcmp(s, "wrap_other_device")) wrap_other_device();
  else if (!strcmp(s, "wrap_skips_inactive")) wrap_skips_inactive();
  else if (!strcmp(s, "mistakes_cpu") || !strcmp(s, "mistakes_fake")) {
    static const char *const cpu[] = {"cpu_stream", "cpu_context", "cpu_wrap"};
    static const char *const fake[] = {"wrap_null", "wrap_garbage", "stream_destroyed"};
    int on_cpu = !strcmp(s, "mistakes_cpu");
    kt_each_mistake_returns(mistake, on_cpu ? cpu : fake, 3);
    if (on_cpu) { /* the abort-mode path says the same and stops */
      fflush(stdout);
      kp_set_error_mode(KP_ERRORS_ABORT);
      kp_cuda_stream(NULL);
      fprintf(stderr, "cuda_interop: kp_cuda_stream on the CPU backend did not stop\n");
      return 0;
    }
  } else if (!strcmp(s, "wrap_other_context")) {
    void *cs = NULL;
    KT_CHECK(DRIVER(stream_create_fn, "cuStreamCreate")(&cs, 0) == 0, "cuStreamCreate");
    kp_stream_from_cuda(cs); /* FAKE_CUDA_FAIL=stream_ctx: in a context of cuCtxCreate */
    fprintf(stderr, "cuda_interop: a stream of another context was accepted\n");
    return 0;
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", s);
    return 2;
  }
  printf("cuda_interop %s: finished\n", s);
  return 0;
}
