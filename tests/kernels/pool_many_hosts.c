/* pool_many_hosts.c — launches from many host threads at once, of every size the CPU
 * backend's pool treats differently: one block (run on the launching thread alone), a few
 * small blocks (shared only with workers that are spinning), and grids large enough to wake
 * sleeping workers; kernels without barriers, split at a barrier, and on fibers (warp
 * shuffles). Some host threads pause now and then so that the workers fall asleep between
 * launches; one has a 128 KiB stack. Every result is checked against the host. On the CPU
 * backend a one-block launch must also run on the thread that launched it: its kernel
 * records the address of a local variable, which must lie on that thread's stack. */
#define _GNU_SOURCE /* pthread_getattr_np */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "kernel_test.h"

enum { HOSTS = 8, ROUNDS = 60, MAX_N = 300 * 128 };

__attribute__((kernel)) void affine(const int *in, int *out, int n, int mul, int add) {
  int i = grid(1);
  if (i < n) out[i] = in[i] * mul + add;
}

/* Per block: the sum of its inputs, through shared memory (split at its barriers). */
__attribute__((kernel)) void block_sums(const int *in, int *sums) {
  static __attribute__((shared)) int s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) s[t] += s[t + half];
    syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = s[0];
}

/* Per warp: the sum of its inputs, by shuffles (fibers). */
__attribute__((kernel)) void warp_sums(const int *in, int *sums) {
  int g = grid(1);
  int v = in[g];
  for (int d = 16; d > 0; d /= 2) v += shfl_down_sync(0xffffffffu, v, d);
  if (laneid() == 0) sums[g / 32] = v;
}

/* Where the thread running block 0 keeps a local: the CPU backend's caller-runs rule. */
__attribute__((kernel)) void where_am_i(unsigned long long *at) {
  volatile int local = 1;
  if (threadIdx.x == 0 && local) at[0] = (unsigned long long)(uintptr_t)&local;
}

static int g_cpu;
static atomic_int g_failures;

#define HOST_CHECK(cond, ...)                                                                \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, __VA_ARGS__);                                                          \
      fputc('\n', stderr);                                                                   \
      atomic_fetch_add(&g_failures, 1);                                                      \
      return;                                                                                \
    }                                                                                        \
  } while (0)

typedef struct host_arg {
  int id;
  int pauses; /* sleeps 300 us every few rounds: longer than the workers' spin */
} host_arg;

static void pause_300us(void) {
  struct timespec ts = {0, 300 * 1000};
  nanosleep(&ts, NULL);
}

static void run_host(const host_arg *a) {
  static const unsigned sizes[][2] = {{1, 32}, {1, 256}, {3, 64}, {4, 256}, {64, 256}, {300, 128}};
  int *h_in = malloc(MAX_N * sizeof *h_in), *h_out = malloc(MAX_N * sizeof *h_out);
  HOST_CHECK(h_in && h_out, "host %d: out of memory", a->id);
  for (int i = 0; i < MAX_N; i++) h_in[i] = (i * 37 + a->id * 11) % 201 - 100;
  int *in = device_array(int, MAX_N), *out = device_array(int, MAX_N);
  unsigned long long *at = device_array(unsigned long long, 1);
  copy_to_device(in, h_in, MAX_N);
  for (int r = 0; r < ROUNDS; r++) {
    const unsigned *sz = sizes[(r + a->id) % (sizeof sizes / sizeof sizes[0])];
    unsigned blocks = sz[0], threads = sz[1];
    int n = (int)(blocks * threads) - (r % 3), mul = r + 2, add = a->id - r;
    launch(affine, blocks, threads)(in, out, n, mul, add);
    copy_to_host(h_out, out, n);
    for (int i = 0; i < n; i++)
      HOST_CHECK(h_out[i] == h_in[i] * mul + add, "host %d round %d affine %ux%u: element %d: %d",
                 a->id, r, blocks, threads, i, h_out[i]);

    launch(block_sums, blocks, threads)(in, out);
    copy_to_host(h_out, out, (int)blocks);
    for (unsigned b = 0; b < blocks; b++) {
      int want = 0;
      for (unsigned t = 0; t < threads; t++) want += h_in[b * threads + t];
      HOST_CHECK(h_out[b] == want, "host %d round %d block_sums %ux%u: block %u: %d, want %d",
                 a->id, r, blocks, threads, b, h_out[b], want);
    }

    launch(warp_sums, blocks, threads)(in, out);
    copy_to_host(h_out, out, (int)(blocks * threads / 32));
    for (unsigned w = 0; w < blocks * threads / 32; w++) {
      int want = 0;
      for (unsigned l = 0; l < 32; l++) want += h_in[w * 32 + l];
      HOST_CHECK(h_out[w] == want, "host %d round %d warp_sums %ux%u: warp %u: %d, want %d",
                 a->id, r, blocks, threads, w, h_out[w], want);
    }

    if (g_cpu && r % 5 == 0) {
      pthread_attr_t attr;
      void *lo = NULL;
      size_t size = 0;
      HOST_CHECK(pthread_getattr_np(pthread_self(), &attr) == 0, "pthread_getattr_np");
      pthread_attr_getstack(&attr, &lo, &size);
      pthread_attr_destroy(&attr);
      unsigned long long addr = 0;
      launch(where_am_i, 1, 64)(at);
      copy_to_host(&addr, at, 1);
      HOST_CHECK(addr >= (uintptr_t)lo && addr < (uintptr_t)lo + size,
                 "host %d: a one-block launch ran on another thread (local at 0x%llx, this "
                 "thread's stack [%p, +%zu))",
                 a->id, addr, lo, size);
    }
    if (a->pauses && r % 4 == 3) pause_300us();
  }
  kp_free(in);
  kp_free(out);
  kp_free(at);
  free(h_in);
  free(h_out);
}

static void *host_main(void *p) {
  run_host(p);
  return NULL;
}

int main(void) {
  g_cpu = strcmp(kt_start("pool_many_hosts"), "cpu") == 0;
  pthread_t th[HOSTS];
  host_arg args[HOSTS];
  for (int i = 0; i < HOSTS; i++) {
    args[i] = (host_arg){.id = i, .pauses = i % 2};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (i == HOSTS - 1) pthread_attr_setstacksize(&attr, 128 * 1024);
    KT_CHECK(pthread_create(&th[i], &attr, host_main, &args[i]) == 0, "pthread_create %d", i);
    pthread_attr_destroy(&attr);
  }
  for (int i = 0; i < HOSTS; i++) pthread_join(th[i], NULL);
  KT_CHECK(atomic_load(&g_failures) == 0, "%d host threads failed", atomic_load(&g_failures));
  printf("pool_many_hosts: %d host threads x %d rounds: ok\n", HOSTS, ROUNDS);
  return 0;
}
