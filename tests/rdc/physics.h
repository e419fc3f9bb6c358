/* physics.h — device functions that physics.c defines and other files' kernels call: each
 * declared with `device` on its prototype (docs/compiling.md, "Device code in several files"). */
#ifndef RDC_PHYSICS_H
#define RDC_PHYSICS_H

#include <kernplug.h>

__attribute__((device)) float physics_force(float x, float k);
__attribute__((device)) float physics_energy(float x, float k);
/* The sum of v over the block's threads (shared memory and barriers inside). */
__attribute__((device)) float physics_block_sum(float v);

#endif
