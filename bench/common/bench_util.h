/* bench_util.h — what the benchmark programs share: a monotonic clock, the median of a set
 * of timings, a reproducible random generator, relative errors, a poison value for outputs
 * and the cache size the "leaves the cache" rule is measured against. Header-only, C17 plus
 * POSIX clock_gettime. Not part of kernplug's API. */
#ifndef KP_BENCH_UTIL_H
#define KP_BENCH_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_MAX_REPS 64

static inline double bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of t[0..n-1] (sorts t in place); the mean of the middle two for even n. */
static inline double bench_median(double *t, int n) {
  if (n < 1) return NAN;
  qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* A 64-bit LCG (the one the examples use): reproducible on every machine. */
static inline uint64_t bench_next(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s;
}
/* Uniform in [lo, hi). */
static inline float bench_uniform(uint64_t *s, float lo, float hi) {
  return lo + (hi - lo) * (float)((double)(bench_next(s) >> 11) / 9007199254740992.0);
}
/* Standard normal (Box-Muller). */
static inline double bench_normal(uint64_t *s) {
  double u1 = ((double)(bench_next(s) >> 11) + 0.5) / 9007199254740992.0;
  double u2 = ((double)(bench_next(s) >> 11) + 0.5) / 9007199254740992.0;
  return sqrt(-2 * log(u1)) * cos(2 * 3.14159265358979323846 * u2);
}

static inline void bench_fill_uniform(float *p, size_t n, uint64_t seed, float lo, float hi) {
  for (size_t i = 0; i < n; i++) p[i] = bench_uniform(&seed, lo, hi);
}

/* A NaN written into outputs before a checked run: an element the code under test never
 * writes stays NaN and fails the check. */
static inline void bench_poison(float *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = NAN;
}

/* ||got - want|| / ||want|| in double; NaN anywhere gives NaN (which fails every check). */
static inline double bench_rel_err_f32(const float *got, const double *want, size_t n) {
  double num = 0, den = 0;
  for (size_t i = 0; i < n; i++) {
    double d = (double)got[i] - want[i];
    num += d * d;
    den += want[i] * want[i];
  }
  if (isnan(num)) return NAN;
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* The last-level cache in bytes, 0 when the system does not say. */
static inline long bench_llc_bytes(void) {
  long b = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  b = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (b <= 0) b = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return b > 0 ? b : 0;
}

/* The CPU's model name from /proc/cpuinfo ("unknown CPU" when it does not say), for the
 * header of a table: a figure is true of the CPU it was measured on. */
static inline void bench_cpu_model(char *buf, size_t size) {
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

/* Parses "--name=value" into *v (a positive integer); returns 1 when argv matched. */
static inline int bench_arg_long(const char *arg, const char *name, long long *v) {
  size_t len = strlen(name);
  if (strncmp(arg, name, len) != 0 || arg[len] != '=') return 0;
  char *end = NULL;
  long long x = strtoll(arg + len + 1, &end, 0);
  if (!end || *end || x < 1) {
    fprintf(stderr, "bad value in %s (a positive whole number is expected)\n", arg);
    exit(2);
  }
  *v = x;
  return 1;
}

/* ---- references the kernplug and CUDA C sides check against (one copy, so both sides are
 * held to the same definition of a right answer) ------------------------------------------ */

/* The numbers 2 .. hi that are composite: composite[k] != 0. Exits when out of memory. */
static inline char *bench_composites(int hi) {
  char *composite = (char *)calloc((size_t)hi + 1, 1);
  if (!composite) exit(1);
  for (long p = 2; p * p <= hi; p++)
    if (!composite[p])
      for (long q = p * p; q <= hi; q += p) composite[q] = 1;
  return composite;
}

/* How many of the prime check's results are wrong (the number for a prime, else 0); *primes
 * gets how many primes there are. */
static inline long bench_primes_wrong(const int *nums, const int *res, int n,
                                      const char *composite, long *primes) {
  long bad = 0;
  *primes = 0;
  for (int i = 0; i < n; i++) {
    int want = composite[nums[i]] ? 0 : nums[i];
    bad += res[i] != want, *primes += want != 0;
  }
  return bad;
}

/* The largest relative error of C = A B (n x n) at `samples` entries drawn from `seed` (the
 * first two are the corners), against a double-precision dot product; NaN anywhere in C gives
 * NaN. */
static inline double bench_matmul_error(const float *A, const float *B, const float *C, int n,
                                        int samples, uint64_t seed) {
  uint64_t s = seed;
  double worst = 0;
  for (int t = 0; t < samples; t++) {
    int i = (int)((bench_next(&s) >> 33) % (uint64_t)n), j = (int)((bench_next(&s) >> 33) % (uint64_t)n);
    if (t == 0) i = j = 0;
    if (t == 1) i = j = n - 1;
    double want = 0, mag = 0;
    for (int k = 0; k < n; k++) {
      double p = (double)A[(size_t)i * n + k] * B[(size_t)k * n + j];
      want += p, mag += fabs(p);
    }
    double e = fabs(C[(size_t)i * n + j] - want) / (mag + 1e-30);
    if (!(e <= worst)) worst = e;
  }
  for (size_t k = 0; k < (size_t)n * n; k++)
    if (isnan(C[k])) return NAN;
  return worst;
}

/* The seed's hidden-layer inputs: greyscales floor(uniform(0, 255)), weights normal(.5, .1). */
static inline void bench_hidden_layer_inputs(float *grey, float *w, int n) {
  uint64_t s = 11;
  for (int i = 0; i < n; i++) {
    grey[i] = floorf(bench_uniform(&s, 0.0f, 255.0f));
    w[i] = (float)(0.5 + 0.1 * bench_normal(&s));
  }
}

/* ||out - tanh(grey / 255 * w)|| / ||tanh(...)||; NaN anywhere gives NaN. */
static inline double bench_hidden_layer_error(const float *grey, const float *w,
                                              const float *out, int n) {
  double num = 0, den = 0;
  for (int i = 0; i < n; i++) {
    double v = (double)(grey[i] / 255.0f) * w[i], want = tanh(v);
    num += (out[i] - want) * (out[i] - want), den += want * want;
  }
  return isnan(num) ? NAN : sqrt(num / den);
}

#endif
