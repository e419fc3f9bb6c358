/* harness.c — checks, times and prints the rows of the GPU idioms table (harness.h). */
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

enum { MAX_ROWS = 64, SIDES = 3 };
enum { KP, OMP, SERIAL };
static const char *const side_names[SIDES] = {"kernplug", "OpenMP", "serial"};

typedef struct result {
  const char *name;
  int in_targets, empty, failed;
  double ratio; /* kernplug / OpenMP, median of the per-sample ratios */
  double kp_serial; /* kernplug / serial, median; NAN without a serial loop */
} result;

static bench_opts g_opts;
static result g_results[MAX_ROWS];
static int g_nresults, g_failed;

int harness_wants(const char *name) { return !g_opts.only || strstr(name, g_opts.only) != NULL; }

void harness_load(char *buf, size_t size) {
  double l[3] = {NAN, NAN, NAN};
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    if (fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3) l[0] = l[1] = l[2] = NAN;
    fclose(f);
  }
  snprintf(buf, size, "load average %.2f, %.2f, %.2f", l[0], l[1], l[2]);
}

void harness_date(char *buf, size_t size) {
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tm);
}

void harness_begin(const bench_opts *o) {
  g_opts = *o;
  char model[256], load[96], date[64];
  bench_cpu_model(model, sizeof model);
  harness_load(load, sizeof load);
  harness_date(date, sizeof date);
  printf("CPU: %s, %ld online cores; %s; %s; %d threads for kernplug and OpenMP\n", model,
         sysconf(_SC_NPROCESSORS_ONLN), date, load, o->threads);
  printf("each figure: median of R = %d samples (3 for rows over 20 s, 2R+1 for rows under "
         "1 s; column samples: samples x calls per sample), the three sides alternating (order "
         "rotated each sample); ratios: median of the per-sample ratios (min–max); a pause of "
         "%d ms after each sample of a side%s\n",
         o->reps, o->settle_ms, o->check_only ? "; --check: small sizes, not a measurement" : "");
  fflush(stdout);
}

void harness_section(const char *title) {
  printf("\n### %s\n\n", title);
  printf("| case | size | serial | OpenMP | kernplug | kernplug / OpenMP | kernplug / serial | "
         "<= 1.5x OpenMP | <= serial | samples |\n"
         "|---|---|---:|---:|---:|---:|---:|---|---|---:|\n");
  fflush(stdout);
}

/* ---- checks ------------------------------------------------------------------------------ */

static void poison(const idiom_row *r) {
  if (r->kind == OUT_F32 || r->kind == OUT_F32_SUM) bench_poison((float *)r->out, r->out_count);
  if (r->kind == OUT_I32) memset(r->out, 0xab, r->out_count * 4);
}

/* The error of the row's output against ref (0 or 1 for exact kinds; NaN fails). */
static double error_against(const idiom_row *r, const void *ref) {
  if (r->kind == OUT_I32) return memcmp(r->out, ref, r->out_count * 4) ? 1.0 : 0.0;
  const float *got = r->out, *want = ref;
  if (r->kind == OUT_F32_SUM) return fabs((double)got[0] - want[0]) / r->scale;
  double num = 0, den = 0;
  for (size_t i = 0; i < r->out_count; i++) {
    double d = (double)got[i] - want[i];
    num += d * d, den += (double)want[i] * want[i];
  }
  if (isnan(num)) return NAN;
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

static double time_calls(side_fn f, void *ctx, int calls);

/* Runs each side once on a poisoned output (the warm-up too: pages, pools, code; warm[] gets
 * each side's time); 0 when kernplug and OpenMP match the serial loop. */
static int check_row(const idiom_row *r, double warm[3]) {
  if (r->kind == OUT_NONE) {
    warm[0] = time_calls(r->kp, r->ctx, 1), warm[1] = time_calls(r->omp, r->ctx, 1);
    return 0;
  }
  size_t bytes = r->out_count * 4;
  void *ref = malloc(bytes);
  if (!ref) exit(1);
  poison(r);
  if (r->serial)
    warm[2] = time_calls(r->serial, r->ctx, 1);
  else
    r->omp(r->ctx);
  memcpy(ref, r->out, bytes);
  int bad = 0;
  side_fn sides[2] = {r->kp, r->omp};
  for (int s = 0; s < 2; s++) {
    poison(r);
    warm[s] = time_calls(sides[s], r->ctx, 1);
    double err = error_against(r, ref);
    double tol = r->kind == OUT_I32 ? 0 : r->tol;
    if (!(err <= tol)) { /* NaN fails too */
      printf("FAIL: %s, %s (%s): error %.3g against the %s loop's result (tolerance %.3g)\n",
             r->name, r->size, side_names[s], err, r->serial ? "serial" : "OpenMP", tol);
      bad = 1;
    }
  }
  free(ref);
  fflush(stdout);
  return bad;
}

/* ---- timing ------------------------------------------------------------------------------ */

/* Times `calls` calls of one side, then waits g_opts.settle_ms: the OpenMP runtime's workers
 * spin for 200 ms after a parallel region (libomp's KMP_BLOCKTIME), and a thread pool that
 * spins would do the same; on a machine with few cores the next side would share its cores
 * with them. Within a sample the side's own calls follow each other as in a program. */
static void settle(void) {
  if (g_opts.settle_ms > 0) {
    struct timespec ts = {g_opts.settle_ms / 1000, (long)(g_opts.settle_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  }
}

static double time_calls(side_fn f, void *ctx, int calls) {
  double t0 = bench_now_ms();
  for (int c = 0; c < calls; c++) f(ctx);
  double ms = (bench_now_ms() - t0) / calls;
  settle();
  return ms;
}

static void format_time(char *buf, size_t size, double ms) {
  if (isnan(ms))
    snprintf(buf, size, "—");
  else if (ms < 1.0)
    snprintf(buf, size, "%.3g µs", ms * 1e3);
  else if (ms < 100.0)
    snprintf(buf, size, "%.3g ms", ms);
  else
    snprintf(buf, size, "%.0f ms", ms);
}

void harness_row(const idiom_row *r) {
  if (!harness_wants(r->name)) return;
  if (g_nresults == MAX_ROWS) {
    fprintf(stderr, "harness: more than %d rows\n", MAX_ROWS);
    exit(2);
  }
  result *res = &g_results[g_nresults++];
  *res = (result){r->name, r->in_targets, r->empty, 0, NAN, NAN};
  double warm[SIDES] = {0};
  if (check_row(r, warm)) {
    res->failed = g_failed = 1;
    printf("| %s | %s | FAIL | FAIL | FAIL | — | — | — | — | — |\n", r->name, r->size);
    fflush(stdout);
    return;
  }
  side_fn sides[SIDES] = {r->kp, r->omp, r->serial};
  int nsides = r->serial ? 3 : 2;

  /* As many calls per sample as OpenMP makes in ~10 ms (counted, not derived from one call,
   * whose time on a loaded machine may be a descheduled outlier). */
  int calls = r->calls;
  if (calls < 1) {
    double t0 = bench_now_ms();
    for (calls = 0; calls < 200000 && bench_now_ms() - t0 < 10.0; calls++) r->omp(r->ctx);
    if (calls < 1) calls = 1;
    settle();
  }
  /* Long rows (over ~20 s at the full count) take 3 samples. */
  int reps = g_opts.reps;
  double per_sample = 0;
  for (int s = 0; s < nsides; s++) per_sample += warm[s] * calls;
  if (reps > 3 && per_sample * reps > 20e3) reps = 3;
  /* Short rows (launch costs, small arrays) are the noisiest and cheap: twice as many + 1. */
  if (per_sample * reps < 1e3)
    reps = 2 * reps + 1 < BENCH_MAX_REPS ? 2 * reps + 1 : BENCH_MAX_REPS;
  if (g_opts.check_only) reps = 1;

  double t[SIDES][BENCH_MAX_REPS], rk[BENCH_MAX_REPS], rs[BENCH_MAX_REPS];
  for (int k = 0; k < reps; k++) {
    for (int j = 0; j < nsides; j++) {
      int s = (k + j) % nsides;
      t[s][k] = time_calls(sides[s], r->ctx, calls);
    }
    rk[k] = t[KP][k] / t[OMP][k];
    rs[k] = r->serial ? t[KP][k] / t[SERIAL][k] : NAN;
  }
  double med[SIDES] = {NAN, NAN, NAN};
  for (int s = 0; s < nsides; s++) med[s] = bench_median(t[s], reps);
  res->ratio = bench_median(rk, reps); /* sorts rk: rk[0] min, rk[reps-1] max */
  if (r->serial) res->kp_serial = bench_median(rs, reps);

  char ts[32], to[32], tk[32], ser[48];
  format_time(ts, sizeof ts, med[SERIAL]);
  format_time(to, sizeof to, med[OMP]);
  format_time(tk, sizeof tk, med[KP]);
  if (r->serial)
    snprintf(ser, sizeof ser, "%.2f (%.2f–%.2f)", res->kp_serial, rs[0], rs[reps - 1]);
  else
    snprintf(ser, sizeof ser, "—");
  const char *vs_serial = !r->serial ? "—" : res->kp_serial <= 1.0 ? "yes" : "**no**";
  printf("| %s | %s | %s | %s | %s | %.2f (%.2f–%.2f) | %s | %s | %s | %d x %d |\n", r->name,
         r->size, ts, to, tk, res->ratio, rk[0], rk[reps - 1], ser,
         res->ratio <= 1.5 ? "yes" : "**no**", vs_serial, reps, calls);
  fflush(stdout);
}

void harness_geomean(void) {
  double log_sum = 0;
  int n = 0, over = 0, slower = 0, dearer_launch = 0;
  for (int i = 0; i < g_nresults; i++) {
    const result *res = &g_results[i];
    if (!res->in_targets || res->failed) continue;
    log_sum += log(res->ratio), n++;
    over += res->ratio > 1.5;
    slower += res->kp_serial > 1.0; /* false for NaN */
    dearer_launch += res->empty && res->ratio > 1.0;
  }
  if (n > 0) {
    double geo = exp(log_sum / n);
    printf("| **geomean** of the %d target rows | | | | | **%.2f** | | %s | | |\n", n, geo,
           geo <= 1.1 ? "<= 1.1x: yes" : "<= 1.1x: **no**");
    printf("\ntargets (issue 15): every row <= 1.5x OpenMP: %d of %d rows above; geomean <= 1.1x: "
           "%s (%.2f); no row slower than the serial loop: %d slower; empty launch no dearer "
           "than OpenMP's fork/join: %d dearer\n",
           over, n, geo <= 1.1 ? "met" : "missed", geo, slower, dearer_launch);
  }
  fflush(stdout);
}

int harness_end(void) {
  char load[96], date[64];
  harness_load(load, sizeof load);
  harness_date(date, sizeof date);
  printf("at the end: %s; %s\n", date, load);
  printf("checks: %s\n", g_failed ? "FAILED (rows marked FAIL were not timed)"
                                  : "every row's kernplug and OpenMP results matched the "
                                    "serial loop's before timing");
  fflush(stdout);
  return g_failed;
}
