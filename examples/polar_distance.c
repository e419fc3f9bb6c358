/* polar_distance.c — seed 002's ufunc that calls a device function. Python returns a tuple
 * from polar_to_cartesian; C returns a struct, which the GPU keeps in registers.
 *
 *   @cuda.jit(device=True)
 *   def polar_to_cartesian(rho, theta):
 *       x = rho * math.cos(theta)
 *       y = rho * math.sin(theta)
 *       return x, y  # This is Python, so let's return a tuple
 *
 *   @vectorize(['float32(float32, float32, float32, float32)'], target='cuda')
 *   def polar_distance(rho1, theta1, rho2, theta2):
 *       x1, y1 = polar_to_cartesian(rho1, theta1)
 *       x2, y2 = polar_to_cartesian(rho2, theta2)
 *       return ((x1 - x2)**2 + (y1 - y2)**2)**0.5
 *
 *   n = 1000000
 *   rho1 = np.random.uniform(0.5, 1.5, size=n).astype(np.float32)
 *   theta1 = np.random.uniform(-np.pi, np.pi, size=n).astype(np.float32)
 *   rho2 = np.random.uniform(0.5, 1.5, size=n).astype(np.float32)
 *   theta2 = np.random.uniform(-np.pi, np.pi, size=n).astype(np.float32)
 *   polar_distance(rho1, theta1, rho2, theta2)
 *
 * The host reference is the same C code; cosf/sinf on the GPU may differ from the C
 * library's in the last bits, so distances are compared to an absolute 1e-5. */
#include <math.h>

#include "example_util.h"
#include "kernplug.h"

typedef struct point {
  float x, y;
} point;

__attribute__((device)) point polar_to_cartesian(float rho, float theta) {
  point p = {rho * cosf(theta), rho * sinf(theta)};
  return p;
}

__attribute__((vectorize("float32(float32, float32, float32, float32)")))
float polar_distance(float rho1, float theta1, float rho2, float theta2) {
  point p1 = polar_to_cartesian(rho1, theta1);
  point p2 = polar_to_cartesian(rho2, theta2);
  return sqrtf((p1.x - p2.x) * (p1.x - p2.x) + (p1.y - p2.y) * (p1.y - p2.y));
}

static unsigned long long g_seed = 7;
static float uniform(double lo, double hi) { /* np.random.uniform, reproducibly */
  g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
  return (float)(lo + (double)(g_seed >> 11) / 9007199254740992.0 * (hi - lo));
}

int main(void) {
  const char *backend = example_start("polar_distance");
  enum { n = 1000000 };
  const double pi = 3.14159265358979323846;
  static float rho1[n], theta1[n], rho2[n], theta2[n], dist[n];
  for (int i = 0; i < n; i++) rho1[i] = uniform(0.5, 1.5);
  for (int i = 0; i < n; i++) theta1[i] = uniform(-pi, pi);
  for (int i = 0; i < n; i++) rho2[i] = uniform(0.5, 1.5);
  for (int i = 0; i < n; i++) theta2[i] = uniform(-pi, pi);

  ufunc(polar_distance, n, dist, rho1, theta1, rho2, theta2); /* loads the GPU code */
  double t0 = example_now_ms();
  ufunc(polar_distance, n, dist, rho1, theta1, rho2, theta2);
  double ms = example_now_ms() - t0;

  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += !(fabsf(dist[i] - polar_distance(rho1[i], theta1[i], rho2[i], theta2[i])) <= 1e-5f);
  printf("polar_distance(...)[:3] = [%.7f %.7f %.7f]; %d of %d off\n", dist[0], dist[1],
         dist[2], bad, n);
  printf("polar_distance: %s backend, %s, %.3f ms\n", backend, bad ? "FAIL" : "OK", ms);
  return bad ? 1 : 0;
}
