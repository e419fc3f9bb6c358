/* cpu_vs_openmp.c — kernplug's CPU backend against the same computation written as an
 * OpenMP `parallel for` (omp_loops.c), on the same arrays, with the same number of threads.
 *
 *   cpu_vs_openmp [--threads=T] [--n=N] [--matmul=M] [--reps=R] [--check]
 *
 * Cases: vector add, saxpy, seed 002's gaussian_pdf ufunc, a float sum (kp_reduce against an
 * OpenMP reduction), the documented 16x16 tiled matmul with barriers (split at its barriers
 * into thread loops on the CPU backend), and the seed's naive matmul (no barriers) for
 * contrast. Streaming arrays have N = 2^27 elements by default (512 MiB each), which leaves
 * any last-level cache this runs on; the matmuls are M x M (default 1000: not a power of two,
 * whose column strides alias in the caches, and ragged against the 16x16 tiles).
 *
 * Every case is checked against a double-precision host reference (outputs poisoned with
 * NaN first) before it is timed; a failed check prints FAIL and the program exits 1. Each
 * timing is the median of R runs after one warm-up run, kernplug and OpenMP alternating so
 * that both see the same machine load. --check runs small sizes, one repetition: a quick
 * self-test, not a measurement.
 *
 * The OpenMP loops read and write the kernplug device arrays directly: on the CPU backend a
 * device array is ordinary host memory, so both sides touch exactly the same pages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "kernplug.h"
#include "kp_kernels.h"
#include "omp_loops.h"

typedef struct bench_ctx {
  long n;
  int m, threads;
  float *x, *y, *out, *A, *B, *C;
  float result;
} bench_ctx;

typedef void (*bench_fn)(bench_ctx *c);

/* ---- the two sides of each case ---------------------------------------------------------- */

static unsigned blocks_for(long n) { return (unsigned)((n + 255) / 256); }

static void kp_add(bench_ctx *c) { launch(vec_add, blocks_for(c->n), 256)(c->x, c->y, c->out, (int)c->n); }
static void mp_add(bench_ctx *c) { omp_vec_add(c->x, c->y, c->out, c->n, c->threads); }

/* The same sum as a grid-stride kernel launched with one GPU thread per 8 elements: what the
 * generated ufunc kernels do on the CPU backend, to amortise the call per GPU thread. */
__attribute__((kernel)) void vec_add_gs(const float *x, const float *y, float *out, int n) {
  for (int i = grid(1); i < n; i += gridsize(1)) out[i] = x[i] + y[i];
}
static void kp_add_gs(bench_ctx *c) {
  launch(vec_add_gs, (unsigned)((c->n + 2047) / 2048), 256)(c->x, c->y, c->out, (int)c->n);
}

/* Analysis only (uncoalesced on a GPU): each GPU thread adds one contiguous chunk, so the
 * host copy of the kernel is an ordinary loop that the compiler vectorises. It shows what
 * the CPU backend reaches once a block's work is a loop inside one call instead of one call
 * per GPU thread (docs/benchmarks.md). */
enum { CHUNK = 4096 };
__attribute__((kernel)) void vec_add_chunk(const float *x, const float *y, float *out, int n) {
  int start = grid(1) * CHUNK, end = start + CHUNK < n ? start + CHUNK : n;
  for (int i = start; i < end; i++) out[i] = x[i] + y[i];
}
static void kp_add_chunk(bench_ctx *c) {
  launch(vec_add_chunk, (unsigned)((c->n + 64 * CHUNK - 1) / (64 * CHUNK)), 64)(c->x, c->y,
                                                                            c->out, (int)c->n);
}

static void kp_saxpy(bench_ctx *c) { launch(saxpy, blocks_for(c->n), 256)(2.0f, c->x, c->y, (int)c->n); }
static void mp_saxpy(bench_ctx *c) { omp_saxpy(2.0f, c->x, c->y, c->n, c->threads); }

static void kp_gauss(bench_ctx *c) { ufunc(gaussian_pdf, c->n, c->out, c->x, 0.0f, 1.0f); }
static void mp_gauss(bench_ctx *c) { omp_gaussian_pdf(c->x, 0.0f, 1.0f, c->out, c->n, c->threads); }

static void kp_sum(bench_ctx *c) { c->result = kp_reduce(sum_f32, c->x, c->n); }
static void mp_sum(bench_ctx *c) { c->result = omp_sum(c->x, c->n, c->threads); }

static kp_dim3 tiles_for(int m) {
  return dim3((unsigned)(m + BENCH_TPB - 1) / BENCH_TPB, (unsigned)(m + BENCH_TPB - 1) / BENCH_TPB);
}
static void kp_tiled(bench_ctx *c) {
  launch(matmul_tiled, tiles_for(c->m), dim3(BENCH_TPB, BENCH_TPB))(c->A, c->B, c->C, c->m);
}
static void mp_tiled(bench_ctx *c) { omp_matmul_tiled(c->A, c->B, c->C, c->m, c->threads); }
static void kp_naive(bench_ctx *c) {
  launch(matmul_naive, tiles_for(c->m), dim3(BENCH_TPB, BENCH_TPB))(c->A, c->B, c->C, c->m);
}
static void mp_naive(bench_ctx *c) { omp_matmul_naive(c->A, c->B, c->C, c->m, c->threads); }

/* ---- checks ------------------------------------------------------------------------------ */

static int g_failed;
static const char *g_only; /* --case=NAME: only the cases whose name contains NAME */

static int wanted(const char *name) { return !g_only || strstr(name, g_only) != NULL; }

static void report_check(const char *what, const char *side, double err, double tol) {
  int ok = err <= tol; /* false for NaN */
  if (!ok) {
    printf("FAIL: %s (%s): relative error %.3g > %.3g\n", what, side, err, tol);
    g_failed = 1;
  }
}

static void check_elementwise(bench_ctx *c, const char *what, bench_fn kp, bench_fn mp,
                              const double *want, float *got, double tol) {
  bench_fn sides[2] = {kp, mp};
  const char *names[2] = {"kernplug", "OpenMP"};
  for (int s = 0; s < 2; s++) {
    bench_poison(got, (size_t)c->n);
    sides[s](c);
    kp_synchronize();
    report_check(what, names[s], bench_rel_err_f32(got, want, (size_t)c->n), tol);
  }
}

/* Entries of C = A @ B at sampled positions, in double, against a bound that scales with
 * the sum of |products| (float accumulation of m terms). */
static void check_matmul(bench_ctx *c, const char *what, bench_fn kp, bench_fn mp) {
  bench_fn sides[2] = {kp, mp};
  const char *names[2] = {"kernplug", "OpenMP"};
  int m = c->m;
  for (int s = 0; s < 2; s++) {
    bench_poison(c->C, (size_t)m * (size_t)m);
    sides[s](c);
    kp_synchronize();
    double worst = bench_matmul_error(c->A, c->B, c->C, m, 512, 7);
    report_check(what, names[s], worst, 1e-5);
  }
}

/* ---- timing ------------------------------------------------------------------------------ */

typedef struct row {
  const char *name, *size;
  double kp_ms, mp_ms, bytes, flops;
} row;

static void time_case(bench_ctx *c, bench_fn kp, bench_fn mp, int reps, double *kp_ms,
                      double *mp_ms) {
  double tk[BENCH_MAX_REPS], tm[BENCH_MAX_REPS];
  kp(c), mp(c); /* warm-up: pages, pools, code */
  kp_synchronize();
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now_ms();
    kp(c);
    kp_synchronize();
    double t1 = bench_now_ms();
    mp(c);
    double t2 = bench_now_ms();
    tk[r] = t1 - t0, tm[r] = t2 - t1;
  }
  *kp_ms = bench_median(tk, reps);
  *mp_ms = bench_median(tm, reps);
}

static void cpu_model(char *buf, size_t size) {
  snprintf(buf, size, "unknown CPU");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "model name", 10) == 0) {
      char *p = strchr(line, ':');
      if (p) {
        p += 1 + (p[1] == ' ');
        p[strcspn(p, "\n")] = '\0';
        snprintf(buf, size, "%s", p);
      }
      break;
    }
  fclose(f);
}

int main(int argc, char **argv) {
  long long threads = sysconf(_SC_NPROCESSORS_ONLN), n = 1ll << 27, m = 1000, reps = 5;
  int check_only = 0;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--case=", 7) == 0) {
      g_only = argv[i] + 7;
      continue;
    }
    if (bench_arg_long(argv[i], "--threads", &threads) || bench_arg_long(argv[i], "--n", &n) ||
        bench_arg_long(argv[i], "--matmul", &m) || bench_arg_long(argv[i], "--reps", &reps))
      continue;
    if (strcmp(argv[i], "--check") == 0) {
      check_only = 1;
      continue;
    }
    fprintf(stderr,
            "usage: %s [--threads=T] [--n=N] [--matmul=M] [--reps=R] [--case=NAME] [--check]\n", argv[0]);
    return 2;
  }
  if (check_only) n = 100003, m = 77, reps = 1;
  if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
  if (n > 0x7fffffff || m > 46340) {
    fprintf(stderr, "sizes must fit the kernels' int indices\n");
    return 2;
  }
  /* Fixed thread count on both sides; the CPU backend whatever the machine has. */
  char tbuf[32];
  snprintf(tbuf, sizeof tbuf, "%lld", threads);
  setenv("KP_NUM_THREADS", tbuf, 1);
  setenv("KP_BACKEND", "cpu", 1);

  char model[256];
  cpu_model(model, sizeof model);
  long llc = bench_llc_bytes();
  printf("# kernplug CPU backend vs OpenMP\n\n");
  printf("CPU: %s, %ld online cores; last-level cache %ld MiB; %lld threads on both sides\n",
         model, sysconf(_SC_NPROCESSORS_ONLN), llc >> 20, threads);
  printf("kernplug %d.%d.%d (backend %s), clang %s, %s; median of %lld runs after a warm-up%s\n\n",
         KP_VERSION_MAJOR, KP_VERSION_MINOR, KP_VERSION_PATCH, kp_backend_name(),
         __clang_version__, omp_description(), reps,
         check_only ? " (--check: small sizes, not a measurement)" : "");
  fflush(stdout);

  bench_ctx c = {.n = (long)n, .m = (int)m, .threads = (int)threads};
  size_t nb = (size_t)n * sizeof(float), mb = (size_t)m * (size_t)m * sizeof(float);
  float *host = malloc(nb > mb ? nb : mb);
  double *want = malloc((size_t)n * sizeof *want);
  if (!host || !want) return 1;
  bench_fill_uniform(host, (size_t)n, 1, -1.0f, 1.0f);
  c.x = to_device(host, n);
  bench_fill_uniform(host, (size_t)n, 2, -1.0f, 1.0f);
  c.y = to_device(host, n);
  c.out = device_array(float, n);
  bench_fill_uniform(host, (size_t)(m * m), 3, -1.0f, 1.0f);
  c.A = to_device(host, m * m);
  bench_fill_uniform(host, (size_t)(m * m), 4, -1.0f, 1.0f);
  c.B = to_device(host, m * m);
  c.C = device_array(float, m * m);
  free(host);

  row rows[10];
  int nrows = 0;
  char size_n[32], size_m[32];
  snprintf(size_n, sizeof size_n, "%lld", n);
  if (n == (n & -n)) snprintf(size_n, sizeof size_n, "2^%d", __builtin_ctzll((unsigned long long)n));
  snprintf(size_m, sizeof size_m, "%lld^2", m);

  if (wanted("vector add")) {
    for (long i = 0; i < c.n; i++) want[i] = (double)c.x[i] + c.y[i];
    check_elementwise(&c, "vector add", kp_add, mp_add, want, c.out, 1e-6);
    rows[nrows] = (row){"vector add", size_n, 0, 0, 3.0 * nb, 0};
    time_case(&c, kp_add, mp_add, (int)reps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
    check_elementwise(&c, "vector add, grid-stride", kp_add_gs, mp_add, want, c.out, 1e-6);
    rows[nrows] = (row){"vector add, grid-stride kernel (8 per thread)", size_n, 0, 0, 3.0 * nb, 0};
    time_case(&c, kp_add_gs, mp_add, (int)reps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
    check_elementwise(&c, "vector add, chunks", kp_add_chunk, mp_add, want, c.out, 1e-6);
    rows[nrows] = (row){"vector add, 4096 contiguous per thread (analysis only)", size_n, 0, 0,
                        3.0 * nb, 0};
    time_case(&c, kp_add_chunk, mp_add, (int)reps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
  }

  if (wanted("saxpy")) { /* y changes in place: each side starts the check from the same y */
    float *y0 = malloc(nb);
    if (!y0) return 1;
    copy_to_host(y0, c.y, n);
    bench_fn sax[2] = {kp_saxpy, mp_saxpy};
    for (int s = 0; s < 2; s++) {
      copy_to_device(c.y, y0, n);
      for (long i = 0; i < c.n; i++) want[i] = 2.0 * c.x[i] + y0[i];
      sax[s](&c);
      report_check("saxpy", s ? "OpenMP" : "kernplug", bench_rel_err_f32(c.y, want, (size_t)n),
                   1e-6);
    }
    rows[nrows] = (row){"saxpy", size_n, 0, 0, 3.0 * nb, 2.0 * n};
    time_case(&c, kp_saxpy, mp_saxpy, (int)reps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
    copy_to_device(c.y, y0, n);
    free(y0);
  }

  if (wanted("gaussian")) {
    for (long i = 0; i < c.n; i++) {
      double z = c.x[i];
      want[i] = exp(-0.5 * z * z) / 2.5066282746310002;
    }
    check_elementwise(&c, "gaussian_pdf ufunc", kp_gauss, mp_gauss, want, c.out, 1e-6);
    rows[nrows] = (row){"gaussian_pdf ufunc", size_n, 0, 0, 2.0 * nb, 0};
    time_case(&c, kp_gauss, mp_gauss, (int)reps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
  }

  if (wanted("sum")) {
    double s_want = 0, s_abs = 0;
    for (long i = 0; i < c.n; i++) s_want += c.x[i], s_abs += fabs(c.x[i]);
    bench_fn sums[2] = {kp_sum, mp_sum};
    for (int s = 0; s < 2; s++) {
      c.result = NAN;
      sums[s](&c);
      report_check("sum", s ? "OpenMP" : "kernplug", fabs(c.result - s_want) / s_abs, 1e-5);
    }
    rows[nrows] = (row){"sum: kp_reduce / OpenMP reduction", size_n, 0, 0, 1.0 * nb, 0};
    time_case(&c, kp_sum, mp_sum, (int)reps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
  }

  /* matmuls: fewer repetitions, they are long */
  int mreps = reps > 3 ? 3 : (int)reps;
  double mflops = 2.0 * (double)m * (double)m * (double)m;
  if (wanted("tiled")) {
    check_matmul(&c, "tiled matmul", kp_tiled, mp_tiled);
    rows[nrows] = (row){"tiled matmul with barriers (16x16 tiles)", size_m, 0, 0, 0, mflops};
    time_case(&c, kp_tiled, mp_tiled, mreps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
  }
  if (wanted("naive")) {
    check_matmul(&c, "naive matmul", kp_naive, mp_naive);
    rows[nrows] = (row){"naive matmul, no barriers", size_m, 0, 0, 0, mflops};
    time_case(&c, kp_naive, mp_naive, mreps, &rows[nrows].kp_ms, &rows[nrows].mp_ms);
    nrows++;
  }

  printf("| case | size | OpenMP ms | kernplug ms | kernplug / OpenMP | OpenMP | kernplug | "
         "within 1.5x |\n|---|---|---:|---:|---:|---:|---:|---|\n");
  for (int r = 0; r < nrows; r++) {
    const row *w = &rows[r];
    char rate_mp[32], rate_kp[32];
    if (w->bytes > 0) {
      snprintf(rate_mp, sizeof rate_mp, "%.1f GB/s", w->bytes / w->mp_ms / 1e6);
      snprintf(rate_kp, sizeof rate_kp, "%.1f GB/s", w->bytes / w->kp_ms / 1e6);
    } else {
      snprintf(rate_mp, sizeof rate_mp, "%.2f GFLOP/s", w->flops / w->mp_ms / 1e6);
      snprintf(rate_kp, sizeof rate_kp, "%.2f GFLOP/s", w->flops / w->kp_ms / 1e6);
    }
    double ratio = w->kp_ms / w->mp_ms;
    printf("| %s | %s | %.2f | %.2f | %.2f | %s | %s | %s |\n", w->name, w->size, w->mp_ms,
           w->kp_ms, ratio, rate_mp, rate_kp, ratio <= 1.5 ? "yes" : "**no**");
  }
  printf("\nworking set of the streaming cases: %.0f MiB per array (last-level cache %ld MiB)\n",
         nb / 1048576.0, llc >> 20);
  printf("checks: %s\n", g_failed ? "FAILED" : "all passed before timing");

  kp_free(c.x), kp_free(c.y), kp_free(c.out), kp_free(c.A), kp_free(c.B), kp_free(c.C);
  free(want);
  return g_failed ? 1 : 0;
}
