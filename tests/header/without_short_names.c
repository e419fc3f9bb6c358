/* without_short_names.c — with KP_NO_SHORT_NAMES, a program keeps its own `grid`,
 * `syncthreads`, `threadIdx`, `launch`, `atomic_add`, `to_device`, `ufunc`, ... (each a name
 * that kernplug/short_names.h would make a macro) and uses kernplug through the kp_ names:
 * kernels with indexing, a barrier, shared memory and atomics, launched with kp_launch and
 * kp_dim3, memory moved with kp_to_device/kp_copy_to_host, and a ufunc. Without the macro,
 * each definition below would be rewritten by a short name and this file would not compile. */
#define KP_NO_SHORT_NAMES
#include "../kernels/kernel_test.h"

/* The program's own meanings of kernplug's short names. */
typedef struct grid {
  int rows, cols;
} grid_t;
static int grid(grid_t g) { return g.rows * g.cols; }
static int gridsize(int n) { return 2 * n; }
static int syncthreads_calls;
static void syncthreads(void) { syncthreads_calls++; }
static const char *threadIdx = "the program's thread index";
static int blockDim[3] = {1, 2, 3};
static const int warpsize = 64;
static int launch(const char *what) { return what[0] == 'r'; }
static int dim3(int x, int y, int z) { return x * y * z; }
static int atomic_add(int *p, int v) { return *p += v; }
static int to_device(int x) { return -x; }
static int copy_to_host(int x) { return x + 1; }
static int ufunc(int x) { return x * 3; }
static int activemask(void) { return 0x5; }

#define N 1000
#define THREADS 64

__attribute__((kernel)) void sum_blocks(const int *in, int *out, int *total, int n) {
  static __attribute__((shared)) int partial[THREADS];
  int i = kp_grid(1);
  unsigned t = kp_thread_idx().x;
  partial[t] = i < n ? in[i] : 0;
  kp_syncthreads();
  for (unsigned half = kp_block_dim().x / 2; half > 0; half /= 2) {
    if (t < half)
      partial[t] += partial[t + half];
    kp_syncthreads();
  }
  if (t == 0) {
    out[kp_block_idx().x] = partial[0];
    kp_atomic_add(total, partial[0]);
  }
}

__attribute__((vectorize("float32(float32, float32)"))) float scaled(float x, float a) {
  return a * x;
}

int main(void) {
  kt_start("without_short_names");
  int in[N], blocks = (N + THREADS - 1) / THREADS, out[(N + THREADS - 1) / THREADS], total = 0;
  for (int i = 0; i < N; i++)
    in[i] = i % 7;
  int *d_in = kp_to_device(in, N);
  int *d_out = kp_device_array(int, blocks);
  int *d_total = kp_to_device(&total, 1);
  kp_launch(sum_blocks, kp_dim3(blocks), kp_dim3(THREADS))(d_in, d_out, d_total, N);
  kp_copy_to_host(out, d_out, blocks);
  kp_copy_to_host(&total, d_total, 1);
  int want_total = 0;
  for (int b = 0; b < blocks; b++) {
    int want = 0;
    for (int i = b * THREADS; i < N && i < (b + 1) * THREADS; i++)
      want += in[i];
    KT_CHECK(out[b] == want, "block %d: %d, expected %d", b, out[b], want);
    want_total += want;
  }
  KT_CHECK(total == want_total, "total %d, expected %d", total, want_total);

  float x[N], y[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)i;
  KT_CHECK(kp_ufunc(scaled, N, y, x, 0.5f) == KP_SUCCESS, "ufunc: %s", kp_last_error_message());
  for (int i = 0; i < N; i++)
    KT_CHECK(y[i] == 0.5f * (float)i, "y[%d] = %g", i, y[i]);

  int counter = 1;
  syncthreads();
  KT_CHECK(grid((grid_t){3, 4}) == 12 && gridsize(5) == 10 && syncthreads_calls == 1 &&
               threadIdx[0] == 't' && blockDim[2] == 3 && warpsize == 64 && launch("rocket") &&
               dim3(2, 3, 4) == 24 && atomic_add(&counter, 2) == 3 && to_device(4) == -4 &&
               copy_to_host(4) == 5 && ufunc(4) == 12 && activemask() == 5,
           "the program's own definitions");
  kp_free(d_in);
  kp_free(d_out);
  kp_free(d_total);
  printf("without_short_names: OK\n");
  return 0;
}
