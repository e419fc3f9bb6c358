/* fiber_errors_expect.c — kernels that go wrong on purpose; fiber_errors.cmake checks that
 * the CPU backend reports each one (kernel, block, thread) instead of hanging or crashing.
 *   fiber_errors_expect <scenario>   (scenarios: see main) */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "kernel_test.h"

/* Threads past `live` return before the barrier the others wait at. Each block writes its
 * own part of out (blocks writing the same elements would race: TSan builds report it). */
__attribute__((kernel)) void early_return(int live, int *out) {
  static __attribute__((shared)) int s[64];
  if ((int)threadIdx.x >= live) return;
  s[threadIdx.x] = 1;
  syncthreads();
  out[grid(1)] = s[0];
}

/* Lane 7 exits; the rest shuffle with the full mask, which names it. */
__attribute__((kernel)) void lane_exits(int *out) {
  if (laneid() == 7) return;
  out[threadIdx.x] = shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
}

/* Half a warp waits at the block barrier while the other half waits for it in a shuffle. */
__attribute__((kernel)) void split_warp(int *out) {
  if (threadIdx.x < 16)
    syncthreads();
  else
    out[threadIdx.x] = shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
}

/* 1 KiB of stack per level: depth 1000 needs about 1 MiB, far beyond the default fiber stack. */
__attribute__((device)) int deep(int depth, int seed) {
  volatile char frame[1024];
  frame[depth % 1024] = (char)seed;
  int below = depth > 0 ? deep(depth - 1, seed + 1) : 0;
  return below + frame[depth % 1024];
}

__attribute__((kernel)) void deep_recursion(int depth, int *out) {
  int v = deep(depth, (int)threadIdx.x);
  syncthreads();
  out[threadIdx.x] = v;
}

/* One frame of 1 MiB: its first access lies far below the guard under the fiber stack, in
 * another fiber's stack, unless stack probes make it touch the guard first. */
__attribute__((kernel)) void big_frame(int *out, int i) {
  volatile char frame[1 << 20];
  frame[i] = (char)threadIdx.x;
  syncthreads();
  out[threadIdx.x] = frame[i];
}

/* The frame of a helper, not of the kernel, larger than a fiber stack and its guard, in odd
 * threads only. Its lowest bytes, the only ones written, lie in another fiber's stack unless
 * the helper probes its stack too: the launch then "succeeded" with wrong values. */
__attribute__((noinline)) static int big_helper(int t) {
  volatile char frame[(128 + 64) * 1024 - 60];
  frame[t % 4] = (char)0x55;
  return frame[t % 4] + t;
}

__attribute__((kernel)) void helper_frame(int *out) {
  int t = (int)threadIdx.x;
  volatile int mine = t * 1000 + 7;
  volatile int one = 1; /* a barrier under a branch on a local: keeps the kernel on fibers */
  int c = 0;
  if (one) c = syncthreads_count(1);
  if (t % 2 == 1) c += big_helper(t) - t - 0x55;
  out[t] = mine + c + syncthreads_count(1);
}

/* Each thread of the grid writes its own element: threads faulting at the same address on
 * two workers are a data race to TSan, which records an access before making it. */
__attribute__((kernel)) void write_through(int *p, long long offset) { p[offset + grid(1)] = 1; }

__attribute__((kernel)) void write_through_with_barrier(int *p, long long offset) {
  syncthreads();
  p[offset + grid(1)] = 1;
}

/* Thread (2, 1, 0) of block (2, 1, 0) writes through the wild offset: with 4x4 blocks on a
 * 3x3 grid the split entry runs blocks in runs (KP_KERNEL_CPU_BLOCK_RUNS), this one in the
 * middle of one; the replay must still name it. */
__attribute__((kernel)) void fault_in_run(int *p, long long offset) {
  static __attribute__((shared)) int s[16];
  unsigned t = threadIdx.x + blockDim.x * threadIdx.y;
  unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
  s[t] = (int)t;
  syncthreads();
  p[b == 5 && t == 6 ? offset : (long long)(b * 16 + t)] = s[15 - t];
}

/* The same in a kernel split at a warp shuffle: lane 17 of block 6 of 8. */
__attribute__((kernel)) void fault_in_warp_run(int *p, long long offset) {
  int v = shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
  p[blockIdx.x == 6 && threadIdx.x == 17 ? offset : (long long)grid(1)] = v;
}

__attribute__((kernel)) void divide(const int *num, const int *den, int *out) {
  out[threadIdx.x] = num[threadIdx.x] / den[threadIdx.x];
}

/* The offset in ints from base of a page no kernel may write (PROT_NONE; 1024 ints, more than
 * any wild write below covers), for the wild writes: a fixed distance such as 1 << 40 ints
 * can land in mapped memory under ThreadSanitizer's address-space layout, where the write
 * then succeeds. */
static long long wild_offset(const int *base) {
  void *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  KT_CHECK(hole != MAP_FAILED, "mmap");
  return ((long long)(intptr_t)hole - (long long)(intptr_t)base) / (long long)sizeof *base;
}

static int *device_ints(int n, int value) {
  int *h = malloc((size_t)n * sizeof *h);
  for (int i = 0; i < n; i++) h[i] = value;
  int *d = to_device(h, n);
  free(h);
  return d;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  const char *s = argv[1];
  kt_start("fiber_errors");
  int *out = device_ints(4 * 64, 0); /* early_return: up to 4 blocks of 64 */
  if (!strcmp(s, "early_return")) {
    launch(early_return, 1, 64)(40, out);
  } else if (!strcmp(s, "all_reach")) {
    launch(early_return, 2, 64)(64, out);
  } else if (!strcmp(s, "lane_exits")) {
    launch(lane_exits, 1, 32)(out);
  } else if (!strcmp(s, "split_warp")) {
    launch(split_warp, 1, 32)(out);
  } else if (!strcmp(s, "deep_recursion")) {
    launch(deep_recursion, 1, 4)(1000, out);
  } else if (!strcmp(s, "big_frame")) {
    launch(big_frame, 1, 8)(out, 5);
  } else if (!strcmp(s, "helper_frame")) {
    launch(helper_frame, 1, 8)(out);
    int h[8];
    copy_to_host(h, out, 8);
    for (int t = 0; t < 8; t++) KT_CHECK(h[t] == t * 1000 + 7 + 16, "out[%d] = %d", t, h[t]);
  } else if (!strcmp(s, "wild_write")) {
    launch(write_through, 1, 32)(out, wild_offset(out));
  } else if (!strcmp(s, "wild_write_fibers")) {
    launch(write_through_with_barrier, 3, 32)(out, wild_offset(out));
  } else if (!strcmp(s, "run_fault")) {
    launch(fault_in_run, dim3(3, 3), dim3(4, 4))(out, wild_offset(out));
  } else if (!strcmp(s, "warp_run_fault")) {
    launch(fault_in_warp_run, 8, 32)(out, wild_offset(out));
  } else if (!strcmp(s, "divide_by_zero")) {
    int *num = device_ints(8, 10), *den = device_ints(8, 0);
    launch(divide, 1, 8)(num, den, out);
  } else if (!strcmp(s, "recover")) {
    /* In return mode a failed launch leaves the backend usable. */
    kp_set_error_mode(KP_ERRORS_RETURN);
    launch(early_return, 4, 64)(10, out);
    KT_CHECK(kp_last_error() == KP_ERROR_LAUNCH, "expected a launch error");
    launch(write_through, 4, 32)(out, wild_offset(out));
    KT_CHECK(kp_last_error() == KP_ERROR_LAUNCH, "expected a launch error");
    launch(early_return, 4, 64)(64, out);
    KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
    int h[64];
    copy_to_host(h, out, 64);
    for (int i = 0; i < 64; i++) KT_CHECK(h[i] == 1, "out[%d] = %d", i, h[i]);
  } else {
    fprintf(stderr, "unknown scenario %s\n", s);
    return 2;
  }
  kp_synchronize();
  printf("fiber_errors %s: finished\n", s);
  return 0;
}
