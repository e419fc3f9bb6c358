/* launch_overhead.c — what a launch costs on the CPU backend, against OpenMP's fork/join.
 *
 *   launch_overhead [--threads=T] [--reps=R] [--batch=B] [--gap-us=G] [--case=NAME] [--check]
 *
 * Rows: an empty kernel launched as 1x32 and as 64x256 against an empty `parallel for` over
 * as many iterations; a vector add (one element per GPU thread, 256 per block) at 10^3, 10^4
 * and 10^5 elements against the OpenMP loop; and the two empty launches again, each after G
 * microseconds of idle host time (default 2000: longer than the pool's spin, so its workers
 * are asleep). libomp's workers spin for KMP_BLOCKTIME before they sleep; unless it is set,
 * the program sets it to the pool's spin (KP_CPU_SPIN_US, default 50 us), so that idle threads
 * of one side do not spin on the cores the other side's batch needs.
 *
 * A sample is the mean time per launch over a batch of B back-to-back launches (idle rows:
 * the launches alone, the gaps not counted). kernplug and OpenMP batches alternate, and which
 * goes first alternates too, so both see the same machine load; each row is the median of R
 * samples after a warm-up batch, with the spread (lowest-highest sample) and the ratio of the
 * medians. Both sides run T threads (default: the CPUs this process may run on); the vector
 * adds are checked against the host sum first. --case=NAME: only the rows whose name contains
 * NAME (e.g. under callgrind, instructions per launch = run_kp's inclusive count / its calls).
 * --check: a few small batches, a self-test, not a measurement. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "kernplug.h"
#include "launch_overhead_omp.h"

__attribute__((kernel)) void lo_empty(int *sink) { (void)sink; }

__attribute__((kernel)) void lo_vec_add(const float *x, const float *y, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = x[i] + y[i];
}

typedef struct bench_case {
  const char *name;
  unsigned blocks, threads; /* kernplug's grid */
  long n;                   /* the OpenMP loop's iterations */
  int add;                  /* vector add (else empty) */
  int idle;                 /* an idle gap before each launch */
} bench_case;

typedef struct bench_state {
  int threads;
  long batch;
  long long gap_us;
  float *x, *y, *out;
  int *sink;
} bench_state;

/* Not inlined: under callgrind, a launch is one call of run_kp (--case). */
__attribute__((noinline)) static void run_kp(const bench_state *s, const bench_case *c) {
  if (c->add)
    launch(lo_vec_add, c->blocks, c->threads)(s->x, s->y, s->out, (int)c->n);
  else
    launch(lo_empty, c->blocks, c->threads)(s->sink);
}

__attribute__((noinline)) static void run_mp(const bench_state *s, const bench_case *c) {
  if (c->add)
    lo_omp_vec_add(s->x, s->y, s->out, c->n, s->threads);
  else
    lo_omp_empty(c->n, s->threads);
}

static void idle_for(long long us) {
  struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000L};
  nanosleep(&ts, NULL);
}

/* Microseconds per launch over one batch. */
static double batch_us(const bench_state *s, const bench_case *c, int kp) {
  double total = 0;
  if (!c->idle) {
    double t0 = bench_now_ms();
    for (long b = 0; b < s->batch; b++) kp ? run_kp(s, c) : run_mp(s, c);
    if (kp) kp_synchronize();
    total = bench_now_ms() - t0;
    return total * 1e3 / (double)s->batch;
  }
  long launches = s->batch / 20 > 0 ? s->batch / 20 : 1; /* each pays a gap */
  for (long b = 0; b < launches; b++) {
    idle_for(s->gap_us);
    double t0 = bench_now_ms();
    kp ? run_kp(s, c) : run_mp(s, c);
    if (kp) kp_synchronize();
    total += bench_now_ms() - t0;
  }
  return total * 1e3 / (double)launches;
}

static int check_add(const bench_state *s, const bench_case *c, int kp, float *host) {
  for (long i = 0; i < c->n; i++) s->out[i] = NAN;
  kp ? run_kp(s, c) : run_mp(s, c);
  kp_synchronize();
  copy_to_host(host, s->out, c->n);
  for (long i = 0; i < c->n; i++)
    if (host[i] != s->x[i] + s->y[i]) {
      printf("FAIL: %s (%s): element %ld is %g, want %g\n", c->name, kp ? "kernplug" : "OpenMP",
             i, host[i], s->x[i] + s->y[i]);
      return 1;
    }
  return 0;
}

static double lowest(const double *t, int n) {
  double m = t[0];
  for (int i = 1; i < n; i++) m = t[i] < m ? t[i] : m;
  return m;
}
static double highest(const double *t, int n) {
  double m = t[0];
  for (int i = 1; i < n; i++) m = t[i] > m ? t[i] : m;
  return m;
}

static void time_case(const bench_state *s, const bench_case *c, int reps) {
  double tk[BENCH_MAX_REPS], tm[BENCH_MAX_REPS];
  batch_us(s, c, 1), batch_us(s, c, 0); /* warm-up */
  for (int r = 0; r < reps; r++) {
    if (r % 2 == 0) {
      tk[r] = batch_us(s, c, 1);
      tm[r] = batch_us(s, c, 0);
    } else {
      tm[r] = batch_us(s, c, 0);
      tk[r] = batch_us(s, c, 1);
    }
  }
  double klo = lowest(tk, reps), khi = highest(tk, reps);
  double mlo = lowest(tm, reps), mhi = highest(tm, reps);
  double km = bench_median(tk, reps), mm = bench_median(tm, reps);
  char kcell[64], mcell[64]; /* "median (lowest-highest)", padded to the column */
  snprintf(kcell, sizeof kcell, "%.2f (%.2f-%.2f)", km, klo, khi);
  snprintf(mcell, sizeof mcell, "%.2f (%.2f-%.2f)", mm, mlo, mhi);
  printf("| %-26s | %26s | %26s | %6.2fx |\n", c->name, kcell, mcell, km / mm);
  fflush(stdout);
}

static int affinity_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

int main(int argc, char **argv) {
  long long threads = affinity_cpus(), reps = 11, batch = 2000, gap_us = 2000;
  int check_only = 0;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--case=", 7) == 0) {
      only = argv[i] + 7;
      continue;
    }
    if (bench_arg_long(argv[i], "--threads", &threads) || bench_arg_long(argv[i], "--reps", &reps) ||
        bench_arg_long(argv[i], "--batch", &batch) || bench_arg_long(argv[i], "--gap-us", &gap_us))
      continue;
    if (strcmp(argv[i], "--check") == 0) {
      check_only = 1;
      continue;
    }
    fprintf(stderr,
            "usage: %s [--threads=T] [--reps=R] [--batch=B] [--gap-us=G] [--case=NAME] [--check]\n",
            argv[0]);
    return 2;
  }
  if (check_only) reps = 1, batch = 40, gap_us = 100;
  if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
  char tbuf[32];
  snprintf(tbuf, sizeof tbuf, "%lld", threads);
  setenv("KP_NUM_THREADS", tbuf, 1);
  setenv("KP_BACKEND", "cpu", 1);

  /* Both sides' idle threads spin as long before they sleep: libomp's default (KMP_BLOCKTIME,
   * 200 ms) would keep its workers spinning through the kernplug batches that follow, on the
   * cores the kernplug workers need. Set KMP_BLOCKTIME to compare with another setting. */
  if (!getenv("KMP_BLOCKTIME")) {
    const char *spin_us = getenv("KP_CPU_SPIN_US");
    char bt[48];
    snprintf(bt, sizeof bt, "%sus", spin_us && *spin_us ? spin_us : "50");
    setenv("KMP_BLOCKTIME", bt, 1);
  }

  char model[256], date[64];
  bench_cpu_model(model, sizeof model);
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  const char *spin = getenv("KP_CPU_SPIN_US"), *blocktime = getenv("KMP_BLOCKTIME");
  printf("# kernplug launch overhead vs OpenMP fork/join\n\n");
  /* The machine as cpu_vs_openmp's header gives it (harness.c), then the threads. */
  printf("CPU: %s, %ld online cores; %s; load average %.2f, %.2f, %.2f; %lld threads on both "
         "sides\n",
         model, sysconf(_SC_NPROCESSORS_ONLN), date, load[0], load[1], load[2], threads);
  printf("KP_CPU_SPIN_US=%s, KMP_BLOCKTIME=%s; median of %lld samples of %lld launches "
         "(idle rows: %lld, %lld us apart)%s\n\n",
         spin ? spin : "(default)", blocktime ? blocktime : "(default)", reps, batch,
         batch / 20 > 0 ? batch / 20 : 1, gap_us,
         check_only ? " (--check: not a measurement)" : "");

  enum { MAX_N = 100000 };
  bench_state s = {.threads = (int)threads, .batch = batch, .gap_us = gap_us};
  float *host = malloc(MAX_N * sizeof *host);
  if (!host) return 1;
  s.x = device_array(float, MAX_N);
  s.y = device_array(float, MAX_N);
  s.out = device_array(float, MAX_N);
  s.sink = device_array(int, 1);
  bench_fill_uniform(host, MAX_N, 1, -1.0f, 1.0f);
  copy_to_device(s.x, host, MAX_N);
  bench_fill_uniform(host, MAX_N, 2, -1.0f, 1.0f);
  copy_to_device(s.y, host, MAX_N);

  const bench_case cases[] = {
      {"empty launch 1x32", 1, 32, 32, 0, 0},
      {"empty launch 64x256", 64, 256, 64 * 256, 0, 0},
      {"vector add 10^3", (1000 + 255) / 256, 256, 1000, 1, 0},
      {"vector add 10^4", (10000 + 255) / 256, 256, 10000, 1, 0},
      {"vector add 10^5", (100000 + 255) / 256, 256, 100000, 1, 0},
      {"empty 1x32 after idle", 1, 32, 32, 0, 1},
      {"empty 64x256 after idle", 64, 256, 64 * 256, 0, 1},
  };
  int failed = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (cases[i].add) failed |= check_add(&s, &cases[i], 1, host) | check_add(&s, &cases[i], 0, host);
  if (failed) return 1;

  printf("| case                       |         kernplug us/launch |             OpenMP us/loop |   ratio |\n");
  printf("|----------------------------|---------------------------:|---------------------------:|--------:|\n");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (!only || strstr(cases[i].name, only)) time_case(&s, &cases[i], (int)reps);
  getloadavg(load, 3); /* the load may change during the run: say what it was at the end */
  printf("\nload average at the end: %.2f, %.2f, %.2f\n", load[0], load[1], load[2]);
  kp_free(s.x), kp_free(s.y), kp_free(s.out), kp_free(s.sink);
  free(host);
  return 0;
}
