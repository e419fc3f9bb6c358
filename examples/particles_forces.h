/* particles_forces.h — the device functions of particles_forces.c, for kernels in other files.
 * `device` on the prototype says "defined in another file, callable from device code": on the
 * CPU it is an ordinary call, on the GPU the runtime links the two files' device code when it
 * loads the kernel (docs/compiling.md, "Device code in several files"). */
#ifndef PARTICLES_FORCES_H
#define PARTICLES_FORCES_H

#include "kernplug.h"

/* The force of a spring of stiffness k on a particle at x (Hooke's law), plus drag. */
__attribute__((device)) float spring_force(float x, float v, float k, float drag);
/* The potential energy of that spring. */
__attribute__((device)) float spring_energy(float x, float k);

#endif
