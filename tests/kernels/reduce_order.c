/* reduce_order.c — kp_reduce needs associativity only: operators that are associative but
 * not commutative give the in-order fold, whatever the size, alignment or grid.
 *   compose  affine maps x -> a*x + b (mod 2^32) packed as a << 32 | b, composed left to
 *            right: any reordering of two different maps changes the result
 *   first    f(a, b) = a: the fold is in[0]
 *   last     f(a, b) = b: the fold is in[n-1]
 * Each is checked against the sequential fold on the host, for every n up to 600, for sizes
 * up to several grids, from host and device arrays, with init (which goes first).
 *   reduce_order [small]   small: sizes up to 300001 (for the reduce-fibers build) */
#include "kernel_test.h"

typedef unsigned long long u64;

/* p first, then q: q(p(x)) = qa*(pa*x + pb) + qb. */
__attribute__((reduce)) u64 compose(u64 p, u64 q) {
  unsigned pa = (unsigned)(p >> 32), pb = (unsigned)p, qa = (unsigned)(q >> 32), qb = (unsigned)q;
  unsigned a = qa * pa, b = qa * pb + qb;
  return (u64)a << 32 | b;
}
__attribute__((reduce)) int first(int a, int b) {
  (void)b;
  return a;
}
__attribute__((reduce)) double last(double a, double b) {
  (void)a;
  return b;
}

static unsigned long long g_seed = 12345;
static unsigned next_random(void) {
  g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(g_seed >> 32);
}

/* Odd multipliers keep every map invertible, so no prefix of the data absorbs the rest. */
static u64 random_map(void) { return (u64)(next_random() | 1u) << 32 | next_random(); }

static void check_compose(const u64 *h, const u64 *d, long long n) {
  u64 want = 0;
  for (long long i = 0; i < n; i++) want = i ? compose(want, h[i]) : h[0];
  u64 got = kp_reduce(compose, h, n);
  KT_CHECK(got == want, "compose, host array, n = %lld: got %llx, want %llx", n, got, want);
  if (d) {
    got = kp_reduce(compose, d, n);
    KT_CHECK(got == want, "compose, device array, n = %lld: got %llx, want %llx", n, got, want);
  }
  u64 init = random_map();
  u64 want_init = n ? compose(init, want) : init;
  got = kp_reduce_init(compose, h, n, init);
  KT_CHECK(got == want_init, "compose with init, n = %lld: got %llx, want %llx", n, got,
           want_init);
}

static void check_size(long long n) {
  u64 *maps = malloc((size_t)(n + 1) * sizeof *maps);
  int *ints = malloc((size_t)(n + 1) * sizeof *ints);
  double *reals = malloc((size_t)(n + 1) * sizeof *reals);
  KT_CHECK(maps && ints && reals, "out of memory");
  for (long long i = 0; i <= n; i++) {
    maps[i] = random_map();
    ints[i] = (int)next_random();
    reals[i] = (double)i + 0.5;
  }
  u64 *d_maps = to_device(maps, n + 1);
  check_compose(maps, d_maps, n);
  check_compose(maps + 1, d_maps + 1, n); /* unaligned: the device code's slow path */
  kp_free(d_maps);
  if (n > 0) {
    int f = kp_reduce(first, ints + 1, n);
    KT_CHECK(f == ints[1], "first, n = %lld: got %d, want %d", n, f, ints[1]);
    double l = kp_reduce(last, reals, n);
    KT_CHECK(l == reals[n - 1], "last, n = %lld: got %g, want %g", n, l, reals[n - 1]);
    KT_CHECK(kp_reduce_init(first, ints, n, -7) == -7, "first with init, n = %lld", n);
    KT_CHECK(kp_reduce_init(last, reals, n, -7.0) == reals[n - 1], "last with init, n = %lld",
             n);
  }
  free(maps);
  free(ints);
  free(reals);
}

int main(int argc, char **argv) {
  kt_start("reduce_order");
  int small = argc > 1 && strcmp(argv[1], "small") == 0;
  for (long long n = 0; n <= 600; n++) check_size(n);
  static const long long large[] = {4095, 4096, 4097, 65535, 131073, 300001, 1000003, 5000011};
  for (size_t i = 0; i < sizeof large / sizeof large[0]; i++)
    if (!small || large[i] <= 300001) check_size(large[i]);
  printf("reduce_order: finished\n");
  return 0;
}
