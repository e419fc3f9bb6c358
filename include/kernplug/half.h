/* kernplug/half.h — 16-bit floating point in kernels: C's _Float16 (IEEE half, numba-cuda's
 * float16) and clang's __bf16 (bfloat16) work in device code and on the CPU backend as any
 * arithmetic type; this header adds the pairs CUDA's __half2 and __nv_bfloat162 stand for,
 * which kp_atomic_add updates as one 32-bit unit.
 *
 *   atomic_add(&h[i], (_Float16)x)       one half: atom.add.noftz.f16 on the GPU (sm_70+)
 *   atomic_add(&b[i], (__bf16)x)         one bfloat16: a compare-and-swap loop (the GPU's
 *                                        atom.add.bf16 needs sm_90; kernplug's PTX is sm_75)
 *   atomic_add(&pairs[i], kp_half2_make(a, b))   both halves, one compare-and-swap loop
 *
 * The other atomics (sub, max, min, nanmax, nanmin, exch, cas) take _Float16 and __bf16
 * pointers too, with the float rules of atomics.h. Each sum is rounded to the 16-bit type
 * once, as the GPU's half and bfloat16 additions round: both backends store the same bits.
 * Available with clang (and compilers that have _Float16 and __bf16); KP_HAVE_HALF is defined
 * then. */
#ifndef KERNPLUG_HALF_H
#define KERNPLUG_HALF_H

#if defined(__clang__) && defined(__FLT16_MAX__)
#define KP_HAVE_HALF 1

/* CUDA's __half2 and __nv_bfloat162: two values in 4 aligned bytes (x in the low half). */
typedef struct kp_half2 {
  _Float16 x, y;
} __attribute__((aligned(4))) kp_half2;
typedef struct kp_bfloat162 {
  __bf16 x, y;
} __attribute__((aligned(4))) kp_bfloat162;

static inline __attribute__((always_inline, unused)) kp_half2 kp_half2_make(_Float16 x,
                                                                            _Float16 y) {
  kp_half2 h = {x, y};
  return h;
}
static inline __attribute__((always_inline, unused)) kp_bfloat162 kp_bfloat162_make(__bf16 x,
                                                                                    __bf16 y) {
  kp_bfloat162 h = {x, y};
  return h;
}
#endif

#endif /* KERNPLUG_HALF_H */
