/* memory_threads.c — memory from several host threads at once: each thread allocates every
 * kind, registers its own pages, launches kernels on pinned, registered, managed and device
 * arrays (the automatic copies of different threads must not mix) and frees them, while
 * another thread keeps allocating and freeing device arrays and asking for kinds, so that
 * the allocation table is read and changed concurrently. Results are checked against the
 * host on either backend. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "kernel_test.h"

__attribute__((kernel)) void axpb(float *x, float a, float b, int n) {
  int i = grid(1);
  if (i < n) x[i] = a * x[i] + b;
}

__attribute__((kernel)) void sum_into(const float *a, const float *b, float *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = a[i] + b[i];
}

enum { THREADS = 4, ROUNDS = 30, N = 3000, T = 128, PAGE = 4096 };
#define BLOCKS(n) (((n) + T - 1) / T)

static atomic_int g_stop;

static void *worker(void *arg) {
  int id = (int)(uintptr_t)arg;
  size_t page_bytes = (N * sizeof(float) + PAGE - 1) / PAGE * PAGE;
  for (int r = 0; r < ROUNDS; r++) {
    float a = (float)(id + 1), b = (float)r;
    float *p = pinned_array(float, N), *m = managed_array(float, N);
    float *h = aligned_alloc(PAGE, page_bytes);
    KT_CHECK(p && m && h && kp_register(h, page_bytes) == h, "thread %d: allocations", id);
    for (int i = 0; i < N; i++) p[i] = (float)i, h[i] = (float)(N - i), m[i] = 0;
    float *d = to_device(p, N);
    launch(axpb, BLOCKS(N), T)(p, a, b, N);  /* pinned: copied in and back */
    launch(axpb, BLOCKS(N), T)(d, a, b, N);  /* device: in place */
    launch(sum_into, BLOCKS(N), T)(p, h, m, N); /* pinned + registered in, managed out */
    kp_synchronize();
    float *back = malloc(N * sizeof *back);
    copy_to_host(back, d, N);
    for (int i = 0; i < N; i++) {
      float want = a * (float)i + b;
      KT_CHECK(p[i] == want && back[i] == want, "thread %d round %d: p[%d] = %g, d = %g, want %g",
               id, r, i, p[i], back[i], want);
      KT_CHECK(m[i] == want + (float)(N - i), "thread %d round %d: m[%d] = %g", id, r, i, m[i]);
      KT_CHECK(h[i] == (float)(N - i), "thread %d: registered input changed", id);
    }
    free(back);
    kp_unregister(h);
    free(h);
    kp_free(d);
    kp_free(m);
    kp_free(p);
  }
  return NULL;
}

/* Allocation churn beside the workers: sizes vary so that the table's order changes. */
static void *churn(void *arg) {
  (void)arg;
  unsigned long long rounds = 0;
  float *keep[8] = {0};
  while (!atomic_load(&g_stop) || rounds < 100) {
    int k = (int)(rounds % 8);
    kp_free(keep[k]);
    keep[k] = device_array(float, 1 + rounds % 777);
    KT_CHECK(kp_memory_kind_of(keep[k] + rounds % 777) == KP_MEMORY_DEVICE, "churn kind");
    rounds++;
  }
  for (int k = 0; k < 8; k++) kp_free(keep[k]);
  printf("memory_threads: %llu allocations beside the workers\n", rounds);
  return NULL;
}

int main(void) {
  kt_start("memory_threads");
  pthread_t t[THREADS], c;
  KT_CHECK(pthread_create(&c, NULL, churn, NULL) == 0, "thread");
  for (uintptr_t i = 0; i < THREADS; i++)
    KT_CHECK(pthread_create(&t[i], NULL, worker, (void *)i) == 0, "thread");
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  atomic_store(&g_stop, 1);
  pthread_join(c, NULL);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  puts("memory_threads: OK");
  return 0;
}
