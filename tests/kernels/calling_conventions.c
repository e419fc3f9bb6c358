/* calling_conventions.c — device code with every x86-64 calling convention clang accepts for
 * it: kernels (with struct parameters that ms_abi passes by reference, that regcall splits
 * into scalars, that the default passes as i24 or in memory), helpers, a kernel split at its
 * barrier, vectorize and guvectorize functions, a reduce function's helper. Each convention
 * used to be dropped from the plugin's calls, which the optimiser turns into no call at all:
 * launches that did nothing and reported success. A thread's changes to its by-value structs
 * stay in its own copy. */
#include "kernel_test.h"

typedef struct rgb { /* 3 bytes: i24 by default, by reference under ms_abi */
  char r, g, b;
} rgb;
typedef struct s12 { /* 12 bytes: two pieces by default, by reference under ms_abi */
  int a, b, c;
} s12;
typedef struct s40 { /* 40 bytes: in memory (byval) by default, five doubles under regcall */
  double d[5];
} s40;

enum { N = 200 };

/* out[i] for the kernels below; `s` and `w` are changed by each thread in its own copy. */
static int expected(int i) {
  return 7 + 20 + (1 + 2 * 2 + 3 * 3) + (100 + i) + 300 + (int)(i % 5 + 1.0) + i + i / 2;
}

#define HELPER_AND_KERNEL(cc)                                                                  \
  __attribute__((cc, noinline)) static int helper_##cc(int a, double b) { return a + (int)b; } \
  __attribute__((kernel, cc)) void k_##cc(int *out, int b, double c, rgb p, s12 s, s40 w,     \
                                          int n) {                                             \
    int i = grid(1);                                                                           \
    if (i >= n) return;                                                                        \
    s.a += i;                                                                                  \
    w.d[i % 5] += 1.0;                                                                         \
    out[i] = b + (int)c + p.r + p.g * 2 + p.b * 3 + s.a + s.c + (int)w.d[i % 5] +             \
             helper_##cc(i, 0.5 * i);                                                          \
  }
#define CONVENTIONS(X)                                                                         \
  X(ms_abi) X(sysv_abi) X(vectorcall) X(regcall) X(preserve_most) X(preserve_all)             \
  X(preserve_none) X(intel_ocl_bicc)
CONVENTIONS(HELPER_AND_KERNEL)

/* Split at their barrier on the CPU (fibers in the .fibers build), with structs by reference
 * (ms_abi) or in memory (byval), which each thread changes in its own copy. */
#define REVERSE(name, cc)                                                                      \
  __attribute__((kernel, cc)) void name(int *out, s12 s, s40 w) {                              \
    static __attribute__((shared)) int tile[64];                                               \
    int t = (int)threadIdx.x;                                                                  \
    s.a += t;                                                                                  \
    w.d[t % 5] += t;                                                                           \
    tile[t] = s.a;                                                                             \
    syncthreads();                                                                             \
    out[blockIdx.x * 64 + t] = tile[63 - t] + s.c + (int)w.d[t % 5] - t % 5;                   \
  }
REVERSE(reverse_ms_abi, ms_abi)
REVERSE(reverse_sysv_abi, sysv_abi)

__attribute__((vectorize("f32(f32)"), ms_abi)) float twice(float x) { return 2 * x; }
__attribute__((vectorize("f64(f64, i32)"), vectorcall)) double scaled(double x, int k) {
  return x * k;
}
__attribute__((vectorize("i32(i32)"), regcall)) int plus1(int x) { return x + 1; }
__attribute__((vectorize("f32(f32)"), swiftcall)) float neg(float x) { return -x; }
__attribute__((guvectorize("(n)->()"), ms_abi)) void sum_row(const int *a, int *s, int n) {
  int t = 0;
  for (int j = 0; j < n; j++) t += a[j];
  *s = t;
}
/* A reduce function keeps the default convention (kp_reduce calls it): its helper need not. */
__attribute__((regcall)) static int larger(int a, int b) { return a > b ? a : b; }
__attribute__((reduce)) int maxi(int a, int b) { return larger(a, b); }

static void check_kernel(void (*launcher)(int *), const char *name) {
  int h[N];
  int *d = device_array(int, N);
  for (int i = 0; i < N; i++) h[i] = -1;
  copy_to_device(d, h, N);
  launcher(d);
  copy_to_host(h, d, N);
  kp_free(d);
  for (int i = 0; i < N; i++)
    KT_CHECK(h[i] == expected(i), "%s: out[%d] = %d, expected %d", name, i, h[i], expected(i));
}

static const rgb P = {1, 2, 3};
static const s12 S = {100, -5, 300};
static const s40 W = {{0, 1, 2, 3, 4}};
#define LAUNCHER(cc)                                                                           \
  static void launch_##cc(int *d) { launch(k_##cc, (N + 63) / 64, 64)(d, 7, 20.5, P, S, W, N); }
CONVENTIONS(LAUNCHER)

int main(void) {
  kt_start("calling_conventions");
#define CHECK_KERNEL(cc) check_kernel(launch_##cc, #cc);
  CONVENTIONS(CHECK_KERNEL)

  int h[128], *d = device_array(int, 128);
  for (int cc = 0; cc < 2; cc++) {
    if (cc == 0)
      launch(reverse_ms_abi, 2, 64)(d, S, W);
    else
      launch(reverse_sysv_abi, 2, 64)(d, S, W);
    copy_to_host(h, d, 128);
    for (int i = 0; i < 128; i++) {
      int t = i % 64, want = 100 + 63 - t + 300 + t;
      KT_CHECK(h[i] == want, "reverse %d: out[%d] = %d, expected %d", cc, i, h[i], want);
    }
  }
  kp_free(d);

  float x[N], y[N];
  double xd[N], yd[N];
  int xi[N], yi[N];
  for (int i = 0; i < N; i++) x[i] = (float)i, xd[i] = i, xi[i] = i;
  ufunc(twice, N, y, x);
  for (int i = 0; i < N; i++) KT_CHECK(y[i] == 2.0f * i, "twice: %d -> %g", i, y[i]);
  ufunc(scaled, N, yd, xd, 3);
  for (int i = 0; i < N; i++) KT_CHECK(yd[i] == 3.0 * i, "scaled: %d -> %g", i, yd[i]);
  ufunc(plus1, N, yi, xi);
  for (int i = 0; i < N; i++) KT_CHECK(yi[i] == i + 1, "plus1: %d -> %d", i, yi[i]);
  ufunc(neg, N, y, x);
  for (int i = 0; i < N; i++) KT_CHECK(y[i] == -(float)i, "neg: %d -> %g", i, y[i]);

  int rows[10 * 20], sums[10];
  for (int i = 0; i < 10 * 20; i++) rows[i] = i;
  gufunc(sum_row, 10, rows, sums, 20);
  for (int r = 0; r < 10; r++)
    KT_CHECK(sums[r] == 20 * 20 * r + 190, "sum_row: row %d -> %d", r, sums[r]);

  KT_CHECK(kp_reduce(maxi, xi, N) == N - 1, "reduce maxi");
  puts("calling_conventions: OK");
  return 0;
}

/* ms_abi's by-reference structs reach the device kernel as bytes (tests/compile:
 * compile.ptx.calling_conventions):
 * PTX-LABEL: .visible .entry k_ms_abi(
 * PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}k_ms_abi_param_0,
 * PTX-NEXT: .param .u32 k_ms_abi_param_1,
 * PTX-NEXT: .param .f64 k_ms_abi_param_2,
 * PTX-NEXT: .param .align 1 .b8 k_ms_abi_param_3[3],
 * PTX-NEXT: .param .align 4 .b8 k_ms_abi_param_4[12],
 * PTX-NEXT: .param .align 8 .b8 k_ms_abi_param_5[40],
 * PTX-NEXT: .param .u32 k_ms_abi_param_6
 * PTX-LABEL: .visible .entry k_sysv_abi(
 * PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}k_sysv_abi_param_0,
 * PTX-NEXT: .param .u32 k_sysv_abi_param_1,
 * PTX-NEXT: .param .f64 k_sysv_abi_param_2,
 * PTX-NEXT: .param .u32 k_sysv_abi_param_3,
 */
