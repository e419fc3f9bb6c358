/* warp_match.c — kernplug/warp_match.h: lanemask_lt/le/gt/ge/eq, match_any_sync and
 * match_all_sync on int, unsigned long long, float (bitwise: -0.0 and +0.0 differ, a NaN
 * matches itself) and double, and reduce_add/min/max/and/or/xor_sync on int and unsigned.
 * Masks: the full warp, a 16-lane last warp (48-thread blocks), and a partial mask of the
 * even lanes in which only those lanes call (the others take another branch). Every result
 * is compared with what the host computes, lane by lane, from the inputs. */
#include <math.h>

#include "kernel_test.h"

enum { BLOCKS = 2, MAX_THREADS = 96, MAX_TOTAL = BLOCKS * MAX_THREADS, OUTS = 16 };
#define EVEN 0x55555555u

/* The lanes of this thread's warp that exist (1D blocks). */
static inline unsigned warp_mask(unsigned t, unsigned block) {
  unsigned left = block - (t & ~31u);
  return left >= 32 ? 0xffffffffu : (1u << left) - 1u;
}

__attribute__((kernel)) void match_reduce(const int *iv, const unsigned long long *lv,
                                          const float *fv, const double *dv,
                                          unsigned *out) {
  int g = grid(1);
  unsigned mask = warp_mask(threadIdx.x, blockDim.x), lane = (unsigned)laneid();
  unsigned *o = out + (size_t)g * OUTS;
  int pred = -1;
  o[0] = lanemask_lt();
  o[1] = kp_lanemask_le() ^ kp_lanemask_gt() ^ kp_lanemask_ge() ^ (kp_lanemask_eq() << 1);
  o[2] = match_any_sync(mask, iv[g]);
  o[3] = __match_any_sync(mask, lv[g]);
  o[4] = match_any_sync(mask, fv[g]);
  o[5] = match_all_sync(mask, dv[g], &pred);
  o[6] = (unsigned)pred;
  o[7] = (unsigned)reduce_add_sync(mask, iv[g]);
  o[8] = (unsigned)reduce_min_sync(mask, iv[g]);
  o[9] = reduce_max_sync(mask, (unsigned)iv[g]);
  o[10] = __reduce_and_sync(mask, (unsigned)iv[g] | 0x10u);
  o[11] = __reduce_or_sync(mask, (unsigned)iv[g]);
  o[12] = __reduce_xor_sync(mask, (unsigned)iv[g]);
  if (mask == 0xffffffffu && (lane & 1) == 0) { /* the even lanes only */
    o[13] = (unsigned)reduce_max_sync(EVEN, iv[g]);
    o[14] = reduce_min_sync(EVEN, (unsigned)iv[g]);
    o[15] = match_any_sync(EVEN, iv[g]);
  } else {
    o[13] = o[14] = o[15] = 0xdeadu;
  }
}

/* The same functions in a kernel without divergent calls: the CPU backend splits it at its
 * warp collectives and runs it warp by warp (remark: "split into ... regions"), instead of on
 * fibers (a mask computed from threadIdx keeps match_reduce on fibers). Its results go to
 * slots 2, 3, 7, 8 and 11 of the same layout. */
__attribute__((kernel)) void match_reduce_split(const int *iv, const unsigned long long *lv,
                                                unsigned *out) {
  int g = grid(1);
  unsigned mask = 0xffffffffu, *o = out + (size_t)g * OUTS;
  o[2] = match_any_sync(mask, iv[g]);
  o[3] = match_any_sync(mask, lv[g]);
  o[7] = (unsigned)reduce_add_sync(mask, iv[g]);
  o[8] = (unsigned)reduce_min_sync(mask, iv[g]);
  o[11] = kp_reduce_or_sync(mask, (unsigned)iv[g]);
}

/* ---- host reference: each lane looks at every lane of its warp ----------------------- */

static unsigned bits_f(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static unsigned long long bits_d(double d) { unsigned long long u; memcpy(&u, &d, 8); return u; }

static void reference(int g, unsigned threads, const int *iv, const unsigned long long *lv,
                      const float *fv, const double *dv, unsigned *o) {
  unsigned t = (unsigned)g % threads, lane = t % 32, base = (unsigned)g - lane;
  unsigned mask = warp_mask(t, threads), lt = 0, same_i = 0, same_l = 0, same_f = 0;
  int all_d = 1, sum = 0, mn = iv[base];
  unsigned umax = 0, uand = ~0u, uor = 0, uxor = 0;
  for (unsigned l = 0; l < 32; l++) {
    if (l < lane) lt |= 1u << l;
    if (!(mask >> l & 1)) continue;
    unsigned j = base + l;
    if (iv[j] == iv[g]) same_i |= 1u << l;
    if (lv[j] == lv[g]) same_l |= 1u << l;
    if (bits_f(fv[j]) == bits_f(fv[g])) same_f |= 1u << l;
    if (bits_d(dv[j]) != bits_d(dv[base])) all_d = 0;
    sum = (int)((unsigned)sum + (unsigned)iv[j]);
    if (iv[j] < mn) mn = iv[j];
    if ((unsigned)iv[j] > umax) umax = (unsigned)iv[j];
    uand &= (unsigned)iv[j] | 0x10u, uor |= (unsigned)iv[j], uxor ^= (unsigned)iv[j];
  }
  o[0] = lt;
  unsigned le = lt | 1u << lane;
  o[1] = le ^ ~le ^ ~lt ^ (1u << lane << 1);
  o[2] = same_i, o[3] = same_l, o[4] = same_f;
  o[5] = all_d ? mask : 0, o[6] = (unsigned)all_d;
  o[7] = (unsigned)sum, o[8] = (unsigned)mn, o[9] = umax, o[10] = uand, o[11] = uor;
  o[12] = uxor;
  if (mask == 0xffffffffu && (lane & 1) == 0) {
    int mx = iv[base];
    unsigned umn = ~0u, same = 0;
    for (unsigned l = 0; l < 32; l += 2) {
      int v = iv[base + l];
      if (v > mx) mx = v;
      if ((unsigned)v < umn) umn = (unsigned)v;
      if (v == iv[g]) same |= 1u << l;
    }
    o[13] = (unsigned)mx, o[14] = umn, o[15] = same;
  } else {
    o[13] = o[14] = o[15] = 0xdeadu;
  }
}

/* Inputs with few distinct values per warp, so that groups have several lanes; some warps
 * all equal (match_all), signed values of both signs; floats include -0.0, +0.0 and NaN. */
static void fill(int g, int pattern, int *iv, unsigned long long *lv, float *fv, double *dv) {
  unsigned h = (unsigned)g * 2654435761u >> 7;
  int warp = g / 32;
  iv[g] = pattern == 0 ? (int)(h % 5) - 2 : (int)(h % 3) * -100000 + (int)(h % 7) * 65537;
  lv[g] = (h % 4) * 0x100000001ull + (warp % 3 == 0 ? 0 : (unsigned long long)(g % 2) << 40);
  static const float fl[] = {0.0f, -0.0f, 1.5f, NAN};
  fv[g] = fl[h % 4];
  dv[g] = warp % 2 == 0 ? 2.5 : (g % 32 == 31 ? -0.0 : 0.0);
}

int main(void) {
  kt_start("warp_match");
  int *iv = managed_array(int, MAX_TOTAL);
  unsigned long long *lv = managed_array(unsigned long long, MAX_TOTAL);
  float *fv = managed_array(float, MAX_TOTAL);
  double *dv = managed_array(double, MAX_TOTAL);
  unsigned *out = managed_array(unsigned, MAX_TOTAL * OUTS), want[OUTS];
  static const unsigned shapes[] = {32, 64, 96, 48};
  int bad = 0;
  for (int s = 0; s < 4; s++)
    for (int pattern = 0; pattern < 2; pattern++) {
      unsigned threads = shapes[s];
      int total = BLOCKS * (int)threads;
      for (int g = 0; g < total; g++) fill(g, pattern, iv, lv, fv, dv);
      launch(match_reduce, BLOCKS, threads)(iv, lv, fv, dv, out);
      kp_synchronize();
      for (int g = 0; g < total; g++) {
        reference(g, threads, iv, lv, fv, dv, want);
        for (int k = 0; k < OUTS; k++)
          if (out[(size_t)g * OUTS + k] != want[k] && bad++ < 10)
            fprintf(stderr, "block %u, pattern %d, thread %d: result %d is %#x, want %#x\n",
                    threads, pattern, g, k, out[(size_t)g * OUTS + k], want[k]);
      }
    }
  /* The split kernel, in blocks of 64 (whole warps). */
  for (int g = 0; g < BLOCKS * 64; g++) fill(g, 1, iv, lv, fv, dv);
  memset(out, 0, sizeof(unsigned) * MAX_TOTAL * OUTS);
  launch(match_reduce_split, BLOCKS, 64)(iv, lv, out);
  kp_synchronize();
  for (int g = 0; g < BLOCKS * 64; g++) {
    static const int slots[] = {2, 3, 7, 8, 11};
    reference(g, 64, iv, lv, fv, dv, want);
    for (int k = 0; k < 5; k++)
      if (out[(size_t)g * OUTS + slots[k]] != want[slots[k]] && bad++ < 10)
        fprintf(stderr, "split kernel, thread %d: result %d is %#x, want %#x\n", g, slots[k],
                out[(size_t)g * OUTS + slots[k]], want[slots[k]]);
  }
  kp_free(iv), kp_free(lv), kp_free(fv), kp_free(dv), kp_free(out);
  KT_CHECK(bad == 0, "%d wrong results", bad);
  printf("warp_match: lane masks, match and reduce agree with the host on 4 block shapes\n");
  return 0;
}

/* The paths the CPU backend takes (tests/compile: compile.remark.warp_match) and the PTX
 * (compile.ptx.warp_match, assembled by ptxas):
 * REMARK: kernel 'match_reduce': barriers kept on fibers on the CPU: shfl_idx()
 * REMARK: kernel 'match_reduce_split': barriers and warp collectives split into
 * PTX-LABEL: .visible .entry match_reduce(
 * PTX-DAG: shfl.sync.idx.b32
 * PTX-DAG: shfl.sync.bfly.b32
 * PTX-DAG: vote.sync.ballot.b32
 * PTX-DAG: vote.sync.all.pred
 */
