/* reproducible_shared.c — compiled several times by reproducible.sh, which expects the same
 * object every time: the device module once placed shared arrays in the order of their
 * addresses in the compiler's memory, so the PTX changed from one run to the next. */
#include "kernplug.h"

__attribute__((kernel)) void tiles(const float *a, float *b, int n) {
  static __attribute__((shared)) float s0[16][16];
  static __attribute__((shared)) float s1[16][16];
  static __attribute__((shared)) int s2[32];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  int i = (int)(blockIdx.x * 16 + tx);
  s0[ty][tx] = i < n ? a[i] : 0;
  s1[tx][ty] = (float)ty;
  if (tx == 0) s2[ty] = (int)ty;
  syncthreads();
  if (i < n) b[i] = s0[ty][tx] + s1[ty][tx] + (float)s2[ty];
}

__attribute__((kernel)) void histogram(const unsigned char *v, int n, unsigned *bins) {
  static __attribute__((shared)) unsigned h0[256];
  static __attribute__((shared)) unsigned h1[64];
  static __attribute__((shared)) double d[8];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) h0[b] = 0;
  if (threadIdx.x < 64) h1[threadIdx.x] = 0;
  if (threadIdx.x < 8) d[threadIdx.x] = 0;
  syncthreads();
  for (int i = grid(1); i < n; i += gridsize(1)) {
    atomic_add(&h0[v[i]], 1u);
    atomic_add(&h1[v[i] & 63], 1u);
  }
  syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) atomic_add(&bins[b], h0[b] + h1[b & 63]);
  (void)d;
}

/* More than eight shared arrays in the file: past the size where the compiler's set of them
 * kept insertion order. */
__attribute__((kernel)) void many(float *out) {
  static __attribute__((shared)) float m0[32], m1[32], m2[32], m3[32], m4[32], m5[32];
  unsigned t = threadIdx.x & 31;
  m0[t] = 1, m1[t] = 2, m2[t] = 3, m3[t] = 4, m4[t] = 5, m5[t] = 6;
  syncthreads();
  out[t] = m0[31 - t] + m1[(t + 1) & 31] + m2[(t + 2) & 31] + m3[(t + 3) & 31] +
           m4[(t + 4) & 31] + m5[(t + 5) & 31];
}
