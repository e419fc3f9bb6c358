/* memory_pool.c — allocating in a loop, and freeing memory a queued kernel still uses.
 * Each round allocates a device array, fills it with its round number, copies it into one
 * slot of a result array and frees it at once — on a GPU usually before the kernels have run,
 * so the next round's allocation may get the same memory back: the stream-ordered pool must
 * hand it out only after the kernels of the earlier round. The result must hold every round's
 * number. Also prints what an allocation and free costs here (device_array + kp_free; the
 * figures are informative, not checked). */
#include "kernel_test.h"

__attribute__((kernel)) void fill(int *x, int v, int n) {
  int i = grid(1);
  if (i < n) x[i] = v;
}

/* out[r] = sum of x[0..n-1] / n, by one thread (slow on purpose: the next round queues up). */
__attribute__((kernel)) void mean_into(const int *x, int n, int *out, int r) {
  if (grid(1) != 0) return;
  long long s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  out[r] = (int)(s / n);
}

enum { ROUNDS = 200, N = 1 << 16, LOOP = 20000 };

int main(void) {
  kt_start("memory_pool");
  int *out = device_array(int, ROUNDS);
  for (int r = 0; r < ROUNDS; r++) {
    int *x = device_array(int, N);
    launch(fill, N / 256, 256)(x, r + 1, N);
    launch(mean_into, 1, 32)(x, N, out, r);
    kp_free(x); /* the kernels above may still be queued */
  }
  int host[ROUNDS];
  copy_to_host(host, out, ROUNDS);
  for (int r = 0; r < ROUNDS; r++) KT_CHECK(host[r] == r + 1, "round %d saw %d", r, host[r]);
  kp_free(out);

  /* what an allocation costs: the same size over and over, then sizes that vary */
  double t0 = example_now_ms();
  for (int i = 0; i < LOOP; i++) kp_free(device_array(float, 1 << 20));
  double t1 = example_now_ms();
  for (int i = 0; i < LOOP; i++) kp_free(device_array(char, 1 + (i * 7919) % (1 << 22)));
  double t2 = example_now_ms();
  printf("memory_pool: device_array + kp_free of 4 MiB: %.2f us; of 1 B..4 MiB: %.2f us\n",
         (t1 - t0) * 1e3 / LOOP, (t2 - t1) * 1e3 / LOOP);
  KT_CHECK(kp_last_error() == KP_SUCCESS, "%s", kp_last_error_message());
  puts("memory_pool: OK");
  return 0;
}
