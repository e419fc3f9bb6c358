/* schedule_expect.c — KP_CPU_SCHEDULE (schedule.cmake). Argument "ordered": with one worker the
 * blocks run in index order. "random": with one worker the blocks of each launch run in an
 * order that is a permutation of the blocks, not the index order, and differs between two
 * launches; a kernel whose result does not depend on the order is still right. */
#include <string.h>

#include "kernel_test.h"

enum { BLOCKS = 64 };

__attribute__((kernel)) void record_order(int *seen, int *counter) {
  if (threadIdx.x == 0)
    seen[blockIdx.x] = atomic_add(counter, 1);
}

__attribute__((kernel)) void block_sums(const int *x, int *sum) {
  atomic_add(sum, x[blockIdx.x * blockDim.x + threadIdx.x]);
}

static void run_order(int *seen) {
  int *d_seen = device_array(int, BLOCKS), *counter = device_array(int, 1);
  counter[0] = 0;
  launch(record_order, BLOCKS, 32)(d_seen, counter);
  kp_synchronize();
  memcpy(seen, d_seen, sizeof(int) * BLOCKS);
  kp_free(d_seen);
  kp_free(counter);
}

int main(int argc, char **argv) {
  kt_start("schedule_expect");
  int random = argc > 1 && strcmp(argv[1], "random") == 0;
  int first[BLOCKS], second[BLOCKS], hit[BLOCKS] = {0};
  run_order(first);
  run_order(second);
  int in_order = 1, same = 1;
  for (int b = 0; b < BLOCKS; b++) {
    KT_CHECK(first[b] >= 0 && first[b] < BLOCKS && !hit[first[b]]++, "block %d ran as %d", b,
             first[b]);
    in_order &= first[b] == b;
    same &= first[b] == second[b];
  }
  if (random) {
    KT_CHECK(!in_order, "random schedule ran the blocks in index order");
    KT_CHECK(!same, "two launches ran their blocks in the same order");
  } else {
    KT_CHECK(in_order, "ordered schedule did not run the blocks in index order");
  }
  int n = BLOCKS * 32, *x = device_array(int, n), *sum = device_array(int, 1);
  for (int i = 0; i < n; i++)
    x[i] = i;
  sum[0] = 0;
  launch(block_sums, BLOCKS, 32)(x, sum);
  kp_synchronize();
  KT_CHECK(sum[0] == n * (n - 1) / 2, "sum %d, expected %d", sum[0], n * (n - 1) / 2);
  printf("schedule_expect: %s order ok\n", random ? "random" : "index");
  return 0;
}
