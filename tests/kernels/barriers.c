/* barriers.c — syncthreads and its reductions on both backends: shared-memory exchanges
 * between threads that only a real barrier makes correct, in 1D/2D/3D blocks of many sizes,
 * and a barrier-heavy kernel (thousands of barriers per block). */
#include "kernel_test.h"

enum { MAX_THREADS = 1024 };

/* Each thread stores its value, waits, then reads its mirror image: needs every store of
 * the block before any load. */
__attribute__((kernel)) void block_reverse(const int *in, int *out) {
  static __attribute__((shared)) int tile[MAX_THREADS];
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned base = blockIdx.x * n;
  tile[t] = in[base + t];
  syncthreads();
  out[base + t] = tile[n - 1 - t];
}

/* count/and/or over a predicate that depends on the thread and on `mode`. */
__attribute__((kernel)) void barrier_votes(int mode, int *counts, int *ands, int *ors) {
  unsigned t = threadIdx.x;
  int p = mode == 0 ? (int)(t % 3 == 0) : mode == 1 ? 1 : mode == 2 ? 0 : (int)(t == 5);
  int c = syncthreads_count(p);
  int a = syncthreads_and(p);
  int o = syncthreads_or(p);
  unsigned g = blockIdx.x * blockDim.x + t;
  counts[g] = c, ands[g] = a, ors[g] = o;
}

/* A Hillis-Steele inclusive scan: log2(n) rounds of two barriers each, repeated `reps`
 * times on the block's data so that a block passes thousands of barriers. */
__attribute__((kernel)) void scan_repeated(const long long *in, long long *out, int reps) {
  static __attribute__((shared)) long long buf[MAX_THREADS];
  unsigned t = threadIdx.x, n = blockDim.x;
  long long v = in[blockIdx.x * n + t];
  for (int r = 0; r < reps; r++) {
    buf[t] = v;
    syncthreads();
    for (unsigned d = 1; d < n; d *= 2) {
      long long add = t >= d ? buf[t - d] : 0;
      syncthreads();
      buf[t] += add;
      syncthreads();
    }
    v = buf[t] % 1000003; /* keep values small; the host does the same */
    syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

static void check_reverse(unsigned bx, unsigned by, unsigned bz, unsigned blocks) {
  unsigned n = bx * by * bz, total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  for (unsigned i = 0; i < total; i++) in[i] = (int)(i * 7 + 1);
  int *d_in = to_device(in, total), *d_out = device_array(int, total);
  launch(block_reverse, blocks, dim3(bx, by, bz))(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++)
      KT_CHECK(out[b * n + t] == in[b * n + n - 1 - t], "block (%u,%u,%u) x %u: out[%u] = %d",
               bx, by, bz, blocks, b * n + t, out[b * n + t]);
  kp_free(d_in), kp_free(d_out), free(in), free(out);
}

static void check_votes(unsigned threads, unsigned blocks) {
  unsigned total = threads * blocks;
  int *c = malloc(total * sizeof *c), *a = malloc(total * sizeof *a), *o = malloc(total * sizeof *o);
  int *dc = device_array(int, total), *da = device_array(int, total), *dor = device_array(int, total);
  for (int mode = 0; mode < 4; mode++) {
    launch(barrier_votes, blocks, threads)(mode, dc, da, dor);
    copy_to_host(c, dc, total), copy_to_host(a, da, total), copy_to_host(o, dor, total);
    int count = 0;
    for (unsigned t = 0; t < threads; t++)
      count += mode == 0 ? t % 3 == 0 : mode == 1 ? 1 : mode == 2 ? 0 : t == 5;
    for (unsigned i = 0; i < total; i++) {
      KT_CHECK(c[i] == count, "mode %d threads %u: count %d, expected %d", mode, threads, c[i], count);
      KT_CHECK(a[i] == (count == (int)threads), "mode %d threads %u: and %d", mode, threads, a[i]);
      KT_CHECK(o[i] == (count > 0), "mode %d threads %u: or %d", mode, threads, o[i]);
    }
  }
  kp_free(dc), kp_free(da), kp_free(dor), free(c), free(a), free(o);
}

static void check_scan(unsigned threads, unsigned blocks, int reps) {
  unsigned total = threads * blocks;
  long long *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  long long *ref = malloc(total * sizeof *ref);
  for (unsigned i = 0; i < total; i++) in[i] = ref[i] = (long long)(i % 97);
  for (int r = 0; r < reps; r++)
    for (unsigned b = 0; b < blocks; b++) {
      long long sum = 0;
      for (unsigned t = 0; t < threads; t++) {
        sum += ref[b * threads + t];
        ref[b * threads + t] = sum; /* inclusive prefix of the previous round's values */
      }
      for (unsigned t = 0; t < threads; t++) ref[b * threads + t] %= 1000003;
    }
  long long *d_in = to_device(in, total), *d_out = device_array(long long, total);
  launch(scan_repeated, blocks, threads)(d_in, d_out, reps);
  copy_to_host(out, d_out, total);
  for (unsigned i = 0; i < total; i++)
    KT_CHECK(out[i] == ref[i], "scan threads %u reps %d: out[%u] = %lld, expected %lld", threads,
             reps, i, out[i], ref[i]);
  kp_free(d_in), kp_free(d_out), free(in), free(out), free(ref);
}

int main(void) {
  kt_start("barriers");
  const unsigned sizes[] = {1, 2, 31, 32, 33, 100, 256, 1024};
  for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    check_reverse(sizes[i], 1, 1, 7);
    check_votes(sizes[i], 5);
  }
  check_reverse(16, 16, 1, 9);
  check_reverse(8, 4, 2, 3);
  check_reverse(3, 5, 7, 2);
  check_scan(256, 12, 20); /* 12 blocks x 20 x (2 + 2*8) barriers */
  check_scan(1024, 2, 50);
  check_scan(37, 3, 200);
  printf("barriers: OK\n");
  return 0;
}
