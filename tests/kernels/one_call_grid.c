/* one_call_grid.c — small grids that the launching thread runs alone go to the kernel's block
 * entry in one call (backend_cpu.c, one_call): multi-dimensional grids and blocks, a kernel
 * split at its barriers, a grid-stride loop, and a fault in a late block, each against the
 * same computation in plain C. one_call_grid.cmake runs it again with KP_NUM_THREADS=1, where
 * every launch is the caller's alone; with more participants the small grids run alone while
 * the workers sleep, or are shared when one spins: the results are the same either way. */
#include "kernel_test.h"

__attribute__((kernel)) void oc_index3d(int *out) {
  unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  unsigned block = bx + gridDim.x * (by + gridDim.y * bz);
  unsigned thread = tx + blockDim.x * (ty + blockDim.y * tz);
  unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  out[block * per_block + thread] = (int)(block * 1000 + thread * 7 + tz);
}

enum { RB = 64 };
__attribute__((kernel)) void oc_block_sum(const int *in, int *sums) {
  static __attribute__((shared)) int buf[RB];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * RB + t];
  syncthreads();
  for (unsigned s = RB / 2; s > 0; s /= 2) {
    if (t < s) buf[t] += buf[t + s];
    syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = buf[0];
}

__attribute__((kernel)) void oc_stride_scale(float *x, float a, int n) {
  for (int i = grid(1); i < n; i += gridsize(1)) x[i] = a * x[i] + (float)(i % 5);
}

__attribute__((kernel)) void oc_trap_at(int *out, int bad) {
  int i = grid(1);
  if (i == bad) __builtin_trap();
  out[i] = i;
}

static void check_index3d(void) {
  /* grid 3 x 2 x 2, blocks 4 x 3 x 2: 12 blocks of 24 threads */
  enum { TOTAL = 12 * 24 };
  int *d = device_array(int, TOTAL), got[TOTAL];
  for (int rep = 0; rep < 3; rep++) launch(oc_index3d, dim3(3, 2, 2), dim3(4, 3, 2))(d);
  copy_to_host(got, d, TOTAL);
  for (unsigned block = 0; block < 12; block++)
    for (unsigned tz = 0; tz < 2; tz++)
      for (unsigned ty = 0; ty < 3; ty++)
        for (unsigned tx = 0; tx < 4; tx++) {
          unsigned thread = tx + 4 * (ty + 3 * tz);
          int want = (int)(block * 1000 + thread * 7 + tz);
          KT_CHECK(got[block * 24 + thread] == want, "index3d: block %u thread %u: %d, want %d",
                   block, thread, got[block * 24 + thread], want);
        }
  kp_free(d);
}

static void check_block_sums(void) {
  enum { BLOCKS = 40, N = BLOCKS * RB };
  int host[N], sums[BLOCKS];
  for (int i = 0; i < N; i++) host[i] = (i * 37) % 101 - 50;
  int *in = to_device(host, N), *d = device_array(int, BLOCKS);
  launch(oc_block_sum, BLOCKS, RB)(in, d);
  copy_to_host(sums, d, BLOCKS);
  for (int b = 0; b < BLOCKS; b++) {
    int want = 0;
    for (int t = 0; t < RB; t++) want += host[b * RB + t];
    KT_CHECK(sums[b] == want, "block_sum: block %d: %d, want %d", b, sums[b], want);
  }
  kp_free(in), kp_free(d);
}

static void check_stride(void) {
  enum { N = 5000 };
  float host[N], want[N], got[N];
  for (int i = 0; i < N; i++) host[i] = want[i] = (float)(i % 13) - 6.0f;
  float *x = to_device(host, N);
  for (int rep = 0; rep < 2; rep++) {
    launch(oc_stride_scale, 6, 128)(x, 1.5f, N);
    for (int i = 0; i < N; i++) want[i] = 1.5f * want[i] + (float)(i % 5);
  }
  copy_to_host(got, x, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(got[i] == want[i], "stride: x[%d] = %g, want %g", i, got[i], want[i]);
  kp_free(x);
}

/* A fault in the last of 8 blocks: the message names its block and thread. */
static void check_fault(void) {
  kp_set_error_mode(KP_ERRORS_RETURN);
  int *d = device_array(int, 8 * 32);
  launch(oc_trap_at, 8, 32)(d, 7 * 32 + 13);
  kp_error err = kp_last_error();
  KT_CHECK(err == KP_ERROR_LAUNCH, "fault: error %d (%s)", (int)err, kp_last_error_message());
  const char *msg = kp_last_error_message();
  KT_CHECK(strstr(msg, "kernel 'oc_trap_at', block (7, 0, 0), thread (13, 0, 0)") != NULL,
           "fault: message '%s'", msg);
  printf("fault: %s\n", msg);
  launch(oc_trap_at, 8, 32)(d, -1); /* usable after it */
  int got[8 * 32];
  copy_to_host(got, d, 8 * 32);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "after the fault: %s", kp_last_error_message());
  for (int i = 0; i < 8 * 32; i++) KT_CHECK(got[i] == i, "after the fault: out[%d] = %d", i, got[i]);
  kp_free(d);
  kp_set_error_mode(KP_ERRORS_ABORT);
}

int main(void) {
  kt_start("one_call_grid");
  check_index3d();
  check_block_sums();
  check_stride();
  check_fault();
  printf("one_call_grid: ok\n");
  return 0;
}
