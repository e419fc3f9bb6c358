/* jit_cpu.c — seed 002's first steps, "compile for the CPU": the functions the tutorial
 * compiles with @jit and runs on the CPU, as plain C. C is compiled ahead of time, so the
 * plain function is what @jit produced; there is no GPU work and no kernplug call here.
 *
 *   @jit
 *   def hypot(x, y):
 *       # Implementation from https://en.wikipedia.org/wiki/Hypot
 *       x = abs(x);
 *       y = abs(y);
 *       t = min(x, y);
 *       x = max(x, y);
 *       t = t / x;
 *       return x * math.sqrt(1+t*t)
 *
 *   hypot(3.0, 4.0)                 # 5.0
 *   %timeit hypot.py_func(3.0, 4.0) # 683 ns
 *   %timeit hypot(3.0, 4.0)         # 191 ns
 *   %timeit math.hypot(3.0, 4.0)    # 129 ns
 *
 *   nsamples = 1000000
 *   @jit
 *   def monte_carlo_pi(nsamples):
 *       acc = 0
 *       for i in range(nsamples):
 *           x = random.random()
 *           y = random.random()
 *           if (x**2 + y**2) < 1.0:
 *               acc += 1
 *       return 4.0 * acc / nsamples
 *
 *   testing.assert_almost_equal(monte_carlo_pi(nsamples), monte_carlo_pi.py_func(nsamples),
 *                               decimal=2)
 *   %timeit monte_carlo_pi(nsamples)          # 10.8 ms
 *   %timeit monte_carlo_pi.py_func(nsamples)  # 367 ms
 *
 * hypot is checked against the C library's hypot on random pairs, and timed against it as the
 * seed timed math.hypot (the inputs are read through volatile variables so that the compiler
 * cannot fold the call away). monte_carlo_pi draws from a 64-bit generator (random.random's
 * role); two runs with different seeds must agree to two decimals, as the seed's assertion
 * asks, and with pi. Usage: jit_cpu [nsamples]   (default 1000000) */
#include <math.h>
#include <stdint.h>

#include "example_util.h"

static double hypot_jit(double x, double y) { /* math.h has the name hypot */
  x = fabs(x);
  y = fabs(y);
  double t = fmin(x, y);
  x = fmax(x, y);
  t = t / x;
  return x * sqrt(1 + t * t);
}

static uint64_t rng_state;
static double random_random(void) { /* xorshift64*: a double uniform in [0, 1) */
  rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

static double monte_carlo_pi(long long nsamples) {
  long long acc = 0;
  for (long long i = 0; i < nsamples; i++) {
    double x = random_random();
    double y = random_random();
    if (x * x + y * y < 1.0) acc += 1;
  }
  return 4.0 * (double)acc / (double)nsamples;
}

/* Nanoseconds per call of f(3.0, 4.0), the mean of `calls` calls. */
static double time_hypot(double (*f)(double, double), long calls, double *sink) {
  volatile double x = 3.0, y = 4.0;
  double s = 0, t0 = example_now_ms();
  for (long i = 0; i < calls; i++) s += f(x, y);
  double ns = (example_now_ms() - t0) * 1e6 / (double)calls;
  *sink += s;
  return ns;
}

int main(int argc, char **argv) {
  long long nsamples = argc > 1 ? atoll(argv[1]) : 1000000;
  if (nsamples < 1000) {
    fprintf(stderr, "jit_cpu: nsamples must be at least 1000\n");
    return 2;
  }
  int bad = 0;
  double t_start = example_now_ms();

  /* hypot */
  double h = hypot_jit(3.0, 4.0);
  printf("hypot(3.0, 4.0) = %.1f\n", h);
  bad += h != 5.0;
  rng_state = 12345;
  for (int i = 0; i < 100000; i++) {
    double x = (random_random() - 0.5) * 1e6, y = (random_random() - 0.5) * 1e-3;
    if (i & 1) y *= 1e9;
    double want = hypot(x, y), got = hypot_jit(x, y);
    if (!(fabs(got - want) <= 4 * 0x1p-52 * want)) {
      if (bad++ < 3)
        fprintf(stderr, "jit_cpu: hypot(%g, %g) = %.17g, want %.17g\n", x, y, got, want);
    }
  }
  double sink = 0, best_jit = 1e30, best_libm = 1e30;
  for (int r = 0; r < 7; r++) { /* best of 7, each the mean of 2M calls */
    double a = time_hypot(hypot_jit, 2000000, &sink), b = time_hypot(hypot, 2000000, &sink);
    best_jit = a < best_jit ? a : best_jit;
    best_libm = b < best_libm ? b : best_libm;
  }
  bad += sink != 2 * 7 * 2000000 * 5.0; /* every call returned 5 */
  printf("hypot(3.0, 4.0):      %6.2f ns per call (best of 7)\n", best_jit);
  printf("C library hypot:      %6.2f ns per call (math.hypot's role)\n", best_libm);

  /* Monte Carlo pi */
  rng_state = 0x9E3779B97F4A7C15ull;
  double pi1 = monte_carlo_pi(nsamples);
  rng_state = 0xD1B54A32D192ED03ull;
  double pi2 = monte_carlo_pi(nsamples);
  printf("monte_carlo_pi(%lld) = %.5f, again with another seed = %.5f\n", nsamples, pi1, pi2);
  bad += !(fabs(pi1 - pi2) < 1.5e-2); /* assert_almost_equal(..., decimal=2) */
  bad += !(fabs(pi1 - 3.14159265358979) < 1.5e-2);
  double best_pi = 1e30;
  for (int r = 0; r < 7; r++) {
    double t0 = example_now_ms();
    sink += monte_carlo_pi(nsamples);
    double t = example_now_ms() - t0;
    best_pi = t < best_pi ? t : best_pi;
  }
  printf("monte_carlo_pi(%lld): %9.3f ms per loop (best of 7)\n", nsamples, best_pi);

  printf("jit_cpu: host (plain C, no kernels), %s, %.3f ms\n", bad ? "FAIL" : "OK",
         example_now_ms() - t_start);
  return bad ? 1 : 0;
}
