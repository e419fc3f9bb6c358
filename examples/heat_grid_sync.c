/* heat_grid_sync.c — a whole time loop in one kernel: 1D heat diffusion where every step
 * reads the neighbours the previous step wrote, with grid_sync() between steps (numba-cuda:
 * cuda.cg.this_grid().sync(); CUDA C: cg::this_grid().sync()). The kernel reaches grid_sync,
 * so launch() makes a cooperative launch: every block must be resident at once. The grid is
 * therefore sized with kp_max_cooperative_grid_blocks, not from n, and each thread walks the
 * points with a grid-stride loop. Without grid_sync this takes one launch per step.
 * The host computes the same steps; the results must agree to rounding (the GPU may fuse a
 * multiply-add). */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

enum { N = 20000, STEPS = 100, THREADS = 128 };
static const double ALPHA = 0.25; /* diffusion number: stable below 0.5 */

__attribute__((kernel)) void heat(double *a, double *b, int n, int steps, double alpha) {
  for (int s = 0; s < steps; s++) {
    const double *cur = s % 2 ? b : a;
    double *next = s % 2 ? a : b;
    for (int i = grid(1); i < n; i += gridsize(1)) {
      double left = i > 0 ? cur[i - 1] : 0.0, right = i < n - 1 ? cur[i + 1] : 0.0;
      next[i] = cur[i] + alpha * (left - 2.0 * cur[i] + right);
    }
    grid_sync(); /* the whole step is written before any thread reads it */
  }
}

int main(void) {
  example_start("heat_grid_sync");
  double *h = malloc(sizeof(double) * N), *h2 = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) h[i] = (i > N / 3 && i < N / 2) ? 100.0 : 0.0;

  long long max_blocks = kp_max_cooperative_grid_blocks(heat, THREADS, 0);
  long long wanted = (N + THREADS - 1) / THREADS;
  int blocks = (int)(wanted < max_blocks ? wanted : max_blocks);
  printf("heat_grid_sync: %d steps over %d points, %d blocks of %d threads (at most %lld "
         "co-resident)\n",
         STEPS, N, blocks, THREADS, max_blocks);

  double t0 = example_now_ms();
  double *d_a = to_device(h, N), *d_b = device_array(double, N);
  launch(heat, blocks, THREADS)(d_a, d_b, N, STEPS, ALPHA);
  double *out = STEPS % 2 ? d_b : d_a;
  double *result = malloc(sizeof(double) * N);
  copy_to_host(result, out, N);
  double ms = example_now_ms() - t0;

  for (int s = 0; s < STEPS; s++) { /* the host's steps, h -> h2 -> h */
    for (int i = 0; i < N; i++) {
      double left = i > 0 ? h[i - 1] : 0.0, right = i < N - 1 ? h[i + 1] : 0.0;
      h2[i] = h[i] + ALPHA * (left - 2.0 * h[i] + right);
    }
    double *t = h;
    h = h2, h2 = t;
  }
  int bad = 0;
  double heat_total = 0;
  for (int i = 0; i < N; i++) {
    heat_total += result[i];
    if (fabs(result[i] - h[i]) > 1e-9 * (1.0 + fabs(h[i]))) {
      if (bad < 5) fprintf(stderr, "point %d: %.17g, host %.17g\n", i, result[i], h[i]);
      bad++;
    }
  }
  printf("heat_grid_sync: total heat %.6f, %d points differ from the host, %.1f ms\n",
         heat_total, bad, ms);
  kp_free(d_a), kp_free(d_b);
  free(h), free(h2), free(result);
  return bad ? 1 : 0;
}
