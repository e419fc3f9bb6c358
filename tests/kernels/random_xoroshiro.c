/* random_xoroshiro.c — kernplug/random.h: states created on the host (numba's seeding and
 * jump-ahead), then each thread draws from its own state in a kernel: raw 64-bit values, and
 * xoroshiro128p_uniform_float64/float32 and normal_float32/float64. Two configurations:
 * create_xoroshiro128p_states(384, 1) and (40, 0xDEADBEEFCAFEF00D, 2, stream).
 *
 * Checked here: the kernel's draws equal those the host makes with the same functions from a
 * copy of the states (bit for bit for raw and uniform values; the normals within a few ulps of
 * the host libm, which the GPU's libdevice may differ by); subsequence 2's state 0 is
 * subsequence 0's state 2 (the jump-ahead); a second launch continues the sequences; uniform
 * values lie in [0, 1] and their mean, and the normals' mean and variance, are what they
 * should be. With --dump it prints every draw, which tests/kernels/random_numba_reference.py
 * compares with its own implementation of numba.cuda.random (CTest kernel.random_numba). */
#include <math.h>
#include <stdint.h>

#include <kernplug/random.h>

#include "kernel_test.h"

enum { K = 6, KINDS = 5, MAX_STATES = 384 };

/* out[(i * KINDS + kind) * K + j]: draw j of a kind by thread i, as 64-bit patterns. */
__attribute__((kernel)) void draw(kp_xoroshiro128p_state *states, int n, uint64_t *out) {
  int i = grid(1);
  if (i >= n) return;
  uint64_t *o = out + (size_t)i * KINDS * K;
  for (int j = 0; j < K; j++) o[j] = xoroshiro128p_next(states, i);
  for (int j = 0; j < K; j++) {
    double d = xoroshiro128p_uniform_float64(states, i);
    memcpy(&o[K + j], &d, 8);
  }
  for (int j = 0; j < K; j++) {
    float f = xoroshiro128p_uniform_float32(states, i);
    uint32_t b;
    memcpy(&b, &f, 4);
    o[2 * K + j] = b;
  }
  for (int j = 0; j < K; j++) {
    float f = xoroshiro128p_normal_float32(states, i);
    uint32_t b;
    memcpy(&b, &f, 4);
    o[3 * K + j] = b;
  }
  for (int j = 0; j < K; j++) {
    double d = xoroshiro128p_normal_float64(states, i);
    memcpy(&o[4 * K + j], &d, 8);
  }
}

/* The same draws on the host, from a copy of the states. */
static void host_draws(kp_xoroshiro128p_state *s, int i, uint64_t *o) {
  for (int j = 0; j < K; j++) o[j] = kp_xoroshiro128p_next(s, i);
  for (int j = 0; j < K; j++) {
    double d = kp_xoroshiro128p_uniform_float64(s, i);
    memcpy(&o[K + j], &d, 8);
  }
  for (int j = 0; j < K; j++) {
    float f = kp_xoroshiro128p_uniform_float32(s, i);
    uint32_t b;
    memcpy(&b, &f, 4);
    o[2 * K + j] = b;
  }
  for (int j = 0; j < K; j++) {
    float f = kp_xoroshiro128p_normal_float32(s, i);
    uint32_t b;
    memcpy(&b, &f, 4);
    o[3 * K + j] = b;
  }
  for (int j = 0; j < K; j++) {
    double d = kp_xoroshiro128p_normal_float64(s, i);
    memcpy(&o[4 * K + j], &d, 8);
  }
}

static float as_float(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static double as_double(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static const char *const kind_names[KINDS] = {"next", "uniform_float64", "uniform_float32",
                                              "normal_float32", "normal_float64"};

/* Same value: bit for bit, or for the normals within 4 ulps of the host's result (relative
 * 2^-21 in float32; 2^-21 in float64 too, whose log is computed in float32, as numba does). */
static int agree(int kind, uint64_t got, uint64_t want) {
  if (got == want || kind < 3) return got == want;
  double g = kind == 3 ? as_float(got) : as_double(got), w = kind == 3 ? as_float(want) : as_double(want);
  return fabs(g - w) <= 0x1p-21 * fmax(1.0, fabs(w));
}

static int check_config(int n, uint64_t seed, uint64_t sub, kp_stream stream, int dump, int cfg,
                        uint64_t *out, double stats[4]) {
  kp_xoroshiro128p_state *states = stream ? create_xoroshiro128p_states(n, seed, sub, stream)
                                          : create_xoroshiro128p_states(n, seed);
  static kp_xoroshiro128p_state host[MAX_STATES];
  static uint64_t want[KINDS * K];
  int bad = 0, blocks = (n + 127) / 128;
  copy_to_host(host, states, n);
  for (int round = 0; round < 2; round++) { /* the second launch continues the sequences */
    launch(draw, blocks, 128)(states, n, out);
    kp_synchronize();
    for (int i = 0; i < n; i++) {
      host_draws(host, i, want);
      for (int k = 0; k < KINDS * K; k++) {
        uint64_t got = out[(size_t)i * KINDS * K + k];
        if (dump) printf("draw %d %d %d %s %d %016llx\n", cfg, round, i, kind_names[k / K], k % K,
                         (unsigned long long)got);
        if (!agree(k / K, got, want[k]) && bad++ < 8)
          fprintf(stderr, "config %d round %d state %d: %s draw %d is %#llx, the host's %#llx\n",
                  cfg, round, i, kind_names[k / K], k % K, (unsigned long long)got,
                  (unsigned long long)want[k]);
        double v = k / K == 1 ? as_double(got) : k / K == 3 ? as_float(got) : 0;
        if (k / K == 1 || k / K == 2) {
          double u = k / K == 1 ? v : as_float(got);
          KT_CHECK(u >= 0 && u <= 1, "uniform draw %g outside [0, 1]", u);
          stats[0] += u, stats[1] += 1;
        }
        if (k / K == 3) stats[2] += v, stats[3] += v * v;
      }
    }
  }
  kp_free(states);
  return bad;
}

int main(int argc, char **argv) {
  int dump = argc > 1 && strcmp(argv[1], "--dump") == 0;
  kt_start("random_xoroshiro");
  uint64_t *out = managed_array(uint64_t, MAX_STATES * KINDS * K);
  double stats[4] = {0, 0, 0, 0};
  kp_stream stream = kp_stream_create();
  int bad = check_config(MAX_STATES, 1, 0, NULL, dump, 0, out, stats) +
            check_config(40, 0xDEADBEEFCAFEF00Dull, 2, stream, dump, 1, out, stats);

  /* Jump-ahead: subsequence 2's first state is subsequence 0's third. */
  kp_xoroshiro128p_state a[3], b[1];
  kp_init_xoroshiro128p_states_host(a, 3, 77, 0);
  kp_init_xoroshiro128p_states_host(b, 1, 77, 2);
  KT_CHECK(a[2].s0 == b[0].s0 && a[2].s1 == b[0].s1, "subsequence 2 is not 2 jumps ahead");
  kp_xoroshiro128p_state *d = device_array(kp_xoroshiro128p_state, 3);
  init_xoroshiro128p_states(d, 3, 77);
  kp_xoroshiro128p_state back[3];
  copy_to_host(back, d, 3);
  KT_CHECK(memcmp(back, a, sizeof a) == 0, "init_xoroshiro128p_states differs from the host's");
  kp_free(d);

  double n_uniform = stats[1], mean = stats[0] / n_uniform;
  double n_normal = n_uniform / 2, nmean = stats[2] / n_normal,
         nvar = stats[3] / n_normal - nmean * nmean;
  printf("random_xoroshiro: %.0f uniform draws, mean %.4f; %.0f normal float32, mean %.4f, "
         "variance %.4f\n", n_uniform, mean, n_normal, nmean, nvar);
  /* 4.5 standard deviations of the estimates. */
  KT_CHECK(fabs(mean - 0.5) < 4.5 * sqrt(1.0 / 12 / n_uniform), "uniform mean %g", mean);
  KT_CHECK(fabs(nmean) < 4.5 / sqrt(n_normal), "normal mean %g", nmean);
  KT_CHECK(fabs(nvar - 1) < 4.5 * sqrt(2.0 / n_normal), "normal variance %g", nvar);
  kp_stream_destroy(stream);
  kp_free(out);
  KT_CHECK(bad == 0, "%d draws differ from the host's", bad);
  return 0;
}

/* The PTX (tests/compile: compile.ptx.random_xoroshiro, assembled by ptxas): the generator is
 * integer code, the normals call libdevice's logf, cosf and sqrt, all inlined.
 * PTX-NOT: .extern
 * PTX-LABEL: .visible .entry draw(
 * PTX: cvt.rn.f64.u64
 * PTX: ret;
 */
