/* half_atomics.c — atomic_add and friends on _Float16, __bf16 and the kp_half2 /
 * kp_bfloat162 pairs (kernplug/half.h), in global and shared memory, and __bf16 conversions
 * linking without -rtlib=compiler-rt (libkernplug_rt provides __truncsfbf2 and
 * __truncdfbf2 where libgcc lacks them).
 *
 * Under contention: 256 threads add 1 to one of four counters of each type (sums stay exact
 * integers, so the order cannot matter); the values atomic_add returned must be 0 ... 63 for
 * each counter, each once — what atomicity means. Without contention: one thread's sums of
 * values that need rounding must be the host's (float) sums rounded once to the type.
 * atomic_max/min/exch/cas on both types against what the host computes. */
#include "kernel_test.h"

enum { BLOCKS = 4, THREADS = 64, N = BLOCKS * THREADS, COUNTERS = 4, PER = N / COUNTERS };

typedef struct counters {
  _Float16 h[COUNTERS];
  __bf16 b[COUNTERS];
  kp_half2 h2[COUNTERS];
  kp_bfloat162 b2[COUNTERS];
  _Float16 hmax, hmin;
  __bf16 bmax, bmin;
  _Float16 shared_h[BLOCKS];
  __bf16 shared_b[BLOCKS];
} counters;

typedef struct olds {
  float h, b, h2x, h2y, b2x, b2y;
} olds;

__attribute__((kernel)) void contend(counters *c, olds *o) {
  static __attribute__((shared)) _Float16 sh[1];
  static __attribute__((shared)) __bf16 sb[1];
  int t = grid(1), k = t % COUNTERS;
  if (threadIdx.x == 0) sh[0] = 0, sb[0] = 0;
  syncthreads();
  o[t].h = (float)atomic_add(&c->h[k], (_Float16)1);
  o[t].b = (float)atomic_add(&c->b[k], (__bf16)1);
  kp_half2 h2 = atomic_add(&c->h2[k], kp_half2_make(1, 0.5f16));
  kp_bfloat162 b2 = atomic_add(&c->b2[k], kp_bfloat162_make(1, 2));
  o[t].h2x = (float)h2.x, o[t].h2y = (float)h2.y, o[t].b2x = (float)b2.x, o[t].b2y = (float)b2.y;
  atomic_max(&c->hmax, (_Float16)(t % 100));
  atomic_min(&c->hmin, (_Float16)(t % 100 - 50));
  atomic_max(&c->bmax, (__bf16)(t % 100));
  atomic_min(&c->bmin, (__bf16)(t % 100 - 50));
  atomic_add(&sh[0], (_Float16)0.25f);
  atomic_sub(&sb[0], (__bf16)2);
  syncthreads();
  if (threadIdx.x == 0) c->shared_h[blockIdx.x] = sh[0], c->shared_b[blockIdx.x] = sb[0];
}

/* One thread: sums that need rounding, exch and cas; from a double (__truncdfbf2). */
__attribute__((kernel)) void rounding(const float *in, int n, _Float16 *h, __bf16 *b,
                                      float *exch_cas) {
  if (grid(1) != 0) return;
  for (int i = 0; i < n; i++) {
    atomic_add(h, (_Float16)in[i]);
    atomic_add(b, (__bf16)(double)in[i]);
  }
  _Float16 e = atomic_exch(h + 1, (_Float16)3.5f);
  _Float16 c1 = atomic_cas(h + 1, (_Float16)3.5f, (_Float16)-1);  /* matches */
  __bf16 c2 = atomic_cas(b + 1, (__bf16)7, (__bf16)8);            /* does not */
  exch_cas[0] = (float)e, exch_cas[1] = (float)c1, exch_cas[2] = (float)c2;
  exch_cas[3] = (float)h[1], exch_cas[4] = (float)b[1];
}

static int check_olds(const char *what, const olds *o, size_t offset, float step) {
  int seen[COUNTERS][PER] = {{0}}, bad = 0;
  for (int t = 0; t < N; t++) {
    float v = *(const float *)((const char *)&o[t] + offset) / step;
    int i = (int)v;
    if (v != (float)i || i < 0 || i >= PER || seen[t % COUNTERS][i]++) {
      if (bad++ < 4) fprintf(stderr, "%s: thread %d got old value %g\n", what, t, v * step);
    }
  }
  return bad;
}

int main(void) {
  kt_start("half_atomics");
  counters *c = managed_array(counters, 1);
  olds *o = managed_array(olds, N);
  memset(c, 0, sizeof *c);
  c->hmax = c->bmax = -1000, c->hmin = c->bmin = 1000;
  launch(contend, BLOCKS, THREADS)(c, o);
  kp_synchronize();
  int bad = check_olds("half", o, offsetof(olds, h), 1) + check_olds("bf16", o, offsetof(olds, b), 1) +
            check_olds("half2.x", o, offsetof(olds, h2x), 1) +
            check_olds("half2.y", o, offsetof(olds, h2y), 0.5f) +
            check_olds("bfloat162.x", o, offsetof(olds, b2x), 1) +
            check_olds("bfloat162.y", o, offsetof(olds, b2y), 2);
  for (int k = 0; k < COUNTERS; k++) {
    KT_CHECK((float)c->h[k] == PER && (float)c->b[k] == PER, "counter %d: %g %g", k,
             (float)c->h[k], (float)c->b[k]);
    KT_CHECK((float)c->h2[k].x == PER && (float)c->h2[k].y == PER / 2.0f &&
                 (float)c->b2[k].x == PER && (float)c->b2[k].y == 2 * PER,
             "pair counter %d", k);
  }
  KT_CHECK((float)c->hmax == 99 && (float)c->bmax == 99 && (float)c->hmin == -50 &&
               (float)c->bmin == -50,
           "max/min: %g %g %g %g", (float)c->hmax, (float)c->bmax, (float)c->hmin,
           (float)c->bmin);
  for (int blk = 0; blk < BLOCKS; blk++)
    KT_CHECK((float)c->shared_h[blk] == THREADS * 0.25f && (float)c->shared_b[blk] == -2 * THREADS,
             "shared block %d: %g %g", blk, (float)c->shared_h[blk], (float)c->shared_b[blk]);

  enum { M = 200 };
  float *in = managed_array(float, M), *ec = managed_array(float, 5);
  _Float16 *h = managed_array(_Float16, 2);
  __bf16 *b = managed_array(__bf16, 2);
  _Float16 want_h = 0;
  __bf16 want_b = 0;
  for (int i = 0; i < M; i++) {
    in[i] = 1.0f / (float)(i + 3) + (float)(i % 7) * 0.3f;
    want_h = (_Float16)((float)want_h + (float)(_Float16)in[i]);
    want_b = (__bf16)((float)want_b + (float)(__bf16)(double)in[i]);
  }
  h[0] = 0, h[1] = 2, b[0] = 0, b[1] = 5;
  launch(rounding, 1, 32)(in, M, h, b, ec);
  kp_synchronize();
  KT_CHECK(memcmp(&h[0], &want_h, 2) == 0, "half sum %g, want %g", (float)h[0], (float)want_h);
  KT_CHECK(memcmp(&b[0], &want_b, 2) == 0, "bf16 sum %g, want %g", (float)b[0], (float)want_b);
  KT_CHECK(ec[0] == 2 && ec[1] == 3.5f && ec[2] == 5 && ec[3] == -1 && ec[4] == 5,
           "exch/cas: %g %g %g %g %g", ec[0], ec[1], ec[2], ec[3], ec[4]);
  KT_CHECK(bad == 0, "%d atomic return values are wrong", bad);
  printf("half_atomics: half %g, bf16 %g after %d rounded additions; all counters exact\n",
         (float)h[0], (float)b[0], M);
  kp_free(c), kp_free(o), kp_free(in), kp_free(ec), kp_free(h), kp_free(b);
  return 0;
}

/* The PTX (tests/compile: compile.ptx.half_atomics, assembled by ptxas for sm_75 and sm_90):
 * half additions are the GPU's atomic instruction, bfloat16 and the pairs 32-bit
 * compare-and-swap loops.
 * PTX-LABEL: .visible .entry contend(
 * PTX-DAG: atom.global.add.noftz.f16
 * PTX-DAG: atom.shared.add.noftz.f16
 * PTX-DAG: atom{{(.relaxed.sys)?}}.global.cas.b32
 * PTX: ret;
 */
