/* zero_suppress.c — seed 002's exercise: force int16 waveform samples below a threshold to
 * zero, the threshold a scalar broadcast to every sample.
 *
 *   n = 100000
 *   noise = np.random.normal(size=n) * 3
 *   pulses = np.maximum(np.sin(np.arange(n) / (n / 23)) - 0.3, 0.0)
 *   waveform = ((pulses * 300) + noise).astype(np.int16)
 *
 *   @vectorize(['int16(int16, int16)'], target='cuda')
 *   def zero_suppress(waveform_value, threshold):
 *       if waveform_value < threshold:
 *           result = 0
 *       else:
 *           result = waveform_value
 *       return result
 *
 *   zero_suppress(waveform, 15)
 */
#include <math.h>
#include <stdint.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((vectorize("int16(int16, int16)")))
short zero_suppress(short waveform_value, short threshold) {
  short result;
  if (waveform_value < threshold)
    result = 0;
  else
    result = waveform_value;
  return result;
}

static unsigned long long g_seed = 2024;

int main(void) {
  const char *backend = example_start("zero_suppress");
  enum { n = 100000 };
  static int16_t waveform[n], suppressed[n];
  for (int i = 0; i < n; i++) {
    double noise = example_normal(&g_seed) * 3;
    double pulses = fmax(sin(i / (n / 23.0)) - 0.3, 0.0);
    waveform[i] = (int16_t)(pulses * 300 + noise);
  }

  ufunc(zero_suppress, n, suppressed, waveform, 15); /* loads the GPU code */
  double t0 = example_now_ms();
  ufunc(zero_suppress, n, suppressed, waveform, 15);
  double ms = example_now_ms() - t0;

  int bad = 0, zeroed = 0;
  for (int i = 0; i < n; i++) {
    bad += suppressed[i] != (waveform[i] < 15 ? 0 : waveform[i]);
    zeroed += suppressed[i] == 0;
  }
  printf("%d of %d samples suppressed; waveform[30000:30004] = [%d %d %d %d] -> [%d %d %d %d]\n",
         zeroed, n, waveform[30000], waveform[30001], waveform[30002], waveform[30003],
         suppressed[30000], suppressed[30001], suppressed[30002], suppressed[30003]);
  printf("zero_suppress: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
