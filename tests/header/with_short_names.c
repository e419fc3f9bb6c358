/* with_short_names.c — the Numba-like short names kernplug.h defines by default, each used as
 * a Numba user would: grid/gridsize, threadIdx/blockIdx/blockDim/gridDim, syncthreads*,
 * atomics, warp functions, dim3, launch, to_device, device_array, copy_to_host, ufunc. */
#include "../kernels/kernel_test.h"

#define N 1000
#define THREADS 64

__attribute__((kernel)) void indices(int *flat, int *count, int n) {
  int i = grid(1);
  if (i < n) {
    flat[i] = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    atomic_add(count, 1);
  }
  int stride = gridsize(1);
  if (i == 0)
    atomic_max(count + 1, stride);
  if (i == 0)
    atomic_exch(count + 2, (int)gridDim.x);
}

__attribute__((kernel)) void votes(int *out) {
  int lane = laneid();
  unsigned all = activemask();
  syncwarp(all);
  int below = syncthreads_count(lane < 8);
  int any = syncthreads_or(lane == 3);
  int every = syncthreads_and(lane < warpsize);
  syncthreads();
  threadfence();
  int from_next = shfl_down_sync(all, lane, 1u);
  unsigned ballot = ballot_sync(all, lane % 2);
  int vote_sum = all_sync(all, 1) + any_sync(all, lane == 31);
  if (lane == 0) {
    out[0] = below;
    out[1] = any;
    out[2] = every;
    out[3] = from_next;
    out[4] = (int)ballot;
    out[5] = vote_sum;
  }
}

__attribute__((vectorize("int32(int32, int32)"))) int plus(int a, int b) { return a + b; }

int main(void) {
  kt_start("with_short_names");
  int *flat = device_array(int, N);
  int zero[3] = {0, 0, 0}, count[3];
  int *d_count = to_device(zero, 3);
  launch(indices, dim3((N + THREADS - 1) / THREADS), THREADS)(flat, d_count, N);
  int got[N];
  copy_to_host(got, flat, N);
  copy_to_host(count, d_count, 3);
  for (int i = 0; i < N; i++)
    KT_CHECK(got[i] == i, "flat[%d] = %d", i, got[i]);
  int blocks = (N + THREADS - 1) / THREADS;
  KT_CHECK(count[0] == N && count[1] == blocks * THREADS && count[2] == blocks,
           "count %d, gridsize %d, gridDim %d", count[0], count[1], count[2]);

  int *d_votes = device_array(int, 6), v[6];
  launch(votes, 1, 32)(d_votes);
  copy_to_host(v, d_votes, 6);
  KT_CHECK(v[0] == 8 && v[1] == 1 && v[2] == 1 && v[3] == 1 && v[4] == (int)0xaaaaaaaau &&
               v[5] == 2,
           "votes %d %d %d %d %#x %d", v[0], v[1], v[2], v[3], (unsigned)v[4], v[5]);

  int a[N], sum[N];
  for (int i = 0; i < N; i++)
    a[i] = i;
  KT_CHECK(ufunc(plus, N, sum, a, 10) == KP_SUCCESS, "ufunc: %s", kp_last_error_message());
  for (int i = 0; i < N; i++)
    KT_CHECK(sum[i] == i + 10, "sum[%d] = %d", i, sum[i]);
  kp_free(flat);
  kp_free(d_count);
  kp_free(d_votes);
  printf("with_short_names: OK\n");
  return 0;
}
