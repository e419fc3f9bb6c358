/* ufunc_errors_expect.c — ufunc() calls the runtime must refuse, each with a message naming
 * the ufunc and the argument (ufunc.cmake lists the expected messages), and calls on the fake
 * CUDA driver whose log shows the staging and the occupancy-based grid.
 * Usage: kt_ufunc_errors_expect <scenario>
 *
 * The plugin checks calls whose function it can see (tests/compile/diag_ufunc_call.c); the
 * mistakes here go through function pointers, which only the run time can resolve: a table
 * of operations picked by a command-line argument, as a calculator program would. */
#include <stdint.h>

#include "../runtime/fake_log.h"
#include "kernel_test.h"

__attribute__((vectorize("f32(f32, f32)", "i64(i64, i64)")))
double add(double a, double b) {
  return a + b;
}

__attribute__((vectorize("f32(f32)"))) float twice(float x) { return 2 * x; }

/* A kernel is no vectorize function. */
__attribute__((kernel)) void fill(float *x) { x[threadIdx.x] = 1; }

__attribute__((vectorize("u8(u8, u8)"))) unsigned char add_u8(unsigned char a, unsigned char b) {
  return (unsigned char)(a + b);
}

/* Crashes on one element (the CPU backend names it: the range entry is replayed one element
 * at a time to find it). */
__attribute__((vectorize("f32(f32)"))) float trap_at(float x) {
  if (x == 77777.0f) __builtin_trap();
  return x + 1;
}

static double plain_host_function(double a, double b) { return a - b; }

typedef double (*binary_op)(double, double);
typedef float (*unary_op)(float);

/* The operation a scenario uses, chosen at run time. */
static binary_op pick_binary(const char *name) {
  return strcmp(name, "plain") == 0 ? plain_host_function : add;
}
static unary_op pick_unary(void) { return twice; }

enum { N = 10 };

/* Once in the log: the launch of `kernel` (followed by a space: the name ends there) whose
 * parameters start with `params`. */
static void check_launch(const char *kernel, const char *params) {
  char needle[256];
  snprintf(needle, sizeof needle, "cuLaunchKernel %s ", kernel);
  const char *log = read_log();
  int found = 0;
  for (const char *line = strstr(log, needle); line; line = strstr(line + 1, needle)) {
    const char *end = strchr(line, '\n');
    const char *p = strstr(line, "params=");
    found += p && (!end || p < end) && strncmp(p + 7, params, strlen(params)) == 0;
  }
  KT_CHECK(found == 1, "%d launches of %s with params=%s; log:\n%s", found, kernel, params, log);
}

/* More elements than one launch takes (2^30: the kernels' 32-bit index): two launches, the
 * second on the arrays from element 2^30 on. Each shape of call runs its kernel: all arrays
 * the _arrays variant, only the first input an array the _first_array variant, any other mix
 * the general kernel, which tests the scalar mask. */
static void check_chunks(void) {
  const long long big = (1ll << 30) + 5;
  unsigned char *a = device_array(unsigned char, big), *out = device_array(unsigned char, big);
  unsigned long long pa = (unsigned long long)(uintptr_t)a, po = (unsigned long long)(uintptr_t)out;
  unsigned long long half = 1ull << 30;
  ufunc(add_u8, big, out, a, a);
  ufunc(add_u8, big, out, a, (unsigned char)1);
  ufunc(add_u8, big, out, (unsigned char)2, a);
  char p[6][160];
  /* n, out, (in, scalar byte) per input, mask */
  snprintf(p[0], sizeof p[0], "0x40000000,0x%llx,0x%llx,00,0x%llx,00,0x0\n", po, pa, pa);
  snprintf(p[1], sizeof p[1], "0x5,0x%llx,0x%llx,00,0x%llx,00,0x0\n", po + half, pa + half,
           pa + half);
  snprintf(p[2], sizeof p[2], "0x40000000,0x%llx,0x%llx,00,0x0,01,0x2\n", po, pa);
  snprintf(p[3], sizeof p[3], "0x5,0x%llx,0x%llx,00,0x0,01,0x2\n", po + half, pa + half);
  snprintf(p[4], sizeof p[4], "0x40000000,0x%llx,0x0,02,0x%llx,00,0x1\n", po, pa);
  snprintf(p[5], sizeof p[5], "0x5,0x%llx,0x0,02,0x%llx,00,0x1\n", po + half, pa + half);
  check_launch("__kp_vec_add_u8_0_arrays", p[0]);
  check_launch("__kp_vec_add_u8_0_arrays", p[1]);
  check_launch("__kp_vec_add_u8_0_first_array", p[2]);
  check_launch("__kp_vec_add_u8_0_first_array", p[3]);
  check_launch("__kp_vec_add_u8_0", p[4]);
  check_launch("__kp_vec_add_u8_0", p[5]);
  KT_CHECK(count(read_log(), "cuLaunchKernel __kp_vec_add_u8_0") == 6, "six launches; log:\n%s",
           read_log());
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (strcmp(s, "fake_chunks") == 0 && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("ufunc_errors");
  static float xf[N], yf[N], of[N];
  static double xd[N], od[N];
  static int64_t xl[N], ol[N];
  for (int i = 0; i < N; i++) xf[i] = (float)i, yf[i] = 1, xd[i] = i, xl[i] = i;
  binary_op op = pick_binary(s);
  unary_op uop = pick_unary();

  if (strcmp(s, "launched") == 0) {
    launch(twice, 1, 32)(xf[0]); /* a vectorize function is no kernel */
  } else if (strcmp(s, "kernel") == 0) {
    void (*kf)(float *) = fill;
    ufunc(kf, N, of, xf);
  } else if (strcmp(s, "mismatch") == 0) {
    ufunc(op, N, od, xd, xd); /* f64 has no signature */
  } else if (strcmp(s, "mixed_arrays") == 0) {
    ufunc(op, N, of, xf, xl); /* f32 and i64 arrays: no one signature has both */
  } else if (strcmp(s, "count") == 0) {
    ufunc(uop, N, of, xf, yf); /* twice takes one input */
  } else if (strcmp(s, "plain") == 0) {
    ufunc(op, N, od, xd, xd);
  } else if (strcmp(s, "null_function") == 0) {
    binary_op none = NULL;
    ufunc(none, N, of, xf, yf);
  } else if (strcmp(s, "negative_n") == 0) {
    ufunc(add, -5, of, xf, yf);
  } else if (strcmp(s, "scalar_output") == 0) {
    ufunc(op, N, 1.5f, xf, yf);
  } else if (strcmp(s, "const_output") == 0) {
    const float *ro = of;
    ufunc(op, N, ro, xf, yf);
  } else if (strcmp(s, "null_input") == 0) {
    float *missing = NULL;
    ufunc(add, N, of, missing, yf);
  } else if (strcmp(s, "small_device") == 0) {
    float *d = device_array(float, N - 1);
    ufunc(add, N, of, xf, d);
  } else if (strcmp(s, "small_device_output") == 0) {
    int64_t *d = device_array(int64_t, N + 4);
    ufunc(add, N, d + 5, xl, 1);
  } else if (strcmp(s, "return_mode") == 0) {
    kp_set_error_mode(KP_ERRORS_RETURN);
    KT_CHECK(ufunc(op, N, od, xd, xd) == KP_ERROR_INVALID_VALUE, "mismatch in return mode");
    KT_CHECK(strstr(kp_last_error_message(), "no signature of 'op' matches"), "message: %s",
             kp_last_error_message());
    KT_CHECK(kp_last_error() == KP_ERROR_INVALID_VALUE, "kp_last_error");
    KT_CHECK(ufunc(add, N, of, xf, yf) == KP_SUCCESS, "a good call after the error");
    KT_CHECK(of[3] == 4.0f, "result after the error: %g", of[3]);
  } else if (strcmp(s, "fake_staged") == 0) {
    ufunc(add, N, ol, xl, 3); /* host arrays on the fake driver: staged */
  } else if (strcmp(s, "fake_large") == 0) {
    enum { BIG = 1000000 };
    float *d_x = device_array(float, BIG), *d_out = device_array(float, BIG);
    ufunc(add, BIG, d_out, d_x, 2.0f);
    ufunc(add, 100, d_out, d_x, d_x); /* small n: one block of whole warps */
  } else if (strcmp(s, "fake_chunks") == 0) {
    check_chunks();
  } else if (strcmp(s, "element_fault") == 0 || strcmp(s, "element_fault_small") == 0) {
    /* 200000 elements go to the workers; 10000 (x from 70000: element 7777 traps) run on the
     * calling thread alone. */
    int small = strcmp(s, "element_fault_small") == 0;
    long long n = small ? 10000 : 200000;
    float *x = device_array(float, n), *out = device_array(float, n);
    for (long long i = 0; i < n; i++) x[i] = (float)(small ? 70000 + i : i);
    ufunc(trap_at, n, out, x);
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", s);
    return 2;
  }
  printf("ufunc_errors %s: finished\n", s);
  return 0;
}
