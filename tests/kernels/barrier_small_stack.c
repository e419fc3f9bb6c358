/* barrier_small_stack.c — a kernel split at its barriers launched from a host thread with a
 * small stack. The split CPU entry keeps per-thread state on the stack of the thread that
 * runs the block (the launching thread is one of them); with 128 KiB of stack and 1024
 * threads x ~200 bytes of state that would overflow, so the runtime runs such a launch as
 * fibers instead. Checked against a host computation, from the small-stack thread and from
 * the main thread. */
#include <pthread.h>
#include <stdlib.h>

#include "kernel_test.h"

enum { THREADS = 1024, K = 48 };

/* Each thread keeps K values across a barrier (K * 4 bytes of per-thread state), then reads
 * its neighbour's shared element. */
__attribute__((kernel)) void rotate_sum(const int *in, int *out) {
  static __attribute__((shared)) int s[THREADS];
  unsigned t = threadIdx.x;
  int keep[K];
  for (int j = 0; j < K; j++) keep[j] = in[t] * (j + 1);
  s[t] = in[t];
  syncthreads();
  int acc = s[(t + 1) % THREADS];
  for (int j = 0; j < K; j++) acc += keep[(j * 7 + (int)t) % K];
  out[t] = acc;
}

static int check(const char *where) {
  int *in = device_array(int, THREADS), *out = device_array(int, THREADS);
  int host_in[THREADS], host_out[THREADS];
  for (int i = 0; i < THREADS; i++) host_in[i] = i % 97 - 40;
  copy_to_device(in, host_in, THREADS);
  launch(rotate_sum, 1, THREADS)(in, out);
  kp_synchronize();
  copy_to_host(host_out, out, THREADS);
  for (int t = 0; t < THREADS; t++) {
    int want = host_in[(t + 1) % THREADS];
    for (int j = 0; j < K; j++) want += host_in[t] * ((j * 7 + t) % K + 1);
    KT_CHECK(host_out[t] == want, "%s: thread %d: %d, want %d", where, t, host_out[t], want);
  }
  kp_free(in);
  kp_free(out);
  return 0;
}

static void *small_stack_thread(void *arg) {
  (void)arg;
  check("128 KiB thread");
  return NULL;
}

int main(void) {
  kt_start("barrier_small_stack");
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 128 * 1024);
  pthread_t th;
  KT_CHECK(pthread_create(&th, &attr, small_stack_thread, NULL) == 0, "pthread_create");
  pthread_join(th, NULL);
  pthread_attr_destroy(&attr);
  check("main thread");
  printf("barrier_small_stack: ok\n");
  return 0;
}
