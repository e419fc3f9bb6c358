/* cpu_vs_openmp.c — kernplug's CPU backend against the natural OpenMP loop of the same
 * computation on the same number of threads, and against that loop on one thread: the "GPU
 * idioms" table of issue 15 (docs/benchmarks.md).
 *
 *   cpu_vs_openmp [--threads=T] [--reps=R] [--matmul=M] [--settle-ms=MS] [--case=NAME]
 *                 [--check]
 *
 * Each row is a kernel written the way CUDA and Numba programmers write it (grid-stride loops,
 * shared arrays, syncthreads(), atomics, warp shuffles, ufuncs), set beside the loop a C
 * programmer would write with OpenMP. Every row is checked before it is timed (harness.h): a
 * wrong answer prints FAIL, is not timed, and the program exits 1. --check runs small sizes,
 * one sample: a self-test, not a measurement.
 *
 * The OpenMP and serial loops read and write the kernplug device arrays directly: on the CPU
 * backend a device array is ordinary host memory, so all sides touch the same pages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "groups.h"
#include "kernplug.h"
#include "loops.h"

float *bench_device_uniform(long n, unsigned long long seed, float lo, float hi) {
  float *host = malloc((size_t)n * sizeof *host);
  if (!host) exit(1);
  bench_fill_uniform(host, (size_t)n, seed, lo, hi);
  float *d = to_device(host, n);
  free(host);
  return d;
}

/* The last-level cache as the kernel reports it (sysconf's figure is wrong on some VMs). */
static long llc_kib(void) {
  long kib = 0;
  for (int index = 3; index >= 2 && kib == 0; index--) {
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    if (fscanf(f, "%ldK", &kib) != 1) kib = 0;
    fclose(f);
  }
  return kib;
}

int main(int argc, char **argv) {
  long long threads = sysconf(_SC_NPROCESSORS_ONLN), m = 1000, reps = 5, settle = 250;
  bench_opts o = {0};
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--case=", 7) == 0) {
      o.only = argv[i] + 7;
      continue;
    }
    if (bench_arg_long(argv[i], "--threads", &threads) ||
        bench_arg_long(argv[i], "--matmul", &m) || bench_arg_long(argv[i], "--reps", &reps) ||
        bench_arg_long(argv[i], "--settle-ms", &settle))
      continue;
    if (strcmp(argv[i], "--settle-ms=0") == 0) {
      settle = 0;
      continue;
    }
    if (strcmp(argv[i], "--check") == 0) {
      o.check_only = 1;
      continue;
    }
    fprintf(stderr,
            "usage: %s [--threads=T] [--reps=R] [--matmul=M] [--settle-ms=MS] [--case=NAME] "
            "[--check]\n",
            argv[0]);
    return 2;
  }
  if (o.check_only) m = 77, reps = 1, settle = 0;
  if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
  if (m > 46340) {
    fprintf(stderr, "--matmul: m * m must fit the kernels' int indices\n");
    return 2;
  }
  o.threads = (int)threads, o.reps = (int)reps, o.settle_ms = (int)settle;
  /* The same number of threads on both sides; the CPU backend whatever the machine has. */
  char tbuf[32];
  snprintf(tbuf, sizeof tbuf, "%lld", threads);
  setenv("KP_NUM_THREADS", tbuf, 1);
  setenv("KP_BACKEND", "cpu", 1);

  printf("# kernplug CPU backend vs OpenMP\n\n");
  printf("kernplug %d.%d.%d (backend %s), clang %s -O2 on every side, %s; last-level cache "
         "%ld KiB\n",
         KP_VERSION_MAJOR, KP_VERSION_MINOR, KP_VERSION_PATCH, kp_backend_name(),
         __clang_version__, omp_description(), llc_kib());
  harness_begin(&o);

  harness_section("GPU idioms: the rows of issue 15's targets");
  rows_grid_stride(&o);
  rows_ufunc(&o);
  rows_ufunc_mvec(&o);
  rows_shared(&o);
  rows_matmul(&o, (int)m);
  rows_launch(&o);
  harness_geomean();

  harness_section("Other cases (not target rows)");
  rows_other(&o);
  return harness_end();
}
