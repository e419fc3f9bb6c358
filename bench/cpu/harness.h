/* harness.h — the "GPU idioms" table of cpu_vs_openmp: one row per idiom, three sides (the
 * kernplug kernel, the natural OpenMP loop on the same number of threads, the same loop on
 * one thread without OpenMP), checked, then timed in alternating order, median and spread.
 *
 * A row is checked before it is timed: the output is poisoned, the serial loop runs and its
 * result is the reference, then the kernplug and the OpenMP side each run on a poisoned
 * output and must match it. A row that fails prints FAIL and is not timed; the program then
 * exits 1. Compiled without the plugin and without OpenMP. */
#ifndef KP_BENCH_HARNESS_H
#define KP_BENCH_HARNESS_H

#include <stddef.h>

typedef void (*side_fn)(void *ctx);

/* What a row writes, so that the harness can poison it and compare it with the reference. */
typedef enum {
  OUT_NONE,  /* nothing to check (empty launches) */
  OUT_F32,   /* float array: ||got - ref|| / ||ref|| <= tol */
  OUT_I32,   /* int or unsigned array: equal */
  OUT_F32_SUM /* one float, a sum: |got - ref| / scale <= tol (scale: the sum of |terms|) */
} out_kind;

typedef struct idiom_row {
  const char *name; /* "grid-stride add, 8 per thread" */
  const char *size; /* "2^27 floats, 16384 x 256" */
  int in_targets;   /* one of issue 15's rows: judged against the targets, in the geomean */
  side_fn kp, omp, serial; /* each runs the whole computation once and returns when done */
  void *ctx;
  void *out;
  size_t out_count;
  out_kind kind;
  double tol, scale;
  int calls; /* calls per timed sample; 0: enough for about 10 ms of the OpenMP side */
  int empty; /* an empty launch: no serial loop; the target is OpenMP's fork/join */
} idiom_row;

typedef struct bench_opts {
  int threads, reps, check_only;
  int settle_ms; /* pause after each side's sample, so that no side runs beside another's
                    spinning workers */
  const char *only; /* --case=NAME: only rows whose name contains NAME */
} bench_opts;

/* Prints the machine (CPU, date, load, threads); then sections of rows, printed as they
 * finish; harness_geomean after the target rows; harness_end last. */
void harness_begin(const bench_opts *o);
void harness_section(const char *title);
/* The geomean row of the target rows so far and the targets met or missed. */
void harness_geomean(void);
/* Checks, times and prints one row (nothing when --case leaves it out). */
void harness_row(const idiom_row *r);
/* Prints the date and load at the end; returns 1 if any check failed, else 0. */
int harness_end(void);
/* 1 when --case keeps a row of this name (a group can skip its set-up otherwise). */
int harness_wants(const char *name);

/* The machine as the header prints it: load, date (the CPU model: bench_cpu_model). */
void harness_load(char *buf, size_t size);
void harness_date(char *buf, size_t size);

#endif
