/* grid_stride_no_finish.c — grid-stride kernels whose interchanged CPU entry has no finish
 * phase (kernplug-grid-stride-interchange: the code after the loop has no effect, so no
 * thread loop runs it; `-Rpass=kernplug` says "no finish phase"), beside one whose code after
 * the loop stores (its finish phase kept). Each result is checked against the same loops run
 * on the host, at sizes with no round, fewer elements than threads, complete and partial
 * rounds, and several groups of blocks. */
#include <stdlib.h>

#include "kernel_test.h"
#include "kernplug.h"

/* Nothing after the loop. */
__attribute__((kernel)) void gnf_axpy(float a, const float *x, float *y, int n) {
  for (int i = grid(1); i < n; i += gridsize(1)) y[i] = a * x[i] + y[i];
}

/* After the loop only values without effect: the loop's last index, a load, discarded. */
__attribute__((kernel)) void gnf_dead_tail(const float *x, float *y, int n) {
  int i = grid(1);
  for (; i < n; i += gridsize(1)) y[i] = 2.0f * x[i];
  float unused = n > 0 ? x[0] * (float)i : 0.0f;
  (void)unused;
}

/* A store after the loop: the finish phase is kept. */
__attribute__((kernel)) void gnf_tail(const float *x, float *y, int *count, int n) {
  int c = 0;
  for (int i = grid(1); i < n; i += gridsize(1)) y[i] = x[i] + 1.0f, c++;
  count[grid(1)] = c;
}

static void check(int n, unsigned blocks, unsigned threads) {
  size_t len = n > 0 ? (size_t)n : 1, total = (size_t)blocks * threads;
  float *x = malloc(len * sizeof(float)), *y = malloc(len * sizeof(float));
  float *want = malloc(len * sizeof(float));
  int *last = calloc(total, sizeof(int));
  for (size_t i = 0; i < len; i++) x[i] = (float)(i % 97) * 0.5f, y[i] = (float)(i % 13);
  float *dx = to_device(x, len), *dy = to_device(y, len);
  int *dl = to_device(last, total);

  launch(gnf_axpy, blocks, threads)(3.0f, dx, dy, n);
  copy_to_host(want, dy, len);
  for (long long i = 0; i < n; i++) {
    float w = 3.0f * x[i] + y[i];
    KT_CHECK(want[i] == w, "gnf_axpy n=%d %ux%u: y[%lld] = %g, expected %g", n, blocks, threads,
             i, (double)want[i], (double)w);
  }

  launch(gnf_dead_tail, blocks, threads)(dx, dy, n);
  copy_to_host(want, dy, len);
  for (long long i = 0; i < n; i++)
    KT_CHECK(want[i] == 2.0f * x[i], "gnf_dead_tail n=%d %ux%u: y[%lld] = %g, expected %g", n,
             blocks, threads, i, (double)want[i], (double)(2.0f * x[i]));

  launch(gnf_tail, blocks, threads)(dx, dy, dl, n);
  copy_to_host(want, dy, len);
  copy_to_host(last, dl, total);
  for (long long i = 0; i < n; i++)
    KT_CHECK(want[i] == x[i] + 1.0f, "gnf_tail n=%d %ux%u: y[%lld] = %g, expected %g", n, blocks,
             threads, i, (double)want[i], (double)(x[i] + 1.0f));
  for (size_t t = 0; t < total; t++) {
    int c = 0;
    for (long long i = (long long)t; i < n; i += (long long)total) c++;
    KT_CHECK(last[t] == c, "gnf_tail n=%d %ux%u: thread %zu counted %d, expected %d", n, blocks,
             threads, t, last[t], c);
  }
  kp_free(dx), kp_free(dy), kp_free(dl);
  free(x), free(y), free(want), free(last);
}

int main(void) {
  kt_start("grid_stride_no_finish");
  check(0, 4, 64);               /* no round */
  check(100, 4, 64);             /* fewer elements than threads */
  check(256 * 5 + 77, 4, 64);    /* complete rounds and a partial one */
  check(300000, 96, 256);        /* several groups of blocks */
  printf("grid_stride_no_finish: ok\n");
  return 0;
}
