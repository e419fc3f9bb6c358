/* warp_intrinsics.c — shfl_sync/shfl_up_sync/shfl_down_sync/shfl_xor_sync on int, unsigned,
 * float, long long, unsigned long long and double (short, unsigned char and _Bool move as
 * int); ballot_sync/all_sync/any_sync over predicate patterns; activemask, laneid and
 * warpsize; warp reductions. Blocks of 32, 64 and 96 threads use the full mask; a 48-thread
 * block ends in a 16-lane warp that uses mask 0xffff. A 2D block checks that warps are
 * consecutive linear thread ids. Every result is compared with what the host computes from
 * the inputs. */
#include "kernel_test.h"

#define KERNEL __attribute__((kernel)) void
enum { BLOCKS = 3, MAX_THREADS = 96, MAX_TOTAL = BLOCKS * MAX_THREADS };
enum { UP = 3, DOWN = 5, XOR_LANES = 13 }; /* XOR_LANES < 16 stays inside a 16-lane warp */

/* The lanes of this thread's warp that exist: all 32, or the first n of a partial last warp
 * (1D blocks). */
static inline unsigned lanes_in_warp(unsigned t, unsigned block) {
  unsigned left = block - (t & ~31u);
  return left >= 32 ? 32 : left;
}
static inline unsigned warp_mask(unsigned t, unsigned block) {
  unsigned n = lanes_in_warp(t, block);
  return n == 32 ? 0xffffffffu : (1u << n) - 1u;
}
/* shfl_sync's source lane: a scatter inside the warp; in full warps sometimes 32 above it,
 * which the shuffle takes modulo 32 (CUDA's srcLane % width). */
static inline int source_lane(unsigned lane, unsigned n) {
  return (int)((lane * 7 + 3) % n + (n == 32 ? 32 * (lane & 1) : 0));
}

#define SHFL_KERNEL(S, T)                                                                      \
  KERNEL shfl_##S(const T *x, T *idx, T *up, T *down, T *bfly) {                               \
    int g = grid(1);                                                                           \
    unsigned mask = warp_mask(threadIdx.x, blockDim.x);                                        \
    unsigned n = lanes_in_warp(threadIdx.x, blockDim.x), lane = (unsigned)laneid();            \
    T v = x[g];                                                                                \
    idx[g] = shfl_sync(mask, v, source_lane(lane, n));                                         \
    up[g] = shfl_up_sync(mask, v, UP);                                                         \
    down[g] = shfl_down_sync(mask, v, DOWN);                                                   \
    bfly[g] = shfl_xor_sync(mask, v, XOR_LANES);                                               \
  }
SHFL_KERNEL(i32, int)
SHFL_KERNEL(u32, unsigned)
SHFL_KERNEL(f32, float)
SHFL_KERNEL(i64, long long)
SHFL_KERNEL(u64, unsigned long long)
SHFL_KERNEL(f64, double)

/* Types narrower than int shuffle as int: sign- or zero-extended, returned as int. */
KERNEL shfl_narrow(const short *s, const unsigned char *u, const _Bool *b, int *s_out,
                   int *u_out, int *b_out) {
  int g = grid(1);
  s_out[g] = shfl_xor_sync(0xffffffffu, s[g], 1);
  u_out[g] = shfl_sync(0xffffffffu, u[g], 0);
  b_out[g] = shfl_down_sync(0xffffffffu, b[g], 1u);
}

/* Values whose halves differ (64-bit) and whose bits change with every thread. */
static inline int value_i32(int g) { return g * -7919 + 5; }
static inline unsigned value_u32(int g) { return 0x80000000u ^ (unsigned)g * 2654435761u; }
static inline float value_f32(int g) { return (float)g * 0.75f - 100.0f; }
static inline long long value_i64(int g) { return ((long long)g << 35) - g * 3 - 1; }
static inline unsigned long long value_u64(int g) {
  return (unsigned long long)g * 0x9E3779B97F4A7C15ull;
}
static inline double value_f64(int g) { return (double)g * 1e10 + 0.125; }

/* Predicate patterns, one per warp: none, all, odd lanes, lane 7 only, a hash. Non-zero
 * predicates are not 1, so the results must be normalised. */
static inline int predicate(int pattern, unsigned lane, int g) {
  switch (pattern % 5) {
  case 0: return 0;
  case 1: return -3;
  case 2: return (int)(lane & 1) * 5;
  case 3: return lane == 7;
  default: return (int)(((unsigned)g * 2654435761u >> 13) & 1) * 9;
  }
}

KERNEL votes(int pattern_base, unsigned *ballot, int *all, int *any, unsigned *active,
             int *lane_out, int *size_out) {
  int g = grid(1);
  unsigned t = threadIdx.x, mask = warp_mask(t, blockDim.x), lane = (unsigned)laneid();
  int p = predicate(pattern_base + (int)(blockIdx.x * 4 + t / 32), lane, g);
  ballot[g] = ballot_sync(mask, p);
  all[g] = all_sync(mask, p);
  any[g] = any_sync(mask, p);
  syncwarp(mask); /* converged: every existing lane is active */
  active[g] = activemask();
  lane_out[g] = laneid();
  size_out[g] = warpsize;
}

/* Inside a branch only some lanes take: the GPU reports the lanes running the branch, the CPU
 * every lane that has not exited; both include the caller and no lane that does not exist. */
KERNEL active_in_branch(unsigned *active) {
  int g = grid(1);
  active[g] = 0;
  if (laneid() % 3 == 0) active[g] = activemask();
}

/* Warp-aggregated counter: one atomic per warp, by the lowest active lane, adding the number
 * of active lanes. Every thread must be counted exactly once. */
KERNEL aggregated_count(unsigned *counter) {
  unsigned m = activemask();
  if ((unsigned)laneid() == (unsigned)__builtin_ctz(m))
    atomic_add(counter, (unsigned)__builtin_popcount(m));
}

/* Warp sums: butterfly (every lane gets the total) and shfl_down (lane 0 gets it). */
KERNEL warp_sums(const int *x, int *bfly_sum, double *down_sum) {
  int g = grid(1);
  int v = x[g];
  for (int offset = 16; offset > 0; offset /= 2) v += shfl_xor_sync(0xffffffffu, v, offset);
  bfly_sum[g] = v;
  double d = x[g] * 0.5;
  for (unsigned offset = warpsize / 2; offset > 0; offset /= 2)
    d += shfl_down_sync(0xffffffffu, d, offset);
  down_sum[g] = d;
}

/* 2D block: lane and warp follow the linear id x + y * blockDim.x. */
KERNEL lanes_2d(int *lane_out, int *neighbour) {
  unsigned t = threadIdx.x + threadIdx.y * blockDim.x;
  unsigned g = blockIdx.x * blockDim.x * blockDim.y + t;
  lane_out[g] = laneid();
  neighbour[g] = shfl_xor_sync(0xffffffffu, (int)g, 1);
}

/* ---- host side ---- */

#define CHECK_SHFL(S, T, FMT)                                                                  \
  static void check_shfl_##S(unsigned threads) {                                               \
    int total = BLOCKS * (int)threads;                                                         \
    T x[MAX_TOTAL], r[4][MAX_TOTAL];                                                           \
    for (int g = 0; g < total; g++) x[g] = value_##S(g);                                       \
    T *d_x = to_device(x, total), *d_r[4];                                                     \
    for (int k = 0; k < 4; k++) d_r[k] = device_array(T, total);                               \
    launch(shfl_##S, BLOCKS, threads)(d_x, d_r[0], d_r[1], d_r[2], d_r[3]);                    \
    for (int k = 0; k < 4; k++) copy_to_host(r[k], d_r[k], total), kp_free(d_r[k]);            \
    kp_free(d_x);                                                                              \
    for (int g = 0; g < total; g++) {                                                          \
      unsigned t = (unsigned)g % threads, lane = t % 32, n = lanes_in_warp(t, threads);        \
      int first = g - (int)lane; /* lane 0 of the warp */                                      \
      /* down from past a partial warp's last lane reads an undefined value on the GPU */     \
      int down = lane + DOWN < n ? g + DOWN : n == 32 ? g : -1;                                \
      T want[4] = {x[first + source_lane(lane, n) % 32], lane >= UP ? x[g - UP] : x[g],        \
                   x[down < 0 ? g : down], x[first + (lane ^ XOR_LANES)]};                     \
      static const char *const names[4] = {"shfl_sync", "shfl_up_sync", "shfl_down_sync",     \
                                           "shfl_xor_sync"};                                   \
      for (int k = 0; k < 4; k++)                                                              \
        KT_CHECK((k == 2 && down < 0) || memcmp(&r[k][g], &want[k], sizeof(T)) == 0,           \
                 #S " %s, %u threads, thread %d (lane %u): " FMT ", expected " FMT, names[k],  \
                 threads, g, lane, r[k][g], want[k]);                                          \
    }                                                                                          \
  }
CHECK_SHFL(i32, int, "%d")
CHECK_SHFL(u32, unsigned, "%u")
CHECK_SHFL(f32, float, "%.9g")
CHECK_SHFL(i64, long long, "%lld")
CHECK_SHFL(u64, unsigned long long, "%llu")
CHECK_SHFL(f64, double, "%.17g")

static void check_votes(unsigned threads, int pattern_base) {
  int total = BLOCKS * (int)threads;
  unsigned ballot[MAX_TOTAL], active[MAX_TOTAL];
  int all[MAX_TOTAL], any[MAX_TOTAL], lane[MAX_TOTAL], size[MAX_TOTAL];
  unsigned *d_ballot = device_array(unsigned, total), *d_active = device_array(unsigned, total);
  int *d_all = device_array(int, total), *d_any = device_array(int, total);
  int *d_lane = device_array(int, total), *d_size = device_array(int, total);
  launch(votes, BLOCKS, threads)(pattern_base, d_ballot, d_all, d_any, d_active, d_lane, d_size);
  copy_to_host(ballot, d_ballot, total);
  copy_to_host(all, d_all, total);
  copy_to_host(any, d_any, total);
  copy_to_host(active, d_active, total);
  copy_to_host(lane, d_lane, total);
  copy_to_host(size, d_size, total);
  for (int g = 0; g < total; g++) {
    unsigned b = (unsigned)g / threads, t = (unsigned)g % threads, l = t % 32;
    unsigned n = lanes_in_warp(t, threads), mask = warp_mask(t, threads);
    int pattern = pattern_base + (int)(b * 4 + t / 32);
    unsigned want_ballot = 0;
    for (unsigned k = 0; k < n; k++)
      if (predicate(pattern, k, g - (int)l + (int)k)) want_ballot |= 1u << k;
    KT_CHECK(ballot[g] == want_ballot, "ballot_sync, %u threads, pattern %d, thread %d: %#x, "
             "expected %#x", threads, pattern % 5, g, ballot[g], want_ballot);
    KT_CHECK(all[g] == (want_ballot == mask), "all_sync, %u threads, pattern %d, thread %d: %d",
             threads, pattern % 5, g, all[g]);
    KT_CHECK(any[g] == (want_ballot != 0), "any_sync, %u threads, pattern %d, thread %d: %d",
             threads, pattern % 5, g, any[g]);
    KT_CHECK(active[g] == mask, "activemask, %u threads, thread %d: %#x, expected %#x", threads,
             g, active[g], mask);
    KT_CHECK(lane[g] == (int)l, "laneid, thread %d: %d, expected %u", g, lane[g], l);
    KT_CHECK(size[g] == 32, "warpsize: %d", size[g]);
  }
  kp_free(d_ballot), kp_free(d_active), kp_free(d_all), kp_free(d_any);
  kp_free(d_lane), kp_free(d_size);
}

static void check_active_in_branch(unsigned threads) {
  int total = BLOCKS * (int)threads;
  unsigned active[MAX_TOTAL];
  unsigned *d_active = device_array(unsigned, total);
  launch(active_in_branch, BLOCKS, threads)(d_active);
  copy_to_host(active, d_active, total);
  kp_free(d_active);
  for (int g = 0; g < total; g++) {
    unsigned t = (unsigned)g % threads, l = t % 32, mask = warp_mask(t, threads);
    if (l % 3 != 0) {
      KT_CHECK(active[g] == 0, "activemask outside the branch, thread %d: %#x", g, active[g]);
      continue;
    }
    KT_CHECK((active[g] >> l & 1u) && (active[g] & ~mask) == 0,
             "activemask in a branch, %u threads, thread %d: %#x (existing lanes %#x)", threads,
             g, active[g], mask);
  }
}

static void check_aggregated_count(unsigned threads) {
  unsigned zero = 0, count = 0;
  unsigned *d_count = to_device(&zero, 1);
  launch(aggregated_count, BLOCKS, threads)(d_count);
  copy_to_host(&count, d_count, 1);
  kp_free(d_count);
  KT_CHECK(count == BLOCKS * threads, "aggregated counter, %u threads: %u, expected %u", threads,
           count, BLOCKS * threads);
}

static void check_warp_sums(void) {
  enum { THREADS = 64, TOTAL = BLOCKS * THREADS };
  int x[TOTAL], bfly[TOTAL];
  double down[TOTAL];
  for (int g = 0; g < TOTAL; g++) x[g] = (g * 37) % 101 - 50;
  int *d_x = to_device(x, TOTAL), *d_bfly = device_array(int, TOTAL);
  double *d_down = device_array(double, TOTAL);
  launch(warp_sums, BLOCKS, THREADS)(d_x, d_bfly, d_down);
  copy_to_host(bfly, d_bfly, TOTAL);
  copy_to_host(down, d_down, TOTAL);
  kp_free(d_x), kp_free(d_bfly), kp_free(d_down);
  for (int w = 0; w < TOTAL / 32; w++) {
    int sum = 0;
    for (int l = 0; l < 32; l++) sum += x[w * 32 + l];
    for (int l = 0; l < 32; l++)
      KT_CHECK(bfly[w * 32 + l] == sum, "butterfly warp sum, warp %d lane %d: %d, expected %d",
               w, l, bfly[w * 32 + l], sum);
    KT_CHECK(down[w * 32] == sum * 0.5, "shfl_down warp sum, warp %d: %.17g, expected %.17g", w,
             down[w * 32], sum * 0.5);
  }
}

static void check_shfl_narrow(void) {
  enum { THREADS = 64, TOTAL = BLOCKS * THREADS };
  short sv[TOTAL];
  unsigned char uv[TOTAL];
  _Bool bv[TOTAL];
  int s_out[TOTAL], u_out[TOTAL], b_out[TOTAL];
  for (int g = 0; g < TOTAL; g++) sv[g] = (short)(-g * 311), uv[g] = (unsigned char)(g * 37 + 200),
                                  bv[g] = g % 3 == 0;
  short *d_s = to_device(sv, TOTAL);
  unsigned char *d_u = to_device(uv, TOTAL);
  _Bool *d_b = to_device(bv, TOTAL);
  int *d_so = device_array(int, TOTAL), *d_uo = device_array(int, TOTAL);
  int *d_bo = device_array(int, TOTAL);
  launch(shfl_narrow, BLOCKS, THREADS)(d_s, d_u, d_b, d_so, d_uo, d_bo);
  copy_to_host(s_out, d_so, TOTAL);
  copy_to_host(u_out, d_uo, TOTAL);
  copy_to_host(b_out, d_bo, TOTAL);
  kp_free(d_s), kp_free(d_u), kp_free(d_b), kp_free(d_so), kp_free(d_uo), kp_free(d_bo);
  for (int g = 0; g < TOTAL; g++) {
    int lane = g % 32, down = lane + 1 < 32 ? g + 1 : g;
    KT_CHECK(s_out[g] == sv[g ^ 1], "short shfl_xor_sync, thread %d: %d, expected %d", g,
             s_out[g], sv[g ^ 1]);
    KT_CHECK(u_out[g] == uv[g - lane], "unsigned char shfl_sync, thread %d: %d, expected %d", g,
             u_out[g], uv[g - lane]);
    KT_CHECK(b_out[g] == bv[down], "_Bool shfl_down_sync, thread %d: %d, expected %d", g,
             b_out[g], bv[down]);
  }
}

static void check_lanes_2d(void) {
  enum { BX = 16, BY = 6, TOTAL = BLOCKS * BX * BY };
  int lane[TOTAL], neighbour[TOTAL];
  int *d_lane = device_array(int, TOTAL), *d_neighbour = device_array(int, TOTAL);
  launch(lanes_2d, BLOCKS, dim3(BX, BY))(d_lane, d_neighbour);
  copy_to_host(lane, d_lane, TOTAL);
  copy_to_host(neighbour, d_neighbour, TOTAL);
  kp_free(d_lane), kp_free(d_neighbour);
  for (int g = 0; g < TOTAL; g++) {
    KT_CHECK(lane[g] == g % 32, "2D block: laneid of linear thread %d: %d", g, lane[g]);
    KT_CHECK(neighbour[g] == (g ^ 1), "2D block: shfl_xor_sync(.., 1) of thread %d: %d", g,
             neighbour[g]);
  }
}

int main(void) {
  kt_start("warp_intrinsics");
  const unsigned sizes[] = {32, 64, 96, 48}; /* 48: a full warp, then 16 lanes */
  for (int s = 0; s < 4; s++) {
    check_shfl_i32(sizes[s]);
    check_shfl_u32(sizes[s]);
    check_shfl_f32(sizes[s]);
    check_shfl_i64(sizes[s]);
    check_shfl_u64(sizes[s]);
    check_shfl_f64(sizes[s]);
    for (int base = 0; base < 5; base++) check_votes(sizes[s], base);
    check_active_in_branch(sizes[s]);
    check_aggregated_count(sizes[s]);
  }
  check_shfl_narrow();
  check_warp_sums();
  check_lanes_2d();
  printf("warp_intrinsics: OK\n");
  return 0;
}
