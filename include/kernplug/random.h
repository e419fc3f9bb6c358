/* kernplug/random.h — random numbers in kernels: numba-cuda's numba.cuda.random, in C.
 *
 *   #include <kernplug.h>
 *   #include <kernplug/random.h>
 *
 *   __attribute__((kernel)) void noise(kp_xoroshiro128p_state *states, float *out, int n) {
 *     int i = grid(1);
 *     if (i < n) out[i] = xoroshiro128p_uniform_float32(states, i);
 *   }
 *   ...
 *   kp_xoroshiro128p_state *states = create_xoroshiro128p_states(threads * blocks, 42);
 *   launch(noise, blocks, threads)(states, out, n);
 *   kp_free(states);
 *
 * One xoroshiro128+ generator per state; the states are created on the host with numba's
 * seeding (SplitMix64 of the seed in both words of state 0) and jump-ahead (state i + 1 is
 * state i advanced by 2^64 steps, so no two threads' sequences overlap before 2^64 draws each),
 * and copied to a device array. The functions and constants are numba's, so a seed gives the
 * sequences numba gives, and the uniform ones bit for bit on both backends (integer arithmetic
 * and exact conversions). The normal ones use logf, cosf and sqrtf (and cos and sqrt), which
 * are libdevice's on the GPU (as in numba) and the host libm's on the CPU backend: equal within
 * those functions' documented ulps. numba's quirks are kept: xoroshiro128p_uniform_float32
 * rounds a double in [0, 1) to float, which can give 1.0f; xoroshiro128p_normal_float64 draws
 * its two uniforms as float32 and takes their log in float32; both normals use one of the
 * Box-Muller pair and advance the state by two.
 *
 * The kp_ names are always defined; numba's names (create_xoroshiro128p_states,
 * init_xoroshiro128p_states, xoroshiro128p_uniform_float32, ...) too unless KP_NO_SHORT_NAMES
 * is defined. This header is not included by kernplug.h (it brings <math.h>, <stdio.h> and
 * <stdlib.h>),
 * as numba.cuda.random is imported on its own.
 */
#ifndef KERNPLUG_RANDOM_H
#define KERNPLUG_RANDOM_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "detail/config.h"
#include "memory.h"
#include "runtime.h"
#include "stream.h"

/* numba's xoroshiro128p_dtype: two uint64, 16 bytes. */
typedef struct kp_xoroshiro128p_state {
  uint64_t s0, s1;
} kp_xoroshiro128p_state;

/* ---- the generator (device and host code) ------------------------------------------- */

KP_ALWAYS_INLINE uint64_t kp_xoroshiro128p_rotl_(uint64_t x, unsigned k) {
  return x << k | x >> (64u - k);
}

/* The next 64 random bits of states[index]; advances it by one step. */
KP_ALWAYS_INLINE uint64_t kp_xoroshiro128p_next(kp_xoroshiro128p_state *states, int64_t index) {
  uint64_t s0 = states[index].s0, s1 = states[index].s1, result = s0 + s1;
  s1 ^= s0;
  states[index].s0 = kp_xoroshiro128p_rotl_(s0, 55) ^ s1 ^ (s1 << 14);
  states[index].s1 = kp_xoroshiro128p_rotl_(s1, 36);
  return result;
}

/* Advances states[index] by 2^64 steps. */
KP_ALWAYS_INLINE void kp_xoroshiro128p_jump(kp_xoroshiro128p_state *states, int64_t index) {
  static const uint64_t jump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  uint64_t s0 = 0, s1 = 0;
  for (int i = 0; i < 2; i++)
    for (unsigned b = 0; b < 64; b++) {
      if (jump[i] & (uint64_t)1 << b) {
        s0 ^= states[index].s0;
        s1 ^= states[index].s1;
      }
      kp_xoroshiro128p_next(states, index);
    }
  states[index].s0 = s0;
  states[index].s1 = s1;
}

/* [0, 1): the top 53 bits times 2^-53 (exact); float32 rounds that double to float. */
KP_ALWAYS_INLINE double kp_xoroshiro128p_uniform_float64(kp_xoroshiro128p_state *states,
                                                         int64_t index) {
  return (double)(kp_xoroshiro128p_next(states, index) >> 11) * (1.0 / 9007199254740992.0);
}
KP_ALWAYS_INLINE float kp_xoroshiro128p_uniform_float32(kp_xoroshiro128p_state *states,
                                                        int64_t index) {
  return (float)kp_xoroshiro128p_uniform_float64(states, index);
}

/* Box-Muller's first value from two uniform draws (numba: both float32). */
KP_ALWAYS_INLINE float kp_xoroshiro128p_normal_float32(kp_xoroshiro128p_state *states,
                                                       int64_t index) {
  float u1 = kp_xoroshiro128p_uniform_float32(states, index);
  float u2 = kp_xoroshiro128p_uniform_float32(states, index);
  return sqrtf(-2.0f * logf(u1)) * cosf(6.28318530717958647692f * u2);
}
KP_ALWAYS_INLINE double kp_xoroshiro128p_normal_float64(kp_xoroshiro128p_state *states,
                                                        int64_t index) {
  float u1 = kp_xoroshiro128p_uniform_float32(states, index);
  float u2 = kp_xoroshiro128p_uniform_float32(states, index);
  return sqrt(-2.0 * (double)logf(u1)) * cos(6.28318530717958647692 * (double)u2);
}

/* ---- creating states (host code) ----------------------------------------------------- */

/* numba's init_xoroshiro128p_states_cpu on an array in host memory. */
static inline void kp_init_xoroshiro128p_states_host(kp_xoroshiro128p_state *states, size_t n,
                                                     uint64_t seed,
                                                     uint64_t subsequence_start) {
  if (n == 0) return;
  uint64_t z = seed + 0x9E3779B97F4A7C15ull; /* SplitMix64 */
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  states[0].s0 = states[0].s1 = z;
  for (uint64_t k = 0; k < subsequence_start; k++) kp_xoroshiro128p_jump(states, 0);
  for (size_t i = 1; i < n; i++) {
    states[i] = states[i - 1];
    kp_xoroshiro128p_jump(states, (int64_t)i);
  }
}

/* numba's init_xoroshiro128p_states: fills n states of a device (or managed) array, through a
 * host copy, on `stream` (NULL: the default stream); returns when the copy is done. */
static inline void kp_init_xoroshiro128p_states_(kp_xoroshiro128p_state *states, size_t n,
                                                 uint64_t seed, uint64_t subsequence_start,
                                                 kp_stream stream) {
  kp_xoroshiro128p_state *host = (kp_xoroshiro128p_state *)malloc(n ? n * sizeof *host : 1);
  if (!host) {
    fprintf(stderr, "kernplug: error: init_xoroshiro128p_states(%zu states): out of host "
                    "memory\n", n);
    abort();
  }
  kp_init_xoroshiro128p_states_host(host, n, seed, subsequence_start);
  kp_copy_to_device_async(states, host, n, stream);
  kp_stream_synchronize(stream);
  free(host);
}

/* numba's create_xoroshiro128p_states: a new device array of n initialised states (kp_free it).
 * NULL when the allocation failed in KP_ERRORS_RETURN mode (kp_last_error() says why). */
static inline kp_xoroshiro128p_state *kp_create_xoroshiro128p_states_(size_t n, uint64_t seed,
                                                                      uint64_t subsequence_start,
                                                                      kp_stream stream) {
  kp_xoroshiro128p_state *states = kp_device_array(kp_xoroshiro128p_state, n ? n : 1);
  if (states) kp_init_xoroshiro128p_states_(states, n, seed, subsequence_start, stream);
  return states;
}

/* (n, seed[, subsequence_start[, stream]]), as numba's keyword defaults. */
#define KP_RNG_PICK_(_1, _2, _3, _4, NAME, ...) NAME
#define KP_RNG_CREATE_2_(n, seed) kp_create_xoroshiro128p_states_((n), (seed), 0, (kp_stream)0)
#define KP_RNG_CREATE_3_(n, seed, sub) kp_create_xoroshiro128p_states_((n), (seed), (sub), (kp_stream)0)
#define KP_RNG_CREATE_4_(n, seed, sub, st) kp_create_xoroshiro128p_states_((n), (seed), (sub), (st))
#define kp_create_xoroshiro128p_states(...)                                                    \
  KP_RNG_PICK_(__VA_ARGS__, KP_RNG_CREATE_4_, KP_RNG_CREATE_3_, KP_RNG_CREATE_2_, )(__VA_ARGS__)
#define KP_RNG_INIT_3_(s, n, seed) kp_init_xoroshiro128p_states_((s), (n), (seed), 0, (kp_stream)0)
#define KP_RNG_INIT_4_(s, n, seed, sub) kp_init_xoroshiro128p_states_((s), (n), (seed), (sub), (kp_stream)0)
#define KP_RNG_INIT_5_(s, n, seed, sub, st) kp_init_xoroshiro128p_states_((s), (n), (seed), (sub), (st))
#define KP_RNG_PICK5_(_1, _2, _3, _4, _5, NAME, ...) NAME
/* (states, n, seed[, subsequence_start[, stream]]): n is the array's length (C arrays carry
 * none, numba's do). */
#define kp_init_xoroshiro128p_states(...)                                                      \
  KP_RNG_PICK5_(__VA_ARGS__, KP_RNG_INIT_5_, KP_RNG_INIT_4_, KP_RNG_INIT_3_, , )(__VA_ARGS__)

#ifndef KP_NO_SHORT_NAMES
#define create_xoroshiro128p_states(...) kp_create_xoroshiro128p_states(__VA_ARGS__)
#define init_xoroshiro128p_states(...) kp_init_xoroshiro128p_states(__VA_ARGS__)
#define xoroshiro128p_uniform_float32(states, i) kp_xoroshiro128p_uniform_float32(states, i)
#define xoroshiro128p_uniform_float64(states, i) kp_xoroshiro128p_uniform_float64(states, i)
#define xoroshiro128p_normal_float32(states, i) kp_xoroshiro128p_normal_float32(states, i)
#define xoroshiro128p_normal_float64(states, i) kp_xoroshiro128p_normal_float64(states, i)
#define xoroshiro128p_next(states, i) kp_xoroshiro128p_next(states, i)
#define xoroshiro128p_jump(states, i) kp_xoroshiro128p_jump(states, i)
#endif

#endif /* KERNPLUG_RANDOM_H */
