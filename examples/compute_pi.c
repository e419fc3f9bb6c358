/* compute_pi.c — numba-cuda's random-number example ("Random Number Generation", A simple
 * example): each of 24 x 64 threads draws 10000 points (x, y) from its own xoroshiro128+
 * generator and counts those inside the unit circle; the mean over threads estimates pi.
 *
 *   @cuda.jit
 *   def compute_pi(rng_states, iterations, out):
 *       thread_id = cuda.grid(1)
 *       inside = 0
 *       for i in range(iterations):
 *           x = xoroshiro128p_uniform_float32(rng_states, thread_id)
 *           y = xoroshiro128p_uniform_float32(rng_states, thread_id)
 *           if x**2 + y**2 <= 1.0:
 *               inside += 1
 *       out[thread_id] = 4.0 * inside / iterations
 *
 *   rng_states = create_xoroshiro128p_states(threads_per_block * blocks, seed=1)
 *   compute_pi[blocks, threads_per_block](rng_states, 10000, out)
 *
 * The seed gives the same draws as numba's, on the GPU and on the CPU backend. */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"
#include "kernplug/random.h"

__attribute__((kernel)) void compute_pi(kp_xoroshiro128p_state *rng_states, int iterations,
                                        float *out) {
  int thread_id = grid(1);
  int inside = 0;
  for (int i = 0; i < iterations; i++) {
    float x = xoroshiro128p_uniform_float32(rng_states, thread_id);
    float y = xoroshiro128p_uniform_float32(rng_states, thread_id);
    if (x * x + y * y <= 1.0f) inside += 1;
  }
  out[thread_id] = 4.0f * (float)inside / (float)iterations;
}

int main(void) {
  const char *backend = example_start("compute_pi");
  enum { threads_per_block = 64, blocks = 24, n = threads_per_block * blocks };
  kp_xoroshiro128p_state *rng_states = create_xoroshiro128p_states(n, 1);
  float *out = device_array(float, n), host[n];

  double t0 = example_now_ms();
  launch(compute_pi, blocks, threads_per_block)(rng_states, 10000, out);
  copy_to_host(host, out, n);
  double ms = example_now_ms() - t0;

  double mean = 0;
  for (int i = 0; i < n; i++) mean += host[i];
  mean /= n;
  /* 15.36M points: the estimate's standard deviation is about 4e-4. */
  int ok = fabs(mean - 3.14159265358979) < 3e-3;
  printf("pi: %.6f\n", mean);
  printf("compute_pi: %s backend, %s, %.3f ms\n", backend, ok ? "OK" : "FAIL", ms);
  kp_free(rng_states);
  kp_free(out);
  return ok ? 0 : 1;
}
