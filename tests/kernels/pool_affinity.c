/* pool_affinity.c — the CPU backend sizes its pool from the process's CPU affinity, not the
 * machine's cores: bound to one CPU before the runtime starts (as `taskset -c 0` or an MPI
 * launcher binding a rank to a core would), it runs one participant, and KP_NUM_THREADS still
 * overrides (pool_affinity.cmake runs it with KP_NUM_THREADS=3). The device's
 * multiprocessor count is the pool's size. A grid of many blocks then computes right on that
 * pool. On a GPU only the computation is checked. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

__attribute__((kernel)) void square_plus(const int *in, int *out, int n, int add) {
  int i = grid(1);
  if (i < n) out[i] = in[i] * in[i] + add;
}

enum { N = 64 * 256 + 17 };

int main(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  KT_CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &set)) first++;
  KT_CHECK(first < CPU_SETSIZE, "no CPU in the affinity mask");
  CPU_ZERO(&set);
  CPU_SET(first, &set);
  KT_CHECK(sched_setaffinity(0, sizeof set, &set) == 0, "sched_setaffinity(CPU %d)", first);

  const char *backend = kt_start("pool_affinity");
  if (strcmp(backend, "cpu") == 0) {
    const char *env = getenv("KP_NUM_THREADS");
    int want = env && *env ? atoi(env) : 1;
    kp_device_properties p;
    KT_CHECK(kp_device_properties_get(0, &p) == KP_SUCCESS, "kp_device_properties_get");
    KT_CHECK(p.multiprocessors == want, "bound to CPU %d: %d participants, want %d", first,
             p.multiprocessors, want);
    printf("pool_affinity: bound to CPU %d: %d participants\n", first, p.multiprocessors);
  }

  static int host_in[N], host_out[N];
  for (int i = 0; i < N; i++) host_in[i] = i % 1013 - 500;
  int *in = device_array(int, N), *out = device_array(int, N);
  copy_to_device(in, host_in, N);
  launch(square_plus, (N + 255) / 256, 256)(in, out, N, 7);
  kp_synchronize();
  copy_to_host(host_out, out, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(host_out[i] == host_in[i] * host_in[i] + 7, "element %d: %d", i, host_out[i]);
  kp_free(in);
  kp_free(out);
  printf("pool_affinity: ok\n");
  return 0;
}
