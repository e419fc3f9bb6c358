/* make_pulses.c — seed 002's "optimize memory movement" exercise: two ufuncs chained on
 * device arrays, one copy to the device for each input and one copy back at the end.
 *
 *   @vectorize(['float32(float32, float32, float32)'], target='cuda')
 *   def make_pulses(i, period, amplitude):
 *       return max(math.sin(i / period) - 0.3, 0.0) * amplitude
 *
 *   @vectorize(['float32(float32, float32)'], target='cuda')
 *   def add_ufunc(x, y):
 *       return x + y
 *
 *   n = 100000
 *   noise = (np.random.normal(size=n) * 3).astype(np.float32)
 *   t = np.arange(n, dtype=np.float32)
 *   period = n / 23
 *
 *   # As it stands, with a round trip to the host between the two calls:
 *   pulses = make_pulses(t, period, 100.0)
 *   waveform = add_ufunc(pulses, noise)
 *
 *   # The exercise's answer, with device allocations:
 *   t_device = cuda.to_device(t)
 *   noise_device = cuda.to_device(noise)
 *   out_device = cuda.device_array_like(t_device)
 *   pulses = make_pulses(t_device, period, 100.0, out=out_device)
 *   waveform = add_ufunc(pulses, noise_device, out=out_device)
 *   waveform = out_device.copy_to_host()
 *
 * Both are timed (the first after a call that loads the GPU code) and checked; the host
 * reference is the same C code; sinf on the GPU may differ from the C library's in
 * the last bits, so results are compared to an absolute 1e-3 (amplitudes are ~100). */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

__attribute__((vectorize("float32(float32, float32, float32)")))
float make_pulses(float i, float period, float amplitude) {
  return fmaxf(sinf(i / period) - 0.3f, 0.0f) * amplitude;
}

__attribute__((vectorize("float32(float32, float32)"))) float add_ufunc(float x, float y) {
  return x + y;
}

static unsigned long long g_seed = 99;

int main(void) {
  const char *backend = example_start("make_pulses");
  enum { n = 100000 };
  static float noise[n], t[n], waveform[n];
  for (int i = 0; i < n; i++) noise[i] = (float)(example_normal(&g_seed) * 3), t[i] = (float)i;
  float period = n / 23.0f;

  /* with host arrays: each call copies its inputs in and its output back */
  static float pulses[n], naive[n];
  ufunc(make_pulses, n, pulses, t, period, 100.0); /* loads the GPU code */
  double t0 = example_now_ms();
  ufunc(make_pulses, n, pulses, t, period, 100.0);
  ufunc(add_ufunc, n, naive, pulses, noise);
  double naive_ms = example_now_ms() - t0;

  /* with device arrays: one copy in per input, one copy back */
  t0 = example_now_ms();
  float *t_device = to_device(t, n), *noise_device = to_device(noise, n);
  float *out_device = device_array_like(t_device);
  ufunc(make_pulses, n, out_device, t_device, period, 100.0);  /* pulses, on the device */
  ufunc(add_ufunc, n, out_device, out_device, noise_device);   /* + noise, in place */
  copy_to_host(waveform, out_device, n);                       /* the one copy back */
  double ms = example_now_ms() - t0;

  int bad = 0;
  for (int i = 0; i < n; i++) {
    float want = add_ufunc(make_pulses(t[i], period, 100.0f), noise[i]);
    bad += !(fabsf(waveform[i] - want) <= 1e-3f);
    bad += !(fabsf(naive[i] - want) <= 1e-3f);
  }
  printf("waveform[::20000] = [%.3f %.3f %.3f %.3f %.3f]; %d of %d off\n", waveform[0],
         waveform[20000], waveform[40000], waveform[60000], waveform[80000], bad, n);
  printf("host arrays, a round trip between the calls: %9.3f ms\n", naive_ms);
  printf("device arrays, one copy back:                %9.3f ms\n", ms);
  printf("make_pulses: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  kp_free(t_device);
  kp_free(noise_device);
  kp_free(out_device);
  return bad ? 1 : 0;
}
