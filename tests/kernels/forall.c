/* forall.c — forall(k, n)(args...) runs one thread per task with the occupancy calculator's
 * block size: every task index in [0, n) is visited exactly once for task counts around the
 * block and warp sizes, with dynamic shared memory and on a stream; n = 0 runs nothing;
 * kp_occupancy answers a block size within the device's limits. */
#include "kernel_test.h"

/* Counts the visits of each task; records the block size each thread saw. */
__attribute__((kernel)) void visit(int *count, int *block_size, int n) {
  int i = grid(1);
  if (i < n) {
    atomic_add(&count[i], 1);
    if (i == 0) *block_size = blockDim.x;
  }
}

/* Each block stages its tasks through dynamic shared memory (a block of them, reversed). */
__attribute__((kernel)) void reverse_in_block(const int *in, int *out, int n) {
  int *tile = kp_dynamic_shared(int);
  int i = grid(1), t = threadIdx.x;
  tile[t] = i < n ? in[i] : -1;
  syncthreads();
  int mirror = blockDim.x - 1 - t;
  int j = blockIdx.x * blockDim.x + mirror;
  if (j < n) out[j] = tile[mirror] + 1; /* tile[mirror] is in[j], staged by another thread */
}

static void check_visits(int n, kp_stream s) {
  int *count = managed_array(int, n > 0 ? n : 1);
  int *block = managed_array(int, 1);
  for (int i = 0; i < n; i++) count[i] = 0;
  *block = -1;
  forall(visit, n, 0, s)(count, block, n);
  kp_synchronize();
  for (int i = 0; i < n; i++)
    KT_CHECK(count[i] == 1, "forall(visit, %d): task %d ran %d times", n, i, count[i]);
  if (n == 0) {
    KT_CHECK(*block == -1, "forall(visit, 0) ran a thread");
  } else {
    KT_CHECK(*block >= 1 && *block <= 1024 && *block % 32 == 0,
             "forall(visit, %d): block of %d threads", n, *block);
    KT_CHECK(*block <= (n + 31) / 32 * 32, "forall(visit, %d): block of %d threads for %d tasks",
             n, *block, n);
  }
  kp_free(count);
  kp_free(block);
}

int main(void) {
  kt_start("forall");
  int block = 0, min_grid = 0;
  KT_CHECK(kp_occupancy(visit, 0, &block, &min_grid) == KP_SUCCESS, "kp_occupancy");
  KT_CHECK(block >= 32 && block <= 1024, "kp_occupancy: block %d", block);
  KT_CHECK(min_grid >= 1, "kp_occupancy: min_grid %d", min_grid);
  printf("kp_occupancy(visit): block %d, min_grid %d\n", block, min_grid);
  KT_CHECK(kp_occupancy(visit, 0, NULL, NULL) == KP_SUCCESS, "kp_occupancy with NULL outputs");

  static const int sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 1000, 100003};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) check_visits(sizes[k], NULL);
  kp_stream s = kp_stream_create();
  check_visits(5000, s);
  kp_stream_destroy(s);

  /* Dynamic shared memory: the occupancy answer for that size, one int per thread. */
  enum { N = 3000 };
  int shared_block = 0;
  KT_CHECK(kp_occupancy(reverse_in_block, 1024 * sizeof(int), &shared_block, NULL) ==
               KP_SUCCESS, "kp_occupancy with shared memory");
  int *in = managed_array(int, N), *out = managed_array(int, N);
  for (int i = 0; i < N; i++) in[i] = 3 * i, out[i] = -7;
  forall(reverse_in_block, N, 1024 * sizeof(int))(in, out, N);
  kp_synchronize();
  for (int i = 0; i < N; i++)
    KT_CHECK(out[i] == 3 * i + 1, "reverse_in_block: out[%d] = %d, expected %d", i, out[i],
             3 * i + 1);
  kp_free(in);
  kp_free(out);
  printf("forall: all tasks ran once\n");
  return 0;
}
