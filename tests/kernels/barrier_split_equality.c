/* barrier_split_equality.c — regions split where a branch on threadIdx.x == C (a constant)
 * changes (ThreadRangeSplit.cpp): the parts below, at and above C run with the branch folded,
 * the same threads in the same order. One lane per row sums its row after a barrier (`== 0`,
 * the tree reduction's last step, and `== 3`, which some rows are too short to have), and every
 * thread but one writes (`!= 5`). Blocks of one row and of several; compared with plain C. Also
 * built with cpu-barriers=fibers. */
#include <stdio.h>
#include <stdlib.h>

#include "kernel_test.h"

enum { MAXT = 256 };

__attribute__((kernel)) void row_sums(const int *in, int *sums, int *marks) {
  static __attribute__((shared)) int s[MAXT];
  unsigned t = threadIdx.x + blockDim.x * threadIdx.y;
  unsigned g = blockIdx.x * blockDim.x * blockDim.y + t;
  s[t] = in[g];
  syncthreads();
  unsigned row = blockIdx.x * blockDim.y + threadIdx.y;
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned x = 0; x < blockDim.x; x++) sum += s[threadIdx.y * blockDim.x + x];
    sums[2 * row] = sum;
  }
  if (threadIdx.x == 3) sums[2 * row + 1] = s[t] * 7;
  syncthreads();
  if (threadIdx.x != 5) marks[g] = s[t] + 1;
}

static void run(unsigned bx, unsigned by, unsigned blocks) {
  unsigned threads = bx * by, total = threads * blocks, rows = by * blocks;
  int *in = malloc(total * sizeof *in), *sums = malloc(2 * rows * sizeof *sums);
  int *marks = malloc(total * sizeof *marks);
  for (unsigned i = 0; i < total; i++) in[i] = (int)(i * 37u % 101u) - 50;
  int *d_in = device_array(int, total), *d_sums = device_array(int, 2 * rows);
  int *d_marks = device_array(int, total);
  copy_to_device(d_in, in, total);
  for (unsigned i = 0; i < 2 * rows; i++) sums[i] = -1;
  for (unsigned i = 0; i < total; i++) marks[i] = -1;
  copy_to_device(d_sums, sums, 2 * rows);
  copy_to_device(d_marks, marks, total);
  launch(row_sums, blocks, dim3(bx, by))(d_in, d_sums, d_marks);
  copy_to_host(sums, d_sums, 2 * rows);
  copy_to_host(marks, d_marks, total);
  for (unsigned r = 0; r < rows; r++) {
    int want = 0;
    for (unsigned x = 0; x < bx; x++) want += in[r * bx + x];
    KT_CHECK(sums[2 * r] == want, "%ux%u: row %u sum %d, expected %d", bx, by, r, sums[2 * r], want);
    int want3 = bx > 3 ? in[r * bx + 3] * 7 : -1;
    KT_CHECK(sums[2 * r + 1] == want3, "%ux%u: row %u lane 3 %d, expected %d", bx, by, r,
             sums[2 * r + 1], want3);
  }
  for (unsigned i = 0; i < total; i++) {
    int want = i % bx == 5 ? -1 : in[i] + 1;
    KT_CHECK(marks[i] == want, "%ux%u: marks[%u] = %d, expected %d", bx, by, i, marks[i], want);
  }
  kp_free(d_in), kp_free(d_sums), kp_free(d_marks), free(in), free(sums), free(marks);
}

int main(void) {
  kt_start("barrier_split_equality");
  run(256, 1, 3);
  run(32, 4, 2);
  run(3, 5, 2); /* rows without a lane 3 or 5 */
  run(7, 2, 3);
  printf("barrier_split_equality: OK\n");
  return 0;
}
