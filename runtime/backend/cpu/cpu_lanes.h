/* cpu_lanes.h — how a grid's blocks are shared out between the pool's participants.
 *
 * The blocks are cut into one contiguous lane per participant (the launching thread lane 0,
 * worker i lane i). A participant takes chunks of its own lane from the front, in order; when
 * its lane is empty it steals chunks from the back of the others'. So when every participant
 * takes part, each runs the same blocks at every launch of the same grid, and the lines of the
 * arrays those blocks write stay in its core's cache from one launch to the next instead of
 * moving between cores (with one shared counter, which block went to whom changed from launch
 * to launch); a participant that joins late or not at all loses its lane's chunks to the
 * others, from the far end, as with the counter. The random schedule (KP_CPU_SCHEDULE), one
 * participant, grids of one chunk and grids of 2^32 blocks or more keep the one shared counter
 * (no lanes). Relaxed atomics: the task's hand-off orders everything else. */
#ifndef KP_CPU_LANES_H
#define KP_CPU_LANES_H

#include <stdatomic.h>

enum { KP_CPU_MAX_LANES = 16 };

/* [front, back) of a lane's blocks: front in bits 0-31, back in bits 32-63. */
typedef struct kp_cpu_lane {
  _Alignas(64) _Atomic unsigned long long span;
} kp_cpu_lane;

typedef struct kp_cpu_lanes {
  unsigned count;          /* 0: the shared counter `next` hands out chunks in order */
  unsigned long long total, chunk; /* blocks, blocks per take */
  atomic_ullong next;
  kp_cpu_lane lane[KP_CPU_MAX_LANES];
} kp_cpu_lanes;

/* Cuts `total` blocks into one lane per participant (at most KP_CPU_MAX_LANES; participants
 * beyond share lanes), taken `chunk` blocks at a time, or into none when `shared` asks for
 * the counter. */
static inline void kp_cpu_lanes_init(kp_cpu_lanes *l, unsigned long long total,
                                     unsigned long long chunk, unsigned long long participants,
                                     int shared) {
  atomic_init(&l->next, 0);
  l->total = total, l->chunk = chunk, l->count = 0;
  if (shared || participants < 2 || total <= chunk || total >= 0xffffffffull) return;
  unsigned count = participants < KP_CPU_MAX_LANES ? (unsigned)participants : KP_CPU_MAX_LANES;
  for (unsigned i = 0; i < count; i++) {
    unsigned long long front = total * i / count, back = total * (i + 1) / count;
    atomic_init(&l->lane[i].span, front | back << 32);
  }
  l->count = count;
}

/* The next blocks [*first, *end) for participant `who`: from its own lane's front, else
 * from another lane's back. Returns 0 when every block has been taken. */
static inline int kp_cpu_lanes_take(kp_cpu_lanes *l, int who, unsigned long long *first,
                                    unsigned long long *end) {
  if (l->count == 0) {
    unsigned long long b = atomic_fetch_add_explicit(&l->next, l->chunk, memory_order_relaxed);
    if (b >= l->total) return 0;
    *first = b, *end = l->total - b < l->chunk ? l->total : b + l->chunk;
    return 1;
  }
  unsigned home = (unsigned)who % l->count;
  for (unsigned k = 0; k < l->count; k++) {
    kp_cpu_lane *lane = &l->lane[(home + k) % l->count];
    unsigned long long s = atomic_load_explicit(&lane->span, memory_order_relaxed);
    for (;;) {
      unsigned long long front = s & 0xffffffffull, back = s >> 32;
      if (front >= back) break;
      unsigned long long n = back - front < l->chunk ? back - front : l->chunk;
      unsigned long long want = k == 0 ? s + n : s - (n << 32);
      if (atomic_compare_exchange_weak_explicit(&lane->span, &s, want, memory_order_relaxed,
                                                memory_order_relaxed)) {
        *first = k == 0 ? front : back - n;
        *end = *first + n;
        return 1;
      }
    }
  }
  return 0;
}

#endif
