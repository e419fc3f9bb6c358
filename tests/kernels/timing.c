/* timing.c — clock64() and kp_nanosleep (CUDA's __nanosleep) in kernels: every thread reads
 * the clock, sleeps, reads it again; the counter must not go backwards, and on the CPU
 * backend (nanoseconds) the sleep must show in it. The PTX reads %clock64 and sleeps with
 * nanosleep.u32 (compile.ptx.timing). */
#include "kernel_test.h"

enum { BLOCKS = 2, THREADS = 64, N = BLOCKS * THREADS, SLEEP_NS = 20000 };

__attribute__((kernel)) void timed(unsigned long long *t0, unsigned long long *t1) {
  int i = grid(1);
  t0[i] = clock64();
  __nanosleep(SLEEP_NS);
  t1[i] = kp_clock64();
}

int main(void) {
  const char *backend = kt_start("timing");
  unsigned long long *t0 = managed_array(unsigned long long, N);
  unsigned long long *t1 = managed_array(unsigned long long, N);
  launch(timed, BLOCKS, THREADS)(t0, t1);
  kp_synchronize();
  int cpu = strcmp(backend, "cpu") == 0;
  unsigned long long least = ~0ull;
  for (int i = 0; i < N; i++) {
    KT_CHECK(t1[i] >= t0[i], "thread %d: clock went from %llu to %llu", i, t0[i], t1[i]);
    if (t1[i] - t0[i] < least) least = t1[i] - t0[i];
  }
  /* The CPU's clock is in nanoseconds and its sleep is not shortened. */
  if (cpu) KT_CHECK(least >= SLEEP_NS, "a %d ns sleep lasted %llu ns", SLEEP_NS, least);
  printf("timing: shortest sleep %llu %s\n", least, cpu ? "ns" : "clock cycles");
  kp_free(t0), kp_free(t1);
  return 0;
}

/* PTX-LABEL: .visible .entry timed(
 * PTX: %clock64
 * PTX: nanosleep.u32
 * PTX: %clock64
 * PTX: ret;
 */
