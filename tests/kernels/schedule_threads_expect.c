/* schedule_threads_expect.c — KP_CPU_SCHEDULE and the order of a block's threads
 * (schedule.cmake). A racy kernel: in each of ROUNDS barrier intervals every thread of a block
 * reads a shared counter and writes it back incremented, with no atomic and no barrier
 * between them. On a GPU the result is undefined; on the CPU backend's fibers each thread runs
 * from barrier to barrier, so the value a thread reads is its position in the order the
 * scheduler ran the block's threads in that interval. The program records those positions.
 * Argument "index": every interval ran in index order (the default schedule, or a split
 * kernel whatever the schedule). "random": each interval's positions are a permutation of the
 * block's threads, not all in index order, and not the same permutation in every interval.
 * Both print a digest of all the positions, which tests/runtime/schedule_digests.cmake
 * compares between runs under the same and different seeds. */
#include <string.h>

#include "kernel_test.h"

enum { BLOCKS = 4, THREADS = 48, ROUNDS = 6 };

__attribute__((kernel)) void claim_positions(int *position) {
  static __attribute__((shared)) int next[1];
  for (int r = 0; r < ROUNDS; r++) {
    if (threadIdx.x == 0)
      next[0] = 0;
    syncthreads();
    int mine = next[0]; /* the race: read, then write back, no barrier in between */
    next[0] = mine + 1;
    position[((int)blockIdx.x * ROUNDS + r) * THREADS + (int)threadIdx.x] = mine;
    syncthreads();
  }
}

int main(int argc, char **argv) {
  kt_start("schedule_threads_expect");
  int want_random = argc > 1 && strcmp(argv[1], "random") == 0;
  enum { N = BLOCKS * ROUNDS * THREADS };
  int *d = device_array(int, N);
  launch(claim_positions, BLOCKS, THREADS)(d);
  kp_synchronize();
  int in_order = 1, all_same = 1;
  unsigned long long digest = 14695981039346656037ull; /* FNV-1a over the positions */
  for (int interval = 0; interval < BLOCKS * ROUNDS; interval++) {
    const int *p = d + interval * THREADS;
    int hit[THREADS] = {0};
    for (int t = 0; t < THREADS; t++) {
      KT_CHECK(p[t] >= 0 && p[t] < THREADS && !hit[p[t]]++,
               "interval %d: thread %d ran as %d, not a permutation", interval, t, p[t]);
      in_order &= p[t] == t;
      all_same &= p[t] == d[t];
      digest = (digest ^ (unsigned)p[t]) * 1099511628211ull;
    }
  }
  if (want_random) {
    KT_CHECK(!in_order, "random schedule ran every interval's threads in index order");
    KT_CHECK(!all_same, "random schedule ran every interval's threads in one order");
  } else {
    KT_CHECK(in_order, "the threads did not run in index order");
  }
  printf("thread order %s, digest %016llx\n", want_random ? "random" : "index", digest);
  kp_free(d);
  return 0;
}
