/* int_intrinsics.c — kernplug/intrinsics.h in kernels: popc, brev, clz, ffs (and
 * __builtin_ffs, __builtin_popcount in device code), mul24, mulhi, mul64hi, byte_perm, funnel
 * shifts, sad and halving adds, under their kp_, Numba and CUDA names, over edge values
 * (0, 1, -1, INT_MIN, the 24-bit sign bit, ...) and random ones. Each result is compared with
 * a reference computed on the host bit by bit or in wider arithmetic, written independently
 * of the header's formulas. */
#include <limits.h>
#include <stdint.h>

#include "kernel_test.h"

enum { N = 4096, OUTS = 26 };

__attribute__((kernel)) void intrinsics(const unsigned *a, const unsigned *b, const unsigned *c,
                                        const unsigned long long *w, unsigned long long *out) {
  int i = grid(1);
  if (i >= N) return;
  unsigned x = a[i], y = b[i], s = c[i];
  unsigned long long v = w[i], *o = out + (size_t)i * OUTS;
  o[0] = (unsigned)popc(x);
  o[1] = (unsigned)__popcll(v);
  o[2] = brev(x);
  o[3] = __brevll(v);
  o[4] = (unsigned)clz((int)x);
  o[5] = (unsigned)__clzll((long long)v);
  o[6] = (unsigned)kp_ffs((int)x);
  o[7] = (unsigned)__ffsll((long long)v);
  o[8] = (unsigned)__mul24((int)x, (int)y);
  o[9] = __umul24(x, y);
  o[10] = (unsigned)__mulhi((int)x, (int)y);
  o[11] = __umulhi(x, y);
  o[12] = (unsigned long long)__mul64hi((long long)v, (long long)(v * 0x9E3779B97F4A7C15ull));
  o[13] = __umul64hi(v, v * 0x9E3779B97F4A7C15ull);
  o[14] = __byte_perm(x, y, s);
  o[15] = __funnelshift_l(x, y, s);
  o[16] = __funnelshift_r(x, y, s);
  o[17] = __funnelshift_lc(x, y, s & 63);
  o[18] = __funnelshift_rc(x, y, s & 63);
  o[19] = __sad((int)x, (int)y, s);
  o[20] = __usad(x, y, s);
  o[21] = (unsigned)__hadd((int)x, (int)y);
  o[22] = (unsigned)__rhadd((int)x, (int)y);
  o[23] = __uhadd(x, y);
  o[24] = __urhadd(x, y);
  o[25] = (unsigned)(__builtin_ffs((int)x) + 64 * __builtin_popcount(y));
}

/* ---- references: one bit or one byte at a time, or in 128-bit arithmetic ---------------- */

static unsigned ref_popc(unsigned long long x) {
  unsigned n = 0;
  for (int b = 0; b < 64; b++) n += (x >> b) & 1;
  return n;
}
static unsigned long long ref_brev(unsigned long long x, int bits) {
  unsigned long long r = 0;
  for (int b = 0; b < bits; b++)
    if (x >> b & 1) r |= 1ull << (bits - 1 - b);
  return r;
}
static unsigned ref_clz(unsigned long long x, int bits) {
  unsigned n = 0;
  for (int b = bits - 1; b >= 0 && !(x >> b & 1); b--) n++;
  return n;
}
static unsigned ref_ffs(unsigned long long x, int bits) {
  for (int b = 0; b < bits; b++)
    if (x >> b & 1) return (unsigned)b + 1;
  return 0;
}
static long long sign24(unsigned x) { /* the low 24 bits as a signed number */
  long long v = x & 0xffffff;
  return v >= 0x800000 ? v - 0x1000000 : v;
}
static unsigned ref_byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned char bytes[8];
  for (int k = 0; k < 4; k++) bytes[k] = (unsigned char)(x >> (8 * k)), bytes[4 + k] = (unsigned char)(y >> (8 * k));
  unsigned r = 0;
  for (int n = 0; n < 4; n++) r |= (unsigned)bytes[(s >> (4 * n)) % 8] << (8 * n);
  return r;
}
/* Funnel shifts: the 64-bit value hi:lo as 64 separate bits. */
static unsigned ref_funnel(unsigned lo, unsigned hi, unsigned shift, int left) {
  int bits[64];
  for (int b = 0; b < 32; b++) bits[b] = lo >> b & 1, bits[32 + b] = hi >> b & 1;
  unsigned r = 0;
  for (int b = 0; b < 32; b++) {
    int from = left ? 32 + b - (int)shift : b + (int)shift; /* bit b of the kept half */
    if (from >= 0 && from < 64 && bits[from]) r |= 1u << b;
  }
  return r;
}
static long long floor_half(long long v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

static void reference(unsigned x, unsigned y, unsigned s, unsigned long long v,
                      unsigned long long *o) {
  unsigned long long v2 = v * 0x9E3779B97F4A7C15ull;
  o[0] = ref_popc(x);
  o[1] = ref_popc(v);
  o[2] = ref_brev(x, 32);
  o[3] = ref_brev(v, 64);
  o[4] = ref_clz(x, 32);
  o[5] = ref_clz(v, 64);
  o[6] = ref_ffs(x, 32);
  o[7] = ref_ffs(v, 64);
  o[8] = (unsigned)(sign24(x) * sign24(y));
  o[9] = (unsigned)((unsigned long long)(x & 0xffffff) * (y & 0xffffff));
  o[10] = (unsigned)((unsigned long long)((long long)(int)x * (int)y) >> 32);
  o[11] = (unsigned)((unsigned long long)x * y >> 32);
  o[12] = (unsigned long long)(((__int128)(long long)v * (long long)v2) >> 64);
  o[13] = (unsigned long long)(((unsigned __int128)v * v2) >> 64);
  o[14] = ref_byte_perm(x, y, s);
  o[15] = ref_funnel(x, y, s % 32, 1);
  o[16] = ref_funnel(x, y, s % 32, 0);
  o[17] = ref_funnel(x, y, (s & 63) < 32 ? s & 63 : 32, 1);
  o[18] = ref_funnel(x, y, (s & 63) < 32 ? s & 63 : 32, 0);
  o[19] = (unsigned)(llabs((long long)(int)x - (int)y) + s);
  o[20] = (unsigned)(llabs((long long)x - (long long)y) + s);
  o[21] = (unsigned)floor_half((long long)(int)x + (int)y);
  o[22] = (unsigned)floor_half((long long)(int)x + (int)y + 1);
  o[23] = (unsigned)(((unsigned long long)x + y) / 2);
  o[24] = (unsigned)(((unsigned long long)x + y + 1) / 2);
  o[25] = ref_ffs(x, 32) + 64 * ref_popc(y);
}

static uint64_t state = 0x2545F4914F6CDD1Dull;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

int main(void) {
  kt_start("int_intrinsics");
  unsigned *a = managed_array(unsigned, N), *b = managed_array(unsigned, N);
  unsigned *c = managed_array(unsigned, N);
  unsigned long long *w = managed_array(unsigned long long, N);
  unsigned long long *out = managed_array(unsigned long long, N * OUTS), want[OUTS];
  static const unsigned edges[] = {0,          1,          0xffffffffu, 0x80000000u, 0x7fffffffu,
                                   0x800000u,  0x7fffffu,  0xff800000u, 0x00ffffffu, 0x80000001u,
                                   0x10000u,   31,         32,          33,          63};
  enum { E = sizeof edges / sizeof edges[0] };
  for (int i = 0; i < N; i++) {
    uint64_t r = next();
    a[i] = i < E * E ? edges[i / E] : (unsigned)r;
    b[i] = i < E * E ? edges[i % E] : (unsigned)(r >> 32);
    c[i] = i < E * E ? edges[(i + 3) % E] : (unsigned)next();
    w[i] = i < E * E ? (unsigned long long)edges[i % E] << (i % 33) : next() >> (next() % 64);
  }
  launch(intrinsics, N / 128, 128)(a, b, c, w, out);
  kp_synchronize();
  int bad = 0;
  for (int i = 0; i < N; i++) {
    reference(a[i], b[i], c[i], w[i], want);
    for (int k = 0; k < OUTS; k++)
      if (out[(size_t)i * OUTS + k] != want[k] && bad++ < 10)
        fprintf(stderr, "input %d (x=%#x y=%#x s=%#x v=%#llx): result %d is %#llx, want %#llx\n",
                i, a[i], b[i], c[i], w[i], k, out[(size_t)i * OUTS + k], want[k]);
  }
  kp_free(a), kp_free(b), kp_free(c), kp_free(w), kp_free(out);
  KT_CHECK(bad == 0, "%d wrong results", bad);
  printf("int_intrinsics: %d inputs x %d intrinsics match the references\n", N, OUTS);
  return 0;
}
