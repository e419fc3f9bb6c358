/* mpi_allreduce.c — kernplug under MPI (docs/mpi.md): each rank computes its slice of the work
 * with kernels, then the ranks combine their results with MPI_Allreduce.
 *
 *   - a kernel fills a histogram of TOTAL hashed items (atomics) in a device array, which the
 *     ranks sum element-wise: the device pointer itself goes to a CUDA-aware MPI
 *     (MPIX_Query_cuda_support), and through a host copy to any other MPI; on the CPU backend
 *     device arrays are host memory and go to MPI as they are;
 *   - a kernel and kp_reduce integrate 4 / (1 + x^2) over [0, 1] (pi) on the rank's intervals,
 *     and the ranks sum the partial integrals (one double, on the host).
 * Every rank checks both against the same computation done serially on the host.
 *
 * Devices: on a GPU machine each rank takes device (local rank % devices), the local rank read
 * from the launcher's environment before MPI_Init (a CUDA-aware MPI wants the device chosen
 * before it starts), else from MPI_Comm_split_type after it. On the CPU backend each rank's
 * worker pool has one thread per CPU of the rank's affinity mask (mpirun --bind-to core: one),
 * which the program prints and checks.
 *
 * Build and run (Open MPI; MPICH: MPICH_CC=kpcc mpicc):
 *   OMPI_CC=kpcc mpicc -O2 mpi_allreduce.c -o mpi_allreduce
 *   mpirun -np 2 ./mpi_allreduce
 */
#define _GNU_SOURCE /* sched_getaffinity, for the report */
#include <mpi.h>
#include <sched.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif

#include "example_util.h"

enum { BINS = 64 };
#define TOTAL (1LL << 22) /* histogram items and integration intervals, over all ranks */

static unsigned long long bin_of(long long item) {
  unsigned long long x = (unsigned long long)item * 0x9E3779B97F4A7C15ull;
  return (x ^ (x >> 29)) % BINS;
}

__attribute__((kernel)) void histogram(unsigned long long *bins, long long first, long long n) {
  for (long long i = grid(1); i < n; i += gridsize(1)) {
    unsigned long long x = (unsigned long long)(first + i) * 0x9E3779B97F4A7C15ull;
    atomic_add(&bins[(x ^ (x >> 29)) % BINS], 1ull);
  }
}

__attribute__((kernel)) void midpoints(double *f, long long first, long long n, double h) {
  for (long long i = grid(1); i < n; i += gridsize(1)) {
    double x = ((double)(first + i) + 0.5) * h;
    f[i] = 4.0 / (1.0 + x * x) * h;
  }
}

__attribute__((reduce)) double dsum(double a, double b) { return a + b; }

/* The node-local rank from the launcher, before MPI_Init; -1 when none says. */
static int local_rank_from_env(void) {
  static const char *const names[] = {
      "OMPI_COMM_WORLD_LOCAL_RANK", /* Open MPI */
      "MPI_LOCALRANKID",            /* MPICH and Intel MPI (Hydra) */
      "MV2_COMM_WORLD_LOCAL_RANK",  /* MVAPICH2 */
      "PALS_LOCAL_RANKID",          /* HPE Cray PALS */
      "SLURM_LOCALID",              /* srun */
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const char *v = getenv(names[i]);
    if (v && *v) return atoi(v);
  }
  return -1;
}

/* The rank among the ranks of its node, from MPI itself. */
static int local_rank_from_mpi(void) {
  MPI_Comm node;
  int rank = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

/* Whether MPI can read and write device memory itself (Open MPI built with CUDA, and running
 * with it; MPICH and others: host staging here). */
static int mpi_is_cuda_aware(void) {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

static int cpus_in_affinity(void) {
  cpu_set_t set;
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
}

int main(int argc, char **argv) {
  int local = local_rank_from_env();
  /* exits 77 when KP_BACKEND=cuda finds no GPU */
  const char *backend = example_start("mpi_allreduce");
  int gpu = strcmp(backend, "cuda") == 0;
  if (gpu && local >= 0) kp_select_device(local % kp_device_count());
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (local < 0) {
    local = local_rank_from_mpi();
    if (gpu) kp_select_device(local % kp_device_count());
  }

  /* This rank's slice of [0, TOTAL). */
  long long first = TOTAL * rank / ranks, n = TOTAL * (rank + 1) / ranks - first;
  unsigned long long *bins = device_array(unsigned long long, BINS);
  double *f = device_array(double, n > 0 ? n : 1);
  kp_memset(bins, 0, BINS * sizeof *bins);
  launch(histogram, 64, 256)(bins, first, n);
  launch(midpoints, 64, 256)(f, first, n, 1.0 / (double)TOTAL);
  double part = n > 0 ? kp_reduce(dsum, f, n) : 0.0;

  unsigned long long total[BINS];
  const char *how;
  if (!gpu) { /* the CPU backend's device arrays are host memory */
    how = "device array in place (CPU backend)";
    MPI_Allreduce(bins, total, BINS, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  } else if (mpi_is_cuda_aware()) {
    how = "device pointer (CUDA-aware MPI)";
    kp_synchronize(); /* the kernel's writes before MPI reads the array */
    unsigned long long *d_total = device_array(unsigned long long, BINS);
    MPI_Allreduce(bins, d_total, BINS, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    copy_to_host(total, d_total, BINS);
    kp_free(d_total);
  } else {
    how = "host staging (MPI is not CUDA-aware)";
    unsigned long long mine[BINS];
    copy_to_host(mine, bins, BINS);
    MPI_Allreduce(mine, total, BINS, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  }
  double pi = 0;
  MPI_Allreduce(&part, &pi, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  /* The same, serially, on the host. */
  unsigned long long want[BINS] = {0};
  for (long long i = 0; i < TOTAL; i++) want[bin_of(i)]++;
  int bad = fabs(pi - 3.14159265358979323846) > 1e-9;
  for (int b = 0; b < BINS; b++) bad |= total[b] != want[b];

  kp_device_properties p = {0};
  kp_device_properties_get(kp_current_device(), &p);
  char where[160];
  if (gpu) snprintf(where, sizeof where, "device %d of %d", kp_current_device(), kp_device_count());
  else snprintf(where, sizeof where, "%d pool workers, %d CPUs in its affinity mask",
                p.multiprocessors, cpus_in_affinity());
  /* The pool follows the affinity mask unless KP_NUM_THREADS says otherwise. */
  if (!gpu && !getenv("KP_NUM_THREADS") && p.multiprocessors != cpus_in_affinity()) bad = 1;
  printf("mpi_allreduce: rank %d/%d (local %d): %s backend, %s; histogram by %s; pi = %.12f: %s\n",
         rank, ranks, local, backend, where, how, pi, bad ? "FAIL" : "OK");
  kp_free(bins);
  kp_free(f);
  int any_bad = 0;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_bad ? 1 : 0;
}
