/* kp_bench.c — the kernplug side of the GPU benchmark (bench/gpu/run.sh runs it next to
 * cuda_bench.cu, launch_raw.c and numba_bench.py on one device).
 *
 *   kp_bench [--check] [--section=NAME] [--reps=R]
 *
 * Sections: streaming (vector add, saxpy, gaussian_pdf ufunc, seed 002's hidden layer end to
 * end with pageable and pinned host memory), compute (seed 000's prime check over 2..1e6,
 * naive and tiled matmul at 4096^2), reductions (kp_reduce against the seed's atomic
 * grid-stride sum, 2^28 floats), launch (an empty kernel with 0, 4 and 16 arguments, 10^5
 * launches), copies (host to device and back, pageable and pinned).
 *
 * Every case is checked against a host reference (outputs poisoned with NaN first) before
 * it is timed; then it runs a few times to warm up and R times under CUDA events, and one
 * JSON line per case goes to stdout with the median. A failed check prints "check": "FAIL
 * ..." and the program exits 1 at the end. --check uses small sizes and one repetition and
 * also runs on the CPU backend (host clock instead of events): a self-test, not a
 * measurement. Progress goes to stderr. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cu_helpers.h"
#include "kernplug.h"
#include "kp_kernels.h"

static int g_gpu, g_check_only, g_failed;
static long long g_reps; /* --reps=R: overrides every case's default count */
static const char *g_section;

/* ---- timing: CUDA events on the default stream (host clock on the CPU backend) ---------- */

typedef struct timer {
  cuh_event a, b;
  double t0;
} timer;

static void timer_init(timer *t) {
  if (g_gpu) {
    cuh_check(cuh.event_create(&t->a, 0), "cuEventCreate");
    cuh_check(cuh.event_create(&t->b, 0), "cuEventCreate");
  }
}
static void timer_start(timer *t) {
  if (g_gpu)
    cuh_check(cuh.event_record(t->a, NULL), "cuEventRecord");
  else
    t->t0 = bench_now_ms();
}
static double timer_stop_ms(timer *t) {
  if (!g_gpu) {
    kp_synchronize();
    return bench_now_ms() - t->t0;
  }
  float ms = 0;
  cuh_check(cuh.event_record(t->b, NULL), "cuEventRecord");
  cuh_check(cuh.event_synchronize(t->b), "cuEventSynchronize");
  cuh_check(cuh.event_elapsed(&ms, t->a, t->b), "cuEventElapsedTime");
  return ms;
}

typedef void (*case_fn)(void *ctx);

/* Median of `reps` timed runs after `warm` untimed ones. */
static double time_case(case_fn f, void *ctx, int warm, int reps) {
  timer t;
  timer_init(&t);
  double ms[BENCH_MAX_REPS];
  for (int i = 0; i < warm; i++) f(ctx);
  kp_synchronize();
  if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
  for (int r = 0; r < reps; r++) {
    timer_start(&t);
    f(ctx);
    ms[r] = timer_stop_ms(&t);
  }
  return bench_median(ms, reps);
}

/* Median of `reps` host-clock timings of f (for code that ends by waiting for the device
 * itself: end-to-end runs, launch loops). */
static double time_case_host(case_fn f, void *ctx, int warm, int reps) {
  double ms[BENCH_MAX_REPS];
  for (int i = 0; i < warm; i++) f(ctx);
  kp_synchronize();
  if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now_ms();
    f(ctx);
    kp_synchronize();
    ms[r] = bench_now_ms() - t0;
  }
  return bench_median(ms, reps);
}

/* ---- output -------------------------------------------------------------------------------- */

static int g_host_timed; /* the next emit's figure came from the host clock */

static void emit(const char *section, const char *name, long long n, double ms, int reps,
                 double bytes, double flops, const char *check, const char *note) {
  const char *timer = g_gpu && !g_host_timed ? "cuda events" : "host clock";
  g_host_timed = 0;
  printf("{\"impl\": \"kernplug\", \"section\": \"%s\", \"case\": \"%s\", \"n\": %lld, "
         "\"ms\": %.6f, \"reps\": %d, \"bytes\": %.0f, \"flops\": %.0f, \"check\": \"%s\", "
         "\"timer\": \"%s\", \"note\": \"%s\"}\n",
         section, name, n, ms, reps, bytes, flops, check, timer, note ? note : "");
  fflush(stdout);
  fprintf(stderr, "kp_bench: %-10s %-40s %10.4f ms  %s\n", section, name, ms, check);
}

/* "ok" or "FAIL: ..." into buf; counts failures. */
static const char *verdict(char *buf, size_t size, const char *what, double err, double tol) {
  if (err <= tol) {
    snprintf(buf, size, "ok (rel. error %.2g)", err);
    return buf;
  }
  snprintf(buf, size, "FAIL: %s: relative error %.3g > %.3g", what, err, tol);
  g_failed = 1;
  return buf;
}

static int wanted(const char *section) {
  return !g_section || strcmp(g_section, section) == 0;
}

static int reps_for(int full) { return g_check_only ? 1 : g_reps ? (int)g_reps : full; }

/* ---- streaming --------------------------------------------------------------------------- */

typedef struct stream_ctx {
  int n;
  float *x, *y, *out;
} stream_ctx;

static unsigned blocks256(long long n) { return (unsigned)((n + 255) / 256); }

static void run_add(void *p) {
  stream_ctx *c = p;
  launch(vec_add, blocks256(c->n), 256)(c->x, c->y, c->out, c->n);
}
static void run_saxpy(void *p) {
  stream_ctx *c = p;
  launch(saxpy, blocks256(c->n), 256)(2.0f, c->x, c->y, c->n);
}
static void run_gauss(void *p) {
  stream_ctx *c = p;
  ufunc(gaussian_pdf, c->n, c->out, c->x, 0.0f, 1.0f);
}

/* Seed 002's create_hidden_layer: inputs to the device, three kernels of 512 threads,
 * the result back to a host array. */
typedef struct hidden_ctx {
  int n;
  const float *greyscales, *weights;
  float *out;
} hidden_ctx;

static void create_hidden_layer(void *p) {
  hidden_ctx *c = p;
  int n = c->n;
  float *g_d = to_device(c->greyscales, n), *w_d = to_device(c->weights, n);
  float *normalized = device_array(float, n), *weighted = device_array(float, n);
  float *activated = device_array(float, n);
  unsigned threads = 512, blocks = (unsigned)((n + threads - 1) / threads);
  launch(hl_normalize, blocks, threads)(g_d, normalized, n);
  launch(hl_weigh, blocks, threads)(normalized, w_d, weighted, n);
  launch(hl_activate, blocks, threads)(weighted, activated, n);
  copy_to_host(c->out, activated, n);
  kp_free(g_d), kp_free(w_d), kp_free(normalized), kp_free(weighted), kp_free(activated);
}

/* Page-locked host memory: kernplug's pinned_array where this kernplug has it, else the
 * driver's cuMemAllocHost (noted in the output), else (CPU backend) malloc. */
#if defined(kp_pinned_array)
#define BENCH_PINNED_HOW "pinned_array"
static float *pinned_floats(size_t n) { return pinned_array(float, n); }
static void pinned_free(float *p) { kp_free(p); }
#else
/* TODO(bench): this kernplug has no pinned_array yet; switch to it when it lands. */
#define BENCH_PINNED_HOW "cuMemAllocHost (TODO: pinned_array when kernplug has it)"
static float *pinned_floats(size_t n) {
  void *p = NULL;
  if (g_gpu && cuh.mem_alloc_host)
    cuh_check(cuh.mem_alloc_host(&p, n * sizeof(float)), "cuMemAllocHost");
  else
    p = malloc(n * sizeof(float));
  return p;
}
static void pinned_free(float *p) {
  if (g_gpu && cuh.mem_free_host)
    cuh.mem_free_host(p);
  else
    free(p);
}
#endif

static void hidden_layer_case(int pinned) {
  int n = g_check_only ? 1000003 : 100000000;
  float *grey, *w, *out;
  if (pinned) {
    grey = pinned_floats((size_t)n), w = pinned_floats((size_t)n), out = pinned_floats((size_t)n);
  } else {
    grey = malloc((size_t)n * sizeof *grey), w = malloc((size_t)n * sizeof *w);
    out = malloc((size_t)n * sizeof *out);
  }
  if (!grey || !w || !out) {
    fprintf(stderr, "kp_bench: out of host memory\n");
    exit(1);
  }
  bench_hidden_layer_inputs(grey, w, n);
  hidden_ctx c = {n, grey, w, out};
  bench_poison(out, (size_t)n);
  create_hidden_layer(&c);
  char buf[160];
  const char *name = pinned ? "hidden layer 100M, end to end, pinned"
                            : "hidden layer 100M, end to end, pageable";
  verdict(buf, sizeof buf, name, bench_hidden_layer_error(grey, w, out, n), 1e-5);
  int reps = reps_for(7);
  double ms = time_case_host(create_hidden_layer, &c, 1, reps);
  g_host_timed = 1;
  /* bytes that cross the bus: two inputs in, one output back */
  emit("streaming", name, n, ms, reps, 3.0 * n * sizeof(float), 0, buf,
       pinned ? BENCH_PINNED_HOW : "malloc");
  if (pinned) {
    pinned_free(grey), pinned_free(w), pinned_free(out);
  } else {
    free(grey), free(w), free(out);
  }
}

static void streaming(void) {
  int n = g_check_only ? 1000003 : 1 << 28;
  size_t bytes = (size_t)n * sizeof(float);
  float *hx = malloc(bytes), *hy = malloc(bytes), *hout = malloc(bytes);
  double *want = malloc((size_t)n * sizeof *want);
  if (!hx || !hy || !hout || !want) {
    fprintf(stderr, "kp_bench: out of host memory\n");
    exit(1);
  }
  bench_fill_uniform(hx, (size_t)n, 1, -1.0f, 1.0f);
  bench_fill_uniform(hy, (size_t)n, 2, -1.0f, 1.0f);
  stream_ctx c = {n, to_device(hx, n), to_device(hy, n), device_array(float, n)};
  char buf[160];
  int reps = reps_for(20);

  /* vector add */
  bench_poison(hout, (size_t)n);
  copy_to_device(c.out, hout, n);
  run_add(&c);
  copy_to_host(hout, c.out, n);
  for (int i = 0; i < n; i++) want[i] = (double)hx[i] + hy[i];
  verdict(buf, sizeof buf, "vector add", bench_rel_err_f32(hout, want, (size_t)n), 1e-6);
  emit("streaming", "vector add", n, time_case(run_add, &c, 3, reps), reps, 3.0 * bytes,
       1.0 * n, buf, "");

  /* saxpy, checked from the original y, then timed in place */
  run_saxpy(&c);
  copy_to_host(hout, c.y, n);
  for (int i = 0; i < n; i++) want[i] = 2.0 * hx[i] + hy[i];
  verdict(buf, sizeof buf, "saxpy", bench_rel_err_f32(hout, want, (size_t)n), 1e-6);
  emit("streaming", "saxpy", n, time_case(run_saxpy, &c, 3, reps), reps, 3.0 * bytes,
       2.0 * n, buf, "");

  /* gaussian_pdf ufunc on device arrays */
  bench_poison(hout, (size_t)n);
  copy_to_device(c.out, hout, n);
  run_gauss(&c);
  copy_to_host(hout, c.out, n);
  for (int i = 0; i < n; i++) want[i] = exp(-0.5 * (double)hx[i] * hx[i]) / 2.5066282746310002;
  verdict(buf, sizeof buf, "gaussian_pdf", bench_rel_err_f32(hout, want, (size_t)n), 1e-6);
  emit("streaming", "gaussian_pdf ufunc", n, time_case(run_gauss, &c, 3, reps), reps,
       2.0 * bytes, 0, buf, "ufunc() on device arrays");

  kp_free(c.x), kp_free(c.y), kp_free(c.out);
  free(hx), free(hy), free(hout), free(want);

  hidden_layer_case(0);
  hidden_layer_case(1);
}

/* ---- compute ----------------------------------------------------------------------------- */

typedef struct prime_ctx {
  int n;
  int *nums, *result;
} prime_ctx;
static void run_primes(void *p) {
  prime_ctx *c = p;
  ufunc(check_prime, c->n, c->result, c->nums);
}

typedef struct mm_ctx {
  int n;
  float *A, *B, *C;
} mm_ctx;
static void run_naive(void *p) {
  mm_ctx *c = p;
  unsigned b = (unsigned)(c->n + BENCH_TPB - 1) / BENCH_TPB;
  launch(matmul_naive, dim3(b, b), dim3(BENCH_TPB, BENCH_TPB))(c->A, c->B, c->C, c->n);
}
static void run_tiled(void *p) {
  mm_ctx *c = p;
  unsigned b = (unsigned)(c->n + BENCH_TPB - 1) / BENCH_TPB;
  launch(matmul_tiled, dim3(b, b), dim3(BENCH_TPB, BENCH_TPB))(c->A, c->B, c->C, c->n);
}

static void compute(void) {
  char buf[160];
  /* prime check over 2 .. 1e6 (seed 000 at a larger range); reference: a sieve */
  {
    int hi = g_check_only ? 20000 : 1000000, n = hi - 1;
    int *nums = malloc((size_t)n * sizeof *nums), *res = malloc((size_t)n * sizeof *res);
    char *composite = bench_composites(hi);
    if (!nums || !res) exit(1);
    for (int i = 0; i < n; i++) nums[i] = i + 2;
    prime_ctx c = {n, to_device(nums, n), device_array(int, n)};
    for (int i = 0; i < n; i++) res[i] = -1;
    copy_to_device(c.result, res, n);
    run_primes(&c);
    copy_to_host(res, c.result, n);
    long primes, bad = bench_primes_wrong(nums, res, n, composite, &primes);
    snprintf(buf, sizeof buf, bad ? "FAIL: %ld of %d wrong" : "ok (%ld primes)", bad ? bad : primes, n);
    if (bad) g_failed = 1;
    int reps = reps_for(5);
    emit("compute", "prime check 2..1e6 (ufunc)", n, time_case(run_primes, &c, 1, reps), reps, 0,
         0, buf, "");
    kp_free(c.nums), kp_free(c.result);
    free(nums), free(res), free(composite);
  }
  /* matmuls at 4096^2 */
  {
    int n = g_check_only ? 200 : 4096;
    size_t nn = (size_t)n * n;
    float *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    if (!A || !B || !C) exit(1);
    bench_fill_uniform(A, nn, 3, -1.0f, 1.0f);
    bench_fill_uniform(B, nn, 4, -1.0f, 1.0f);
    mm_ctx c = {n, to_device(A, nn), to_device(B, nn), device_array(float, nn)};
    case_fn fns[2] = {run_naive, run_tiled};
    const char *names[2] = {"matmul naive 4096^2", "matmul tiled 16x16 4096^2"};
    for (int k = 0; k < 2; k++) {
      bench_poison(C, nn);
      copy_to_device(c.C, C, nn);
      fns[k](&c);
      copy_to_host(C, c.C, nn);
      verdict(buf, sizeof buf, names[k], bench_matmul_error(A, B, C, n, 256, 5), 1e-5);
      int reps = reps_for(5);
      emit("compute", names[k], n, time_case(fns[k], &c, 1, reps), reps, 0,
           2.0 * n * (double)n * n, buf, "");
    }
    kp_free(c.A), kp_free(c.B), kp_free(c.C);
    free(A), free(B), free(C);
  }
}

/* ---- reductions ---------------------------------------------------------------------------- */

typedef struct red_ctx {
  int n;
  unsigned blocks;
  float *x, *out, result;
} red_ctx;
static void run_kp_reduce(void *p) {
  red_ctx *c = p;
  c->result = kp_reduce(sum_f32, c->x, c->n);
}
static void run_atomic(void *p) {
  red_ctx *c = p;
  float zero = 0.0f;
  copy_to_device(c->out, &zero, 1);
  launch(atomic_sum, c->blocks, 256)(c->x, c->out, c->n);
  copy_to_host(&c->result, c->out, 1);
}

static void reductions(void) {
  int n = g_check_only ? 1000003 : 1 << 28;
  float *h = malloc((size_t)n * sizeof *h);
  if (!h) exit(1);
  bench_fill_uniform(h, (size_t)n, 9, -1.0f, 1.0f);
  double want = 0, mag = 0;
  for (int i = 0; i < n; i++) want += h[i], mag += fabs(h[i]);
  /* a grid that fills the device: 2048 threads per SM in blocks of 256 */
  unsigned blocks = g_gpu ? (unsigned)cuh_attribute(CUH_ATTR_SM_COUNT) * 8 : 64;
  red_ctx c = {n, blocks, to_device(h, n), device_array(float, 1), NAN};
  char buf[160];
  case_fn fns[2] = {run_kp_reduce, run_atomic};
  const char *names[2] = {"sum 2^28 floats", "atomic grid-stride sum 2^28 floats"};
  const char *notes[2] = {"kp_reduce, result to host",
                          "seed 004's kernel, SMs x 8 blocks of 256; zero in, result out"};
  for (int k = 0; k < 2; k++) {
    c.result = NAN;
    fns[k](&c);
    verdict(buf, sizeof buf, names[k], fabs(c.result - want) / mag, 1e-5);
    int reps = reps_for(20);
    emit("reductions", names[k], n, time_case(fns[k], &c, 3, reps), reps,
         (double)n * sizeof(float), (double)n, buf, notes[k]);
  }
  kp_free(c.x), kp_free(c.out);
  free(h);
}

/* ---- launch cost --------------------------------------------------------------------------- */

typedef struct launch_ctx {
  int launches;
  float *p[16];
} launch_ctx;
static void loop0(void *v) {
  launch_ctx *c = v;
  for (int i = 0; i < c->launches; i++) launch(empty0, 1, 32)();
}
static void loop4(void *v) {
  launch_ctx *c = v;
  float **p = c->p;
  for (int i = 0; i < c->launches; i++) launch(empty4, 1, 32)(p[0], p[1], p[2], p[3]);
}
static void loop16(void *v) {
  launch_ctx *c = v;
  float **p = c->p;
  for (int i = 0; i < c->launches; i++)
    launch(empty16, 1, 32)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
                           p[11], p[12], p[13], p[14], p[15]);
}

static void launch_cost(void) {
  launch_ctx c = {g_check_only ? 1000 : 100000, {0}};
  for (int i = 0; i < 16; i++) c.p[i] = device_array(float, 256);
  case_fn fns[3] = {loop0, loop4, loop16};
  const char *names[3] = {"empty kernel, 0 args", "empty kernel, 4 array args",
                          "empty kernel, 16 array args"};
  for (int k = 0; k < 3; k++) {
    int reps = reps_for(5);
    double ms = time_case_host(fns[k], &c, 1, reps);
    g_host_timed = 1;
    /* "ms" is per launch here; the note says so */
    char note[96];
    snprintf(note, sizeof note, "%d launches of <<<1, 32>>>, host clock, per launch", c.launches);
    emit("launch", names[k], c.launches, ms / c.launches, reps, 0, 0, "ok", note);
  }
  for (int i = 0; i < 16; i++) kp_free(c.p[i]);
}

/* ---- copies ------------------------------------------------------------------------------ */

typedef struct copy_ctx {
  size_t n;
  float *host, *dev;
} copy_ctx;
static void run_h2d(void *p) {
  copy_ctx *c = p;
  copy_to_device(c->dev, c->host, c->n);
}
static void run_d2h(void *p) {
  copy_ctx *c = p;
  copy_to_host(c->host, c->dev, c->n);
}

static void copies(void) {
  size_t n = g_check_only ? (size_t)1 << 20 : (size_t)1 << 28; /* 1 GiB */
  char buf[160];
  for (int pinned = 0; pinned < 2; pinned++) {
    float *h = pinned ? pinned_floats(n) : malloc(n * sizeof(float));
    float *back = malloc(n * sizeof(float));
    if (!h || !back) exit(1);
    bench_fill_uniform(h, n, 21, -1.0f, 1.0f);
    copy_ctx c = {n, h, device_array(float, n)};
    run_h2d(&c);
    bench_poison(back, n);
    copy_to_host(back, c.dev, n);
    int bad = memcmp(back, h, n * sizeof(float)) != 0;
    snprintf(buf, sizeof buf, bad ? "FAIL: round trip differs" : "ok");
    if (bad) g_failed = 1;
    int reps = reps_for(10);
    const char *how = pinned ? BENCH_PINNED_HOW : "malloc";
    emit("copies", pinned ? "host to device, pinned" : "host to device, pageable", (long long)n,
         time_case(run_h2d, &c, 2, reps), reps, (double)n * sizeof(float), 0, buf, how);
    emit("copies", pinned ? "device to host, pinned" : "device to host, pageable", (long long)n,
         time_case(run_d2h, &c, 2, reps), reps, (double)n * sizeof(float), 0, buf, how);
    kp_free(c.dev);
    free(back);
    if (pinned)
      pinned_free(h);
    else
      free(h);
  }
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--check") == 0)
      g_check_only = 1;
    else if (strncmp(argv[i], "--section=", 10) == 0)
      g_section = argv[i] + 10;
    else if (!bench_arg_long(argv[i], "--reps", &g_reps)) {
      fprintf(stderr, "usage: %s [--check] [--section=streaming|compute|reductions|launch|copies] "
                      "[--reps=R]\n", argv[0]);
      return 2;
    }
  }
  const char *backend = kp_backend_name();
  g_gpu = strcmp(backend, "cuda") == 0;
  if (g_gpu) {
    /* a first allocation makes kernplug's context current on this thread before the
     * driver is called directly */
    kp_free(device_array(float, 1));
    if (!cuh_open()) {
      fprintf(stderr, "kp_bench: cannot open the CUDA driver for events\n");
      return 1;
    }
  }
  if (!g_gpu && !g_check_only) {
    fprintf(stderr, "kp_bench: the %s backend is running; GPU figures need a GPU (use --check "
                    "for a self-test on the CPU)\n", backend);
    return 1;
  }
  if (g_gpu) {
    char name[256] = "?";
    int drv = 0;
    cuh_device d = cuh_device_now();
    cuh.device_name(name, (int)sizeof name, d);
    cuh.driver_version(&drv);
    printf("{\"impl\": \"kernplug\", \"kind\": \"meta\", \"device\": \"%s\", \"sm\": %d, "
           "\"sms\": %d, \"driver_cuda\": \"%d.%d\", \"kernplug\": \"%d.%d.%d\", "
           "\"compiler\": \"clang %s\"}\n",
           name, cuh_attribute(CUH_ATTR_CC_MAJOR) * 10 + cuh_attribute(CUH_ATTR_CC_MINOR),
           cuh_attribute(CUH_ATTR_SM_COUNT), drv / 1000, drv % 1000 / 10, KP_VERSION_MAJOR,
           KP_VERSION_MINOR, KP_VERSION_PATCH, __clang_version__);
  }
  if (wanted("streaming")) streaming();
  if (wanted("compute")) compute();
  if (wanted("reductions")) reductions();
  if (wanted("launch")) launch_cost();
  if (wanted("copies")) copies();
  fprintf(stderr, "kp_bench: %s\n", g_failed ? "some checks FAILED" : "all checks passed");
  return g_failed ? 1 : 0;
}
