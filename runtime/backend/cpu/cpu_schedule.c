/* cpu_schedule.c — KP_CPU_SCHEDULE: the order in which the CPU backend runs a grid's blocks,
 * and a fiber block's threads.
 *
 * A GPU promises no order between blocks; the CPU backend hands them out in index order, so a
 * program that (wrongly) relies on block 0 running first works here and fails on a GPU.
 * KP_CPU_SCHEDULE=random:<seed> runs each launch's blocks in a pseudo-random order, a
 * different one per launch and the same for the same seed and launch sequence (with
 * KP_NUM_THREADS=1, the same run), to shake such assumptions out (docs/debugging.md). The
 * order is a bijection on the block indices: two rounds of an odd multiplier plus a constant
 * and an xor-shift modulo the next power of two, walking the cycle until it lands inside.
 * Blocks that run as fibers (cpu_block.c) also run their threads in a new order at every
 * barrier round: a shuffle keyed by the launch, the block and the round, so that it does not
 * depend on which worker runs the block. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_backend.h"

static int g_random;
static uint64_t g_seed;
static atomic_ullong g_launches;

int kp_cpu_schedule_init(char *why, size_t why_size) {
  const char *v = getenv("KP_CPU_SCHEDULE");
  g_random = 0;
  if (!v || !*v || strcmp(v, "ordered") == 0) return 0;
  const char *prefix = "random:";
  char *end = NULL;
  if (strncmp(v, prefix, strlen(prefix)) == 0) {
    const char *digits = v + strlen(prefix);
    unsigned long long seed = *digits >= '0' && *digits <= '9' ? strtoull(digits, &end, 10) : 0;
    if (end && end != digits && *end == '\0') {
      g_random = 1;
      g_seed = seed;
      return 0;
    }
  }
  snprintf(why, why_size,
           "KP_CPU_SCHEDULE=%s: expected 'ordered' or 'random:<seed>' (a whole number)", v);
  return -1;
}

int kp_cpu_schedule_random(unsigned long long *seed) {
  if (g_random && seed) *seed = g_seed;
  return g_random;
}

/* splitmix64: a well-mixed 64-bit value from any input. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t kp_cpu_schedule_launch_key(void) {
  return mix(g_seed ^ mix(atomic_fetch_add(&g_launches, 1) + 1));
}

unsigned long long kp_cpu_schedule_block(uint64_t key, unsigned long long b,
                                         unsigned long long n) {
  if (n < 2) return b;
  unsigned bits = 1;
  while (bits < 64 && (1ull << bits) < n) bits++;
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  const uint64_t a1 = (mix(key) | 1) & mask, c1 = mix(key + 1) & mask;
  const uint64_t a2 = (mix(key + 2) | 1) & mask, c2 = mix(key + 3) & mask;
  const unsigned shift = bits / 2 ? bits / 2 : 1;
  uint64_t x = b;
  do { /* each step is a bijection on [0, 2^bits); walking its cycle stays inside [0, n) */
    x = (x * a1 + c1) & mask;
    x ^= x >> shift;
    x = (x * a2 + c2) & mask;
  } while (x >= n);
  return x;
}

void kp_cpu_schedule_threads(uint64_t key, unsigned long long block, unsigned round,
                             unsigned *order, unsigned n) {
  uint64_t state = mix(mix(key ^ mix(block + 1)) + round);
  for (unsigned i = 0; i < n; i++) order[i] = i;
  for (unsigned i = n; i > 1; i--) { /* Fisher-Yates; the modulo bias is irrelevant here */
    state = mix(state);
    unsigned j = (unsigned)(state % i), t = order[i - 1];
    order[i - 1] = order[j], order[j] = t;
  }
}
