/* kernplug/intrinsics.h — CUDA's integer intrinsics for device code (and host code): bit
 * counts and reversal, 24-bit and high-half multiplies, byte permutes, funnel shifts, sums of
 * absolute differences and halving adds.
 *
 * Each is plain C with the semantics the CUDA Math API documents for its __name, so the GPU
 * and the CPU backend compute the same bits by construction (the GPU gets popc, brev, clz,
 * mul.hi, shf; byte_perm and mul24 are a few instructions instead of one prmt/mul24). The
 * kp_ names are defined here; Numba's short names (popc, brev, clz) are in short_names.h and
 * the CUDA names (__popc, __brev, __clz, __ffs, __mul24, __umulhi, __byte_perm,
 * __funnelshift_l, ...) in cuda_names.h, which kernplug.h includes unless KP_NO_SHORT_NAMES
 * is defined. __builtin_popcount, __builtin_clz, __builtin_ffs and friends work in device
 * code too. */
#ifndef KERNPLUG_INTRINSICS_H
#define KERNPLUG_INTRINSICS_H

#include "detail/config.h"

/* Number of set bits. */
KP_ALWAYS_INLINE int kp_popc(unsigned x) { return __builtin_popcount(x); }
KP_ALWAYS_INLINE int kp_popcll(unsigned long long x) { return __builtin_popcountll(x); }

/* Bits reversed: bit 0 becomes bit 31 (63). (GCC, which compiles this header in host C++,
 * has no __builtin_bitreverse: swaps of halves, bytes, nibbles, pairs and bits there.) */
#if defined(__clang__)
KP_ALWAYS_INLINE unsigned kp_brev(unsigned x) { return __builtin_bitreverse32(x); }
KP_ALWAYS_INLINE unsigned long long kp_brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
#else
KP_ALWAYS_INLINE unsigned long long kp_brevll(unsigned long long x) {
  x = x >> 32 | x << 32;
  x = (x & 0xffff0000ffff0000ull) >> 16 | (x & 0x0000ffff0000ffffull) << 16;
  x = (x & 0xff00ff00ff00ff00ull) >> 8 | (x & 0x00ff00ff00ff00ffull) << 8;
  x = (x & 0xf0f0f0f0f0f0f0f0ull) >> 4 | (x & 0x0f0f0f0f0f0f0f0full) << 4;
  x = (x & 0xccccccccccccccccull) >> 2 | (x & 0x3333333333333333ull) << 2;
  return (x & 0xaaaaaaaaaaaaaaaaull) >> 1 | (x & 0x5555555555555555ull) << 1;
}
KP_ALWAYS_INLINE unsigned kp_brev(unsigned x) { return (unsigned)(kp_brevll(x) >> 32); }
#endif

/* Leading zero bits, counted from the most significant: 32 (64) for zero. */
KP_ALWAYS_INLINE int kp_clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
KP_ALWAYS_INLINE int kp_clzll(long long x) {
  return x ? __builtin_clzll((unsigned long long)x) : 64;
}

/* Position of the least significant set bit, counting from 1; 0 for zero. */
KP_ALWAYS_INLINE int kp_ffs(int x) { return __builtin_ffs(x); }
KP_ALWAYS_INLINE int kp_ffsll(long long x) { return __builtin_ffsll(x); }

/* The low 32 bits of the product of the low 24 bits of x and y (signed: bit 23 is the sign;
 * the high 8 bits are ignored). */
KP_ALWAYS_INLINE int kp_mul24(int x, int y) {
  int a = (int)((unsigned)x << 8) >> 8, b = (int)((unsigned)y << 8) >> 8;
  return (int)(unsigned)((long long)a * b);
}
KP_ALWAYS_INLINE unsigned kp_umul24(unsigned x, unsigned y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}

/* The high half of the full product. */
KP_ALWAYS_INLINE int kp_mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
KP_ALWAYS_INLINE unsigned kp_umulhi(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x * y) >> 32);
}
KP_ALWAYS_INLINE long long kp_mul64hi(long long x, long long y) {
  return (long long)(((__int128)x * y) >> 64);
}
KP_ALWAYS_INLINE unsigned long long kp_umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}

/* Byte n of the result is byte ((s >> 4n) & 7) of the 8 bytes y:x (x's bytes are 0..3, y's
 * 4..7); the selector's other bits are ignored. */
KP_ALWAYS_INLINE unsigned kp_byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long bytes = (unsigned long long)y << 32 | x;
  unsigned r = 0;
  for (int n = 0; n < 4; n++)
    r |= (unsigned)(bytes >> (8 * ((s >> (4 * n)) & 7u)) & 0xffu) << (8 * n);
  return r;
}

/* Funnel shifts of the 64 bits hi:lo. _l: shifted left by shift & 31, the high 32 bits;
 * _r: shifted right by shift & 31, the low 32 bits; _lc and _rc clamp the shift to 32
 * instead of wrapping it. */
/* (Written in the form LLVM recognises as llvm.fshl/fshr: shf.l/shf.r on the GPU.) */
KP_ALWAYS_INLINE unsigned kp_funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  shift &= 31u;
  return shift ? hi << shift | lo >> (32u - shift) : hi;
}
KP_ALWAYS_INLINE unsigned kp_funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  shift &= 31u;
  return shift ? lo >> shift | hi << (32u - shift) : lo;
}
KP_ALWAYS_INLINE unsigned kp_funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return shift >= 32 ? lo : kp_funnelshift_l(lo, hi, shift);
}
KP_ALWAYS_INLINE unsigned kp_funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  return shift >= 32 ? hi : kp_funnelshift_r(lo, hi, shift);
}

/* |x - y| + z, computed without overflow in the difference. */
KP_ALWAYS_INLINE unsigned kp_sad(int x, int y, unsigned z) {
  return (x > y ? (unsigned)x - (unsigned)y : (unsigned)y - (unsigned)x) + z;
}
KP_ALWAYS_INLINE unsigned kp_usad(unsigned x, unsigned y, unsigned z) {
  return (x > y ? x - y : y - x) + z;
}

/* (x + y) >> 1 and (x + y + 1) >> 1 without overflow in the sum. */
KP_ALWAYS_INLINE int kp_hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
KP_ALWAYS_INLINE int kp_rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
KP_ALWAYS_INLINE unsigned kp_uhadd(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x + y) >> 1);
}
KP_ALWAYS_INLINE unsigned kp_urhadd(unsigned x, unsigned y) {
  return (unsigned)(((unsigned long long)x + y + 1) >> 1);
}

#endif /* KERNPLUG_INTRINSICS_H */
