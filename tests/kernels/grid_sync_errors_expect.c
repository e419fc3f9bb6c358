/* grid_sync_errors_expect.c — grid_sync() used wrongly fails the launch with a message, never
 * hangs (grid_sync.cmake lists the messages): a grid larger than can be co-resident, threads
 * of a block that skip it, a block that exits before it, a block that never arrives (the
 * watchdog), a fault in one block, and the CUDA path on the fake driver.
 * Usage: kt_grid_sync_errors_expect <scenario> */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "kernel_test.h"
#include "../runtime/fake_log.h"

__attribute__((kernel)) void synced(int *x) {
  int i = grid(1);
  x[i] = i;
  grid_sync();
  x[i] += x[(i + 1) % gridsize(1)];
}

__attribute__((kernel)) void half_block_skips(int *x) {
  if (threadIdx.x < 16) grid_sync();
  x[grid(1)] = 1;
}

__attribute__((kernel)) void block_exits(int *x) {
  if (blockIdx.x == 1) return;
  grid_sync();
  x[grid(1)] = 1;
}

__attribute__((kernel)) void block_spins(volatile int *x) {
  if (blockIdx.x == 2)
    while (x[0] == 0) {
    }
  grid_sync();
}

/* The last thread of the grid writes past the end of x after the grid sync: a fault in one
 * block releases the others waiting at later grid syncs. */
__attribute__((kernel)) void faults_after_sync(int *x, int n) {
  int i = grid(1);
  x[i] = i;
  grid_sync();
  if (i == n - 1) x[i + 1] = 1; /* the first byte past the array: its guard page */
  grid_sync();
  x[i] += 1;
}

/* The launch's grid, the cooperative entry and the limit query, read back from the fake
 * driver's log; then the driver's own refusal (FAKE_CUDA_COOP_TOO_LARGE) is reported. */
static void fake(void) {
  int *x = device_array(int, 64);
  long long limit = kp_max_cooperative_grid_blocks(synced, 32, 0);
  KT_CHECK(limit > 0, "no cooperative limit: %lld", limit);
  launch(synced, 2, 32)(x);
  kp_synchronize();
  CHECK_LOG_COUNT("cuOccupancyMaxActiveBlocksPerMultiprocessor synced block=32 dynamic=0 -> 32", 2);
  CHECK_LOG_COUNT("cuLaunchCooperativeKernel synced grid=2,1,1 block=32,1,1 shared=0", 1);
  CHECK_LOG_COUNT("cuLaunchKernel synced", 0);
  /* The grid barrier's word is one per module: a cooperative launch on another stream waits
   * for the one before it; one on the same stream needs no wait. */
  CHECK_LOG_COUNT("cuStreamWaitEvent", 0);
  kp_stream s = kp_stream_create();
  launch(synced, 2, 32, 0, s)(x);
  launch(synced, 2, 32, 0, s)(x);
  kp_synchronize();
  CHECK_LOG_COUNT("cuLaunchCooperativeKernel synced grid=2,1,1", 3);
  CHECK_LOG_COUNT("cuStreamWaitEvent", 1);
  launch(synced, 2, 32)(x); /* back on the default stream: waits for s's */
  kp_synchronize();
  CHECK_LOG_COUNT("cuStreamWaitEvent", 2);
  kp_stream_destroy(s);
  printf("grid_sync fake: limit %lld\n", limit);
  kp_set_error_mode(KP_ERRORS_RETURN);
  setenv("FAKE_CUDA_FAIL", "coop_too_large", 1);
  launch(synced, 2, 32)(x);
  kp_error e = kp_last_error();
  KT_CHECK(e == KP_ERROR_LAUNCH, "the driver's refusal was not reported (%d)", (int)e);
  fprintf(stderr, "%s\n", kp_last_error_message());
  kp_free(x);
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "fake") && getenv("FAKE_CUDA_LOG")) remove(getenv("FAKE_CUDA_LOG"));
  kt_start("grid_sync_errors");
  if (!strcmp(what, "fake")) {
    fake();
    printf("grid_sync_errors fake: finished\n");
    return 0;
  }
  int *x = managed_array(int, 1 << 16);
  memset(x, 0, sizeof(int) << 16);
  if (!strcmp(what, "too_large")) {
    long long limit = kp_max_cooperative_grid_blocks(synced, 64, 0);
    printf("limit %lld\n", limit);
    launch(synced, (int)limit + 1, 64)(x);
  } else if (!strcmp(what, "half_block")) {
    launch(half_block_skips, 2, 32)(x);
  } else if (!strcmp(what, "block_exits")) {
    launch(block_exits, 3, 32)(x);
  } else if (!strcmp(what, "fault")) {
    int *small = device_array(int, 64);
    launch(faults_after_sync, 2, 32)(small, 64);
  } else if (!strcmp(what, "watchdog")) {
    launch(block_spins, 4, 32)(x);
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", what);
    return 2;
  }
  kp_synchronize();
  printf("grid_sync_errors %s: finished\n", what);
  return 0;
}
