// cuda_bench.cu — the CUDA C side of the GPU benchmark: the kernels of
// bench/common/kp_kernels.h written in CUDA C, built on the GPU machine with
// `nvcc -O3 -arch=native` (bench/gpu/run.sh), run the same way as kp_bench: checked against a
// host reference first, then timed with CUDA events after warm-up, median of R runs, one JSON
// line per case (impl "nvcc"). Also the references kernplug has no call for: the
// device-to-device copy bandwidth, and CUB's DeviceReduce::Sum.
//
//   cuda_bench [--check] [--section=NAME] [--reps=R]
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench_util.h"

#define CK(call)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "cuda_bench: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorString(e_));                                                        \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)
#define CK_LAUNCH() CK(cudaGetLastError())

static int g_check_only, g_failed;
static long long g_reps;
static const char *g_section;
static int reps_for(int full) { return g_check_only ? 1 : g_reps ? (int)g_reps : full; }
static bool wanted(const char *s) { return !g_section || strcmp(g_section, s) == 0; }

// ---- the kernels (kp_kernels.h, in CUDA C) ----------------------------------------------

__global__ void vec_add(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}
__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
#define BENCH_SQRT_2PI 2.50662827463f
__device__ float gaussian_pdf(float x, float mean, float sigma) {
  float z = (x - mean) / sigma;
  return expf(-0.5f * z * z) / (sigma * BENCH_SQRT_2PI);
}
__global__ void gaussian_pdf_kernel(const float *x, float mean, float sigma, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = gaussian_pdf(x[i], mean, sigma);
}
__global__ void hl_normalize(const float *grayscales, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = grayscales[i] / 255.0f;
}
__global__ void hl_weigh(const float *values, const float *weights, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = values[i] * weights[i];
}
__global__ void hl_activate(const float *values, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = values[i];
    out[i] = (expf(v) - expf(-v)) / (expf(v) + expf(-v));
  }
}
__device__ int check_prime(int num) {
  for (int i = 2; i < num / 2 + 1; i++)
    if (num % i == 0) return 0;
  return num;
}
__global__ void check_prime_kernel(const int *nums, int *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) result[i] = check_prime(nums[i]);
}
__global__ void matmul_naive(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float tmp = 0.0f;
    for (int k = 0; k < n; k++) tmp += A[row * n + k] * B[k * n + col];
    C[row * n + col] = tmp;
  }
}
enum { TPB = 16 };
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float sA[TPB][TPB];
  __shared__ float sB[TPB][TPB];
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  int tiles = (n + TPB - 1) / TPB;
  float tmp = 0.0f;
  for (int i = 0; i < tiles; i++) {
    int a_col = (int)tx + i * TPB, b_row = (int)ty + i * TPB;
    sA[ty][tx] = y < n && a_col < n ? A[y * n + a_col] : 0.0f;
    sB[ty][tx] = x < n && b_row < n ? B[b_row * n + x] : 0.0f;
    __syncthreads();
    for (int j = 0; j < TPB; j++) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();
  }
  if (y < n && x < n) C[y * n + x] = tmp;
}
__global__ void atomic_sum(const float *in, float *out, int n) {
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += in[i];
  atomicAdd(&out[0], s);
}
__global__ void empty0() {}
__global__ void empty4(float *, float *, float *, float *) {}
__global__ void empty16(float *, float *, float *, float *, float *, float *, float *, float *,
                        float *, float *, float *, float *, float *, float *, float *, float *) {}

// ---- timing and output ------------------------------------------------------------------

template <class F> static double time_events(F f, int warm, int reps) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < warm; i++) f();
  CK(cudaDeviceSynchronize());
  double ms[BENCH_MAX_REPS];
  if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float t = 0;
    CK(cudaEventElapsedTime(&t, a, b));
    ms[r] = t;
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return bench_median(ms, reps);
}
template <class F> static double time_host(F f, int warm, int reps) {
  for (int i = 0; i < warm; i++) f();
  CK(cudaDeviceSynchronize());
  double ms[BENCH_MAX_REPS];
  if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now_ms();
    f();
    CK(cudaDeviceSynchronize());
    ms[r] = bench_now_ms() - t0;
  }
  return bench_median(ms, reps);
}

static void emit(const char *section, const char *name, long long n, double ms, int reps,
                 double bytes, double flops, const char *check, const char *timer,
                 const char *note) {
  printf("{\"impl\": \"nvcc\", \"section\": \"%s\", \"case\": \"%s\", \"n\": %lld, \"ms\": %.6f, "
         "\"reps\": %d, \"bytes\": %.0f, \"flops\": %.0f, \"check\": \"%s\", \"timer\": \"%s\", "
         "\"note\": \"%s\"}\n",
         section, name, n, ms, reps, bytes, flops, check, timer, note);
  fflush(stdout);
  fprintf(stderr, "cuda_bench: %-10s %-40s %10.4f ms  %s\n", section, name, ms, check);
}
static const char *verdict(char *buf, size_t size, double err, double tol) {
  if (err <= tol) {
    snprintf(buf, size, "ok (rel. error %.2g)", err);
  } else {
    snprintf(buf, size, "FAIL: relative error %.3g > %.3g", err, tol);
    g_failed = 1;
  }
  return buf;
}
static float *dev_floats(size_t n) {
  float *p;
  CK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}
static void *host_alloc(size_t bytes, bool pinned) {
  void *p = nullptr;
  if (pinned)
    CK(cudaMallocHost(&p, bytes));
  else
    p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "cuda_bench: out of host memory\n");
    exit(1);
  }
  return p;
}
static void host_free(void *p, bool pinned) {
  if (pinned)
    CK(cudaFreeHost(p));
  else
    free(p);
}
static unsigned blocks256(long long n) { return (unsigned)((n + 255) / 256); }

// ---- streaming --------------------------------------------------------------------------

static void create_hidden_layer(int n, const float *greyscales, const float *weights,
                                float *out) {
  float *g_d = dev_floats(n), *w_d = dev_floats(n), *normalized = dev_floats(n);
  float *weighted = dev_floats(n), *activated = dev_floats(n);
  CK(cudaMemcpy(g_d, greyscales, n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(w_d, weights, n * sizeof(float), cudaMemcpyHostToDevice));
  unsigned threads = 512, blocks = (n + threads - 1) / threads;
  hl_normalize<<<blocks, threads>>>(g_d, normalized, n);
  CK_LAUNCH();
  hl_weigh<<<blocks, threads>>>(normalized, w_d, weighted, n);
  CK_LAUNCH();
  hl_activate<<<blocks, threads>>>(weighted, activated, n);
  CK_LAUNCH();
  CK(cudaMemcpy(out, activated, n * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaFree(g_d));
  CK(cudaFree(w_d));
  CK(cudaFree(normalized));
  CK(cudaFree(weighted));
  CK(cudaFree(activated));
}

static void hidden_layer_case(bool pinned) {
  int n = g_check_only ? 1000003 : 100000000;
  float *grey = (float *)host_alloc(n * sizeof(float), pinned);
  float *w = (float *)host_alloc(n * sizeof(float), pinned);
  float *out = (float *)host_alloc(n * sizeof(float), pinned);
  bench_hidden_layer_inputs(grey, w, n);
  bench_poison(out, n);
  create_hidden_layer(n, grey, w, out);
  char buf[160];
  verdict(buf, sizeof buf, bench_hidden_layer_error(grey, w, out, n), 1e-5);
  int reps = reps_for(7);
  double ms = time_host([&] { create_hidden_layer(n, grey, w, out); }, 1, reps);
  emit("streaming",
       pinned ? "hidden layer 100M, end to end, pinned" : "hidden layer 100M, end to end, pageable",
       n, ms, reps, 3.0 * n * sizeof(float), 0, buf, "host clock",
       pinned ? "cudaMallocHost" : "malloc");
  host_free(grey, pinned), host_free(w, pinned), host_free(out, pinned);
}

static void streaming() {
  int n = g_check_only ? 1000003 : 1 << 28;
  size_t bytes = (size_t)n * sizeof(float);
  float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *hout = (float *)malloc(bytes);
  double *want = (double *)malloc(n * sizeof(double));
  bench_fill_uniform(hx, n, 1, -1.0f, 1.0f);
  bench_fill_uniform(hy, n, 2, -1.0f, 1.0f);
  float *x = dev_floats(n), *y = dev_floats(n), *out = dev_floats(n);
  CK(cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(y, hy, bytes, cudaMemcpyHostToDevice));
  char buf[160];
  int reps = reps_for(20);

  auto add = [&] { vec_add<<<blocks256(n), 256>>>(x, y, out, n); CK_LAUNCH(); };
  bench_poison(hout, n);
  CK(cudaMemcpy(out, hout, bytes, cudaMemcpyHostToDevice));
  add();
  CK(cudaMemcpy(hout, out, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = (double)hx[i] + hy[i];
  verdict(buf, sizeof buf, bench_rel_err_f32(hout, want, n), 1e-6);
  emit("streaming", "vector add", n, time_events(add, 3, reps), reps, 3.0 * bytes, 1.0 * n, buf,
       "cuda events", "");

  auto sax = [&] { saxpy<<<blocks256(n), 256>>>(2.0f, x, y, n); CK_LAUNCH(); };
  sax();
  CK(cudaMemcpy(hout, y, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = 2.0 * hx[i] + hy[i];
  verdict(buf, sizeof buf, bench_rel_err_f32(hout, want, n), 1e-6);
  emit("streaming", "saxpy", n, time_events(sax, 3, reps), reps, 3.0 * bytes, 2.0 * n, buf,
       "cuda events", "");

  auto gauss = [&] {
    gaussian_pdf_kernel<<<blocks256(n), 256>>>(x, 0.0f, 1.0f, out, n);
    CK_LAUNCH();
  };
  bench_poison(hout, n);
  CK(cudaMemcpy(out, hout, bytes, cudaMemcpyHostToDevice));
  gauss();
  CK(cudaMemcpy(hout, out, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = exp(-0.5 * (double)hx[i] * hx[i]) / 2.5066282746310002;
  verdict(buf, sizeof buf, bench_rel_err_f32(hout, want, n), 1e-6);
  emit("streaming", "gaussian_pdf ufunc", n, time_events(gauss, 3, reps), reps, 2.0 * bytes, 0,
       buf, "cuda events", "a __global__ calling the __device__ function, 256 threads");

  CK(cudaFree(x));
  CK(cudaFree(y));
  CK(cudaFree(out));
  free(hx), free(hy), free(hout), free(want);
  hidden_layer_case(false);
  hidden_layer_case(true);
}

// ---- compute ----------------------------------------------------------------------------

static void compute() {
  char buf[160];
  {
    int hi = g_check_only ? 20000 : 1000000, n = hi - 1;
    int *nums = (int *)malloc(n * sizeof(int)), *res = (int *)malloc(n * sizeof(int));
    char *composite = bench_composites(hi);
    for (int i = 0; i < n; i++) nums[i] = i + 2;
    int *d_nums, *d_res;
    CK(cudaMalloc(&d_nums, n * sizeof(int)));
    CK(cudaMalloc(&d_res, n * sizeof(int)));
    CK(cudaMemcpy(d_nums, nums, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_res, 0xff, n * sizeof(int)));
    auto primes = [&] { check_prime_kernel<<<blocks256(n), 256>>>(d_nums, d_res, n); CK_LAUNCH(); };
    primes();
    CK(cudaMemcpy(res, d_res, n * sizeof(int), cudaMemcpyDeviceToHost));
    long count, bad = bench_primes_wrong(nums, res, n, composite, &count);
    snprintf(buf, sizeof buf, bad ? "FAIL: %ld of %d wrong" : "ok (%ld primes)", bad ? bad : count, n);
    if (bad) g_failed = 1;
    int reps = reps_for(5);
    emit("compute", "prime check 2..1e6 (ufunc)", n, time_events(primes, 1, reps), reps, 0, 0,
         buf, "cuda events", "one thread per number, 256 threads");
    CK(cudaFree(d_nums));
    CK(cudaFree(d_res));
    free(nums), free(res), free(composite);
  }
  {
    int n = g_check_only ? 200 : 4096;
    size_t nn = (size_t)n * n;
    float *A = (float *)malloc(nn * 4), *B = (float *)malloc(nn * 4), *C = (float *)malloc(nn * 4);
    bench_fill_uniform(A, nn, 3, -1.0f, 1.0f);
    bench_fill_uniform(B, nn, 4, -1.0f, 1.0f);
    float *dA = dev_floats(nn), *dB = dev_floats(nn), *dC = dev_floats(nn);
    CK(cudaMemcpy(dA, A, nn * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B, nn * 4, cudaMemcpyHostToDevice));
    unsigned b = (n + TPB - 1) / TPB;
    for (int k = 0; k < 2; k++) {
      auto run = [&] {
        if (k == 0)
          matmul_naive<<<dim3(b, b), dim3(TPB, TPB)>>>(dA, dB, dC, n);
        else
          matmul_tiled<<<dim3(b, b), dim3(TPB, TPB)>>>(dA, dB, dC, n);
        CK_LAUNCH();
      };
      bench_poison(C, nn);
      CK(cudaMemcpy(dC, C, nn * 4, cudaMemcpyHostToDevice));
      run();
      CK(cudaMemcpy(C, dC, nn * 4, cudaMemcpyDeviceToHost));
      verdict(buf, sizeof buf, bench_matmul_error(A, B, C, n, 256, 5), 1e-5);
      int reps = reps_for(5);
      emit("compute", k ? "matmul tiled 16x16 4096^2" : "matmul naive 4096^2", n,
           time_events(run, 1, reps), reps, 0, 2.0 * n * (double)n * n, buf, "cuda events", "");
    }
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
    free(A), free(B), free(C);
  }
}

// ---- reductions -------------------------------------------------------------------------

static void reductions() {
  int n = g_check_only ? 1000003 : 1 << 28;
  float *h = (float *)malloc((size_t)n * 4);
  bench_fill_uniform(h, n, 9, -1.0f, 1.0f);
  double want = 0, mag = 0;
  for (int i = 0; i < n; i++) want += h[i], mag += fabs(h[i]);
  float *x = dev_floats(n), *d_out = dev_floats(1), result = NAN;
  CK(cudaMemcpy(x, h, (size_t)n * 4, cudaMemcpyHostToDevice));
  char buf[160];
  int reps = reps_for(20);

  void *temp = nullptr;
  size_t temp_bytes = 0;
  CK(cub::DeviceReduce::Sum(temp, temp_bytes, x, d_out, n));
  CK(cudaMalloc(&temp, temp_bytes));
  auto cub_sum = [&] {
    CK(cub::DeviceReduce::Sum(temp, temp_bytes, x, d_out, n));
    CK(cudaMemcpy(&result, d_out, 4, cudaMemcpyDeviceToHost));
  };
  cub_sum();
  verdict(buf, sizeof buf, fabs(result - want) / mag, 1e-5);
  emit("reductions", "sum 2^28 floats", n, time_events(cub_sum, 3, reps), reps, (double)n * 4,
       (double)n, buf, "cuda events", "cub::DeviceReduce::Sum, result to host");

  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float zero = 0.0f;
  auto atomic = [&] {
    CK(cudaMemcpy(d_out, &zero, 4, cudaMemcpyHostToDevice));
    atomic_sum<<<sms * 8, 256>>>(x, d_out, n);
    CK_LAUNCH();
    CK(cudaMemcpy(&result, d_out, 4, cudaMemcpyDeviceToHost));
  };
  result = NAN;
  atomic();
  verdict(buf, sizeof buf, fabs(result - want) / mag, 1e-5);
  emit("reductions", "atomic grid-stride sum 2^28 floats", n, time_events(atomic, 3, reps), reps,
       (double)n * 4, (double)n, buf, "cuda events",
       "seed 004's kernel, SMs x 8 blocks of 256; zero in, result out");
  CK(cudaFree(temp));
  CK(cudaFree(x));
  CK(cudaFree(d_out));
  free(h);
}

// ---- launch cost ------------------------------------------------------------------------

static void launch_cost() {
  int launches = g_check_only ? 1000 : 100000;
  float *p[16];
  for (int i = 0; i < 16; i++) p[i] = dev_floats(256);
  const char *names[3] = {"empty kernel, 0 args", "empty kernel, 4 array args",
                          "empty kernel, 16 array args"};
  for (int k = 0; k < 3; k++) {
    auto loop = [&] {
      for (int i = 0; i < launches; i++) {
        if (k == 0)
          empty0<<<1, 32>>>();
        else if (k == 1)
          empty4<<<1, 32>>>(p[0], p[1], p[2], p[3]);
        else
          empty16<<<1, 32>>>(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
                             p[11], p[12], p[13], p[14], p[15]);
      }
      CK_LAUNCH();
    };
    int reps = reps_for(5);
    double ms = time_host(loop, 1, reps);
    char note[96];
    snprintf(note, sizeof note, "%d launches of <<<1, 32>>>, host clock, per launch", launches);
    emit("launch", names[k], launches, ms / launches, reps, 0, 0, "ok", "host clock", note);
  }
  for (int i = 0; i < 16; i++) CK(cudaFree(p[i]));
}

// ---- copies -----------------------------------------------------------------------------

static void copies() {
  size_t n = g_check_only ? (size_t)1 << 20 : (size_t)1 << 28, bytes = n * 4;
  char buf[160];
  int reps = reps_for(10);
  for (int pinned = 0; pinned < 2; pinned++) {
    float *h = (float *)host_alloc(bytes, pinned), *back = (float *)malloc(bytes);
    bench_fill_uniform(h, n, 21, -1.0f, 1.0f);
    float *d = dev_floats(n);
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    bench_poison(back, n);
    CK(cudaMemcpy(back, d, bytes, cudaMemcpyDeviceToHost));
    int bad = memcmp(back, h, bytes) != 0;
    snprintf(buf, sizeof buf, bad ? "FAIL: round trip differs" : "ok");
    if (bad) g_failed = 1;
    const char *how = pinned ? "cudaMallocHost" : "malloc";
    emit("copies", pinned ? "host to device, pinned" : "host to device, pageable", n,
         time_events([&] { CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice)); }, 2, reps),
         reps, (double)bytes, 0, buf, "cuda events", how);
    emit("copies", pinned ? "device to host, pinned" : "device to host, pageable", n,
         time_events([&] { CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost)); }, 2, reps),
         reps, (double)bytes, 0, buf, "cuda events", how);
    if (pinned) {  // the device's own bandwidth, the reference for the streaming kernels
      float *d2 = dev_floats(n);
      CK(cudaMemcpy(d2, d, bytes, cudaMemcpyDeviceToDevice));
      CK(cudaMemcpy(back, d2, bytes, cudaMemcpyDeviceToHost));
      bad = memcmp(back, h, bytes) != 0;
      snprintf(buf, sizeof buf, bad ? "FAIL: copy differs" : "ok");
      if (bad) g_failed = 1;
      emit("copies", "device to device", n,
           time_events([&] { CK(cudaMemcpy(d2, d, bytes, cudaMemcpyDeviceToDevice)); }, 2, reps),
           reps, 2.0 * bytes, 0, buf, "cuda events", "cudaMemcpy; bytes read + bytes written");
      CK(cudaFree(d2));
    }
    CK(cudaFree(d));
    free(back);
    host_free(h, pinned);
  }
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--check") == 0)
      g_check_only = 1;
    else if (strncmp(argv[i], "--section=", 10) == 0)
      g_section = argv[i] + 10;
    else if (!bench_arg_long(argv[i], "--reps", &g_reps)) {
      fprintf(stderr, "usage: %s [--check] [--section=NAME] [--reps=R]\n", argv[0]);
      return 2;
    }
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
    fprintf(stderr, "cuda_bench: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int rt = 0, drv = 0;
  CK(cudaRuntimeGetVersion(&rt));
  CK(cudaDriverGetVersion(&drv));
  printf("{\"impl\": \"nvcc\", \"kind\": \"meta\", \"device\": \"%s\", \"sm\": %d, \"sms\": %d, "
         "\"nvcc\": \"%d.%d\", \"runtime\": \"%d.%d\", \"driver_cuda\": \"%d.%d\", "
         "\"memory_gib\": %.1f}\n",
         prop.name, prop.major * 10 + prop.minor, prop.multiProcessorCount, __CUDACC_VER_MAJOR__,
         __CUDACC_VER_MINOR__, rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10,
         prop.totalGlobalMem / 1073741824.0);
  if (wanted("streaming")) streaming();
  if (wanted("compute")) compute();
  if (wanted("reductions")) reductions();
  if (wanted("launch")) launch_cost();
  if (wanted("copies")) copies();
  fprintf(stderr, "cuda_bench: %s\n", g_failed ? "some checks FAILED" : "all checks passed");
  return g_failed ? 1 : 0;
}
