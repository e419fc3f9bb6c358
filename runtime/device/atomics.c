/* The atomics that C's __atomic builtins cannot express: CUDA's wrapping inc/dec.
 * (add/sub/min/max/and/or/xor/exch/cas are __atomic builtins in kernplug.h, which NVPTX
 * lowers to atom.* directly.) The generic-address forms accept global and shared pointers. */
#include "kp_device.h"

/* Stores (old >= limit) ? 0 : old + 1 and returns old. */
unsigned kp_dev_atomic_inc_u32(unsigned *p, unsigned limit) {
  return __nvvm_atom_inc_gen_ui(p, limit);
}
/* Stores (old == 0 || old > limit) ? limit : old - 1 and returns old. */
unsigned kp_dev_atomic_dec_u32(unsigned *p, unsigned limit) {
  return __nvvm_atom_dec_gen_ui(p, limit);
}
