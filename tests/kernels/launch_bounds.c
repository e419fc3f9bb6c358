/* launch_bounds.c — launch_bounds(max_threads[, min_blocks]) on kernels: launches at the
 * bound (also as a 2D block of that many threads) and below it compute the right results,
 * and kp_occupancy and forall never choose a block over the bound. */
#include "kernel_test.h"

__attribute__((kernel, launch_bounds(128))) void add_one(int *a, int n) {
  int i = grid(1);
  if (i < n) a[i] += 1;
}

/* A block-wide reduction sized by the bound, with the minimum-blocks hint. */
__attribute__((kernel)) __attribute__((launch_bounds(256, 2))) void block_sum(const int *in,
                                                                              int *out, int n) {
  static __attribute__((shared)) int part[256];
  int t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
  int i = blockIdx.x * nt + t;
  part[t] = i < n ? in[i] : 0;
  syncthreads();
  for (int s = nt / 2; s > 0; s /= 2) {
    if (t < s) part[t] += part[t + s];
    syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}

enum { N = 5000 };

static void check_sums(const int *in, const int *out, int per_block, const char *what) {
  for (int b = 0; b * per_block < N; b++) {
    int want = 0;
    for (int i = b * per_block; i < N && i < (b + 1) * per_block; i++) want += in[i];
    KT_CHECK(out[b] == want, "%s: block %d sums to %d, expected %d", what, b, out[b], want);
  }
}

int main(void) {
  kt_start("launch_bounds");
  int *a = managed_array(int, N), *out = managed_array(int, N);
  for (int i = 0; i < N; i++) a[i] = i % 7;
  launch(add_one, (N + 127) / 128, 128)(a, N);        /* at the bound */
  launch(add_one, (N + 63) / 64, 64)(a, N);           /* below it */
  kp_synchronize();
  for (int i = 0; i < N; i++)
    KT_CHECK(a[i] == i % 7 + 2, "add_one: a[%d] = %d, expected %d", i, a[i], i % 7 + 2);

  launch(block_sum, (N + 255) / 256, 256)(a, out, N);
  kp_synchronize();
  check_sums(a, out, 256, "block_sum<<<256>>>");
  launch(block_sum, (N + 255) / 256, dim3(16, 16))(a, out, N); /* 256 threads as 16 x 16 */
  kp_synchronize();
  check_sums(a, out, 256, "block_sum<<<16 x 16>>>");
  launch(block_sum, (N + 63) / 64, 64)(a, out, N);
  kp_synchronize();
  check_sums(a, out, 64, "block_sum<<<64>>>");

  int block = 0;
  KT_CHECK(kp_occupancy(add_one, 0, &block, NULL) == KP_SUCCESS && block >= 1 && block <= 128,
           "kp_occupancy(add_one): block %d over launch_bounds(128)", block);
  forall(add_one, N)(a, N);
  kp_synchronize();
  for (int i = 0; i < N; i++)
    KT_CHECK(a[i] == i % 7 + 3, "forall(add_one): a[%d] = %d, expected %d", i, a[i], i % 7 + 3);
  kp_free(a);
  kp_free(out);
  printf("launch_bounds: launches within the bounds ran\n");
  return 0;
}
