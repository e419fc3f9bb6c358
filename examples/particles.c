/* particles.c — a kernel calling device functions defined in another file (particles_forces.c):
 * n independent damped springs stepped with semi-implicit Euler, then their energy summed
 * per block in shared memory. Built from two files:
 *   kpcc -O2 -c particles.c && kpcc -O2 -c particles_forces.c && kpcc particles.o particles_forces.o -lm
 * The host repeats the computation in the same float operations and compares exactly (the
 * energy sum with a tolerance, since the block's order of additions differs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_util.h"
#include "particles_forces.h"

enum { THREADS = 128 };

__attribute__((kernel)) void step_springs(float *x, float *v, float k, float drag, float dt,
                                          int steps, int n) {
  int i = grid(1);
  if (i >= n) return;
  float xi = x[i], vi = v[i];
  for (int s = 0; s < steps; s++) {
    vi += dt * spring_force(xi, vi, k, drag); /* defined in particles_forces.c */
    xi += dt * vi;
  }
  x[i] = xi;
  v[i] = vi;
}

__attribute__((kernel)) void block_energy(const float *x, float k, int n, float *per_block) {
  static __attribute__((shared)) float part[THREADS];
  int i = grid(1);
  part[threadIdx.x] = i < n ? spring_energy(x[i], k) : 0.0f; /* particles_forces.c */
  syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int t = 0; t < THREADS; t++) s += part[t];
    per_block[blockIdx.x] = s;
  }
}

/* The same arithmetic on the host, in the same order. */
static float host_force(float x, float v, float k, float drag) { return -k * x - drag * v; }

int main(int argc, char **argv) {
  const char *backend = example_start("particles");
  int n = argc > 1 ? atoi(argv[1]) : 10000, steps = 200;
  const float k = 4.0f, drag = 0.1f, dt = 0.01f;
  int blocks = (n + THREADS - 1) / THREADS;
  float *x = malloc(sizeof *x * (size_t)n), *v = malloc(sizeof *v * (size_t)n);
  float *e = malloc(sizeof *e * (size_t)blocks);
  for (int i = 0; i < n; i++) x[i] = (float)(i % 101) / 50.0f - 1.0f, v[i] = 0.0f;

  float *dx = to_device(x, n), *dv = to_device(v, n), *de = device_array(float, blocks);
  launch(step_springs, blocks, THREADS)(dx, dv, k, drag, dt, steps, n);
  launch(block_energy, blocks, THREADS)(dx, k, n, de);
  float *gx = malloc(sizeof *gx * (size_t)n);
  copy_to_host(gx, dx, n);
  copy_to_host(e, de, blocks);

  int bad = 0;
  double energy = 0, want_energy = 0;
  for (int i = 0; i < n; i++) {
    float xi = x[i], vi = v[i];
    for (int s = 0; s < steps; s++) {
      vi += dt * host_force(xi, vi, k, drag);
      xi += dt * vi;
    }
    bad += fabsf(gx[i] - xi) > 1e-5f; /* the GPU may contract a*b+c into one FMA */
    want_energy += 0.5 * k * (double)xi * xi;
  }
  for (int b = 0; b < blocks; b++) energy += e[b];
  bad += fabs(energy - want_energy) > 1e-3 * fabs(want_energy) + 1e-6;
  printf("particles: %s backend, %d springs, %d steps, energy %.4f (host %.4f), %d wrong: %s\n",
         backend, n, steps, energy, want_energy, bad, bad ? "FAIL" : "ok");
  kp_free(dx);
  kp_free(dv);
  kp_free(de);
  free(x), free(v), free(e), free(gx);
  return bad != 0;
}
