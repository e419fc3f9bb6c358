/* bf16_conversions.c — the float and double to __bf16 conversions clang calls on x86-64
 * (__truncsfbf2, __truncdfbf2), which libgcc has only since GCC 13 (Debian 12 ships 12) and
 * compiler-rt has only with -rtlib=compiler-rt: a program using __bf16 in its kernels (or on
 * the host) links against libkernplug_rt without either. Where libgcc has them too, both
 * round to nearest even and agree. */
#include <stdint.h>
#include <string.h>

#include "core/common.h"

#if defined(__clang__)
/* Round to nearest, ties to even; NaNs stay NaNs (quiet), infinities infinities. */
KP_EXPORT __bf16 __truncsfbf2(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  uint16_t h;
  if ((u & 0x7fffffffu) > 0x7f800000u)
    h = (uint16_t)((u >> 16) | 0x40u);
  else
    h = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  __bf16 b;
  memcpy(&b, &h, sizeof b);
  return b;
}

/* Through float: rounding twice (to float's 24 bits, then bfloat16's 8) gives the correctly
 * rounded result, since 24 >= 2 * 8 + 2. */
KP_EXPORT __bf16 __truncdfbf2(double d) { return __truncsfbf2((float)d); }
#endif
