/* gaussian_pdf.c — seed 002's Gaussian density over a million float32 values, with the mean
 * and sigma broadcast as scalars to every element.
 *
 *   SQRT_2PI = np.float32((2*math.pi)**0.5)
 *
 *   @vectorize(['float32(float32, float32, float32)'], target='cuda')
 *   def gaussian_pdf(x, mean, sigma):
 *       '''Compute the value of a Gaussian probability density function at x with given
 *       mean and sigma.'''
 *       return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)
 *
 *   x = np.random.uniform(-3, 3, size=1000000).astype(np.float32)
 *   mean = np.float32(0.0)
 *   sigma = np.float32(1.0)
 *   %timeit norm_pdf.pdf(x, loc=mean, scale=sigma)   # scipy.stats on the CPU: 68 ms
 *   %timeit gaussian_pdf(x, mean, sigma)             # the GPU, copies included: 4.88 ms
 *
 *   @vectorize
 *   def cpu_gaussian_pdf(x, mean, sigma):
 *       return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)
 *   %timeit cpu_gaussian_pdf(x, mean, sigma)         # Numba on the CPU: 23 ms
 *
 * cpu_gaussian_pdf is the same C function called in a loop on the host (one core), and the
 * host reference; the GPU's expf may differ from the C library's in the last bits, so results
 * are compared to a relative 1e-5. Both are timed as the mean of 7 calls; the ufunc call takes
 * host arrays, so on a GPU it includes the copies, as in the seed. */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

static const float SQRT_2PI = 2.50662827463f; /* (2*pi)**0.5 as float32 */

__attribute__((vectorize("float32(float32, float32, float32)")))
float gaussian_pdf(float x, float mean, float sigma) {
  float z = (x - mean) / sigma;
  return expf(-0.5f * z * z) / (sigma * SQRT_2PI);
}

int main(void) {
  const char *backend = example_start("gaussian_pdf");
  enum { n = 1000000 };
  static float x[n], pdf[n];
  unsigned long long seed = 42; /* np.random.uniform(-3, 3, size=n), reproducibly */
  for (int i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = (float)((double)(seed >> 11) / 9007199254740992.0 * 6.0 - 3.0);
  }
  float mean = 0.0f, sigma = 1.0f;
  float first; /* a quick test on a single element: all three inputs scalars */
  ufunc(gaussian_pdf, 1, &first, x[0], 0.0f, 1.0f);
  printf("gaussian_pdf(x[0], 0.0, 1.0) = [%.8f]\n", first);
  int bad = !(fabsf(first - gaussian_pdf(x[0], 0.0f, 1.0f)) <= 1e-5f * first);

  static float cpu_pdf[n];
  double t0 = example_now_ms();
  for (int r = 0; r < 7; r++)
    for (int i = 0; i < n; i++) cpu_pdf[i] = gaussian_pdf(x[i], mean, sigma);
  double cpu_ms = (example_now_ms() - t0) / 7;

  ufunc(gaussian_pdf, n, pdf, x, mean, sigma); /* the first call loads the GPU code */
  t0 = example_now_ms();
  for (int r = 0; r < 7; r++) ufunc(gaussian_pdf, n, pdf, x, mean, sigma);
  double ms = (example_now_ms() - t0) / 7;

  for (int i = 0; i < n; i++) {
    float want = cpu_pdf[i];
    bad += !(fabsf(pdf[i] - want) <= 1e-5f * want);
  }
  printf("gaussian_pdf(x[:3]) = [%.7f %.7f %.7f]; %d of %d off\n", pdf[0], pdf[1], pdf[2], bad,
         n);
  printf("cpu_gaussian_pdf(x, mean, sigma) (host loop): %9.3f ms per loop (mean of 7)\n", cpu_ms);
  printf("gaussian_pdf(x, mean, sigma) (ufunc):         %9.3f ms per loop (mean of 7)\n", ms);
  printf("gaussian_pdf: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
