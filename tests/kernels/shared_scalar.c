/* shared_scalar.c — scalar and struct `shared` variables (not only arrays): one copy per block,
 * visible to every thread of the block after a barrier, independent between blocks: a block
 * counts its threads with a shared counter, sums their values in a shared float and keeps
 * its extremes in a shared struct, on the CPU backend's split entries and fibers alike. */
#include "kernel_test.h"

typedef struct extremes {
  int lo, hi;
} extremes;

__attribute__((kernel)) void block_stats(const int *in, int *count, float *sum, int *lo,
                                         int *hi, int n) {
  static __attribute__((shared)) int s_count;
  static __attribute__((shared)) float s_sum;
  static __attribute__((shared)) extremes s_ext;
  int i = grid(1);
  if (threadIdx.x == 0) {
    s_count = 0;
    s_sum = 0.0f;
    s_ext.lo = 1 << 30;
    s_ext.hi = -(1 << 30);
  }
  syncthreads();
  if (i < n) {
    atomic_add(&s_count, 1);
    atomic_add(&s_sum, (float)in[i]);
    atomic_min(&s_ext.lo, in[i]);
    atomic_max(&s_ext.hi, in[i]);
  }
  syncthreads();
  if (threadIdx.x == 0) {
    count[blockIdx.x] = s_count;
    sum[blockIdx.x] = s_sum;
    lo[blockIdx.x] = s_ext.lo;
    hi[blockIdx.x] = s_ext.hi;
  }
}

/* A shared scalar written by one thread and read by all: the block's first element. */
__attribute__((kernel)) void minus_first(const int *in, int *out, int n) {
  static __attribute__((shared)) int first;
  int i = grid(1);
  if (threadIdx.x == 0) first = in[blockIdx.x * blockDim.x];
  syncthreads();
  if (i < n) out[i] = in[i] - first;
}

enum { N = 1000, T = 128, B = (N + T - 1) / T };

int main(void) {
  kt_start("shared_scalar");
  int *in = managed_array(int, N), *out = managed_array(int, N);
  int *count = managed_array(int, B), *lo = managed_array(int, B), *hi = managed_array(int, B);
  float *sum = managed_array(float, B);
  for (int i = 0; i < N; i++) in[i] = (i * 37) % 101 - 50;
  launch(block_stats, B, T)(in, count, sum, lo, hi, N);
  launch(minus_first, B, T)(in, out, N);
  kp_synchronize();
  for (int b = 0; b < B; b++) {
    int c = 0, l = 1 << 30, h = -(1 << 30);
    float s = 0;
    for (int i = b * T; i < N && i < (b + 1) * T; i++) {
      c++, s += (float)in[i];
      l = in[i] < l ? in[i] : l;
      h = in[i] > h ? in[i] : h;
    }
    KT_CHECK(count[b] == c, "block %d: count %d, expected %d", b, count[b], c);
    KT_CHECK(sum[b] == s, "block %d: sum %g, expected %g", b, sum[b], s); /* small integers */
    KT_CHECK(lo[b] == l && hi[b] == h, "block %d: extremes %d..%d, expected %d..%d", b, lo[b],
             hi[b], l, h);
  }
  for (int i = 0; i < N; i++) {
    int want = in[i] - in[i / T * T];
    KT_CHECK(out[i] == want, "minus_first: out[%d] = %d, expected %d", i, out[i], want);
  }
  printf("shared_scalar: every block had its own scalars\n");
  return 0;
}
