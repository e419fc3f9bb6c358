/* particles_forces.c — the physics of particles.c in a file of its own: device functions only,
 * no kernels. Non-static `device` functions are callable from other files' kernels. */
#include "particles_forces.h"

/* static: this file's own helper, not visible to other files. */
static __attribute__((device)) float square(float v) { return v * v; }

__attribute__((device)) float spring_force(float x, float v, float k, float drag) {
  return -k * x - drag * v;
}

__attribute__((device)) float spring_energy(float x, float k) { return 0.5f * k * square(x); }
