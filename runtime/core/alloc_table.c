/* alloc_table.c — every live allocation made (or host range registered) through kp_*.
 *
 * Both backends use it: it is what makes freeing twice, freeing or copying an unknown
 * pointer, and copying past the end of an allocation errors instead of memory corruption
 * (on the CPU) or a late, anonymous CUDA_ERROR_INVALID_VALUE (on the GPU), and it is how a
 * launch tells a device array from a pinned host array from a host pointer it cannot size
 * (transfers.c). A sorted array answers "which allocation contains p?" by binary search,
 * which interior pointers (d + offset) need; programs hold few allocations, so the O(n)
 * insert does not matter. Launches only read it: each host thread remembers what it found
 * for each pointer value in a small direct-mapped cache (one slot per pointer hash), valid
 * while the table's generation (bumped by every change) stays the same, so repeated launches
 * on the same arrays take no lock, write no shared cache line and scan nothing. Under a shared
 * lock alone, two threads looking up at once took 10x longer than one (16 ns -> 157 ns per
 * lookup on the 2-core test machine); a round-robin cache of 8 entries missed on every
 * lookup of a kernel with more than 8 array arguments. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_table.h"
#include "core/fork.h"

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static kp_alloc_info *g_entries;
static size_t g_count, g_capacity;
static unsigned long long g_next_id = 1;
static atomic_ullong g_generation = 1; /* changes (under the write lock) with every change */

/* The calling thread's recent finds: slot hash(p) holds the allocation containing p, found
 * in `generation` of the table (a slot of an older generation is empty). */
enum { KP_LOOKUP_SLOTS = 64 };
typedef struct lookup_slot {
  const void *ptr;
  unsigned long long generation;
  kp_alloc_info info;
} lookup_slot;
static _Thread_local lookup_slot tls_cache[KP_LOOKUP_SLOTS];

static lookup_slot *cache_slot(const void *p) {
  return &tls_cache[kp_hash_ptr(p) & (KP_LOOKUP_SLOTS - 1)];
}

/* Index of the first entry whose start is > p. */
static size_t upper_bound(uintptr_t p) {
  size_t lo = 0, hi = g_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)g_entries[mid].start <= p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Whether entry e contains p. A zero-byte allocation still owns its start address. */
static int contains(const kp_alloc_info *e, uintptr_t p) {
  uintptr_t s = (uintptr_t)e->start;
  return p == s || (p > s && p - s < e->bytes);
}

int kp_alloc_table_insert(const kp_alloc_info *info) {
  pthread_rwlock_wrlock(&g_lock);
  if (g_count == g_capacity) {
    size_t cap = g_capacity ? g_capacity * 2 : 64;
    kp_alloc_info *e = realloc(g_entries, cap * sizeof *e);
    if (!e) {
      pthread_rwlock_unlock(&g_lock);
      return 1;
    }
    g_entries = e;
    g_capacity = cap;
  }
  size_t i = upper_bound((uintptr_t)info->start);
  memmove(&g_entries[i + 1], &g_entries[i], (g_count - i) * sizeof *g_entries);
  g_entries[i] = *info;
  g_entries[i].id = g_next_id++;
  g_count++;
  atomic_fetch_add_explicit(&g_generation, 1, memory_order_release);
  pthread_rwlock_unlock(&g_lock);
  return 0;
}

int kp_alloc_table_remove(const void *ptr, kp_alloc_info *out) {
  pthread_rwlock_wrlock(&g_lock);
  size_t i = upper_bound((uintptr_t)ptr);
  int found = i > 0 && g_entries[i - 1].start == ptr;
  if (found) {
    if (out) *out = g_entries[i - 1];
    memmove(&g_entries[i - 1], &g_entries[i], (g_count - i) * sizeof *g_entries);
    g_count--;
    atomic_fetch_add_explicit(&g_generation, 1, memory_order_release);
  }
  pthread_rwlock_unlock(&g_lock);
  return found;
}

/* fork(): held across it so that the child's copy of the table is whole (fork.c). */
void kp_alloc_table_fork(kp_fork_phase phase) {
  if (phase == KP_FORK_PREPARE) pthread_rwlock_wrlock(&g_lock);
  else if (phase == KP_FORK_PARENT) pthread_rwlock_unlock(&g_lock);
  else g_lock = (pthread_rwlock_t)PTHREAD_RWLOCK_INITIALIZER; /* its holder is not there */
}

unsigned long long kp_alloc_table_generation(void) {
  return atomic_load_explicit(&g_generation, memory_order_acquire);
}

int kp_alloc_table_lookup(const void *ptr, kp_alloc_info *out) {
  unsigned long long generation = atomic_load_explicit(&g_generation, memory_order_acquire);
  lookup_slot *slot = cache_slot(ptr);
  if (slot->ptr == ptr && slot->generation == generation) {
    *out = slot->info;
    return 1;
  }
  pthread_rwlock_rdlock(&g_lock);
  size_t i = upper_bound((uintptr_t)ptr);
  int found = i > 0 && contains(&g_entries[i - 1], (uintptr_t)ptr);
  if (found) *out = g_entries[i - 1];
  pthread_rwlock_unlock(&g_lock);
  /* Stamped with the generation read before the search: a change since then makes the slot
   * stale for the next call, never a stale hit. */
  if (found) *slot = (lookup_slot){ptr, generation, *out};
  return found;
}

int kp_alloc_table_overlap(const void *ptr, size_t bytes, kp_alloc_info *out) {
  uintptr_t lo = (uintptr_t)ptr, hi = lo + (bytes ? bytes : 1);
  if (hi < lo) hi = UINTPTR_MAX; /* wrapped: everything above ptr */
  pthread_rwlock_rdlock(&g_lock);
  /* The last entry starting at or below lo may reach into the range; after it, the first
   * entry starting below hi does. */
  size_t i = upper_bound(lo);
  int found = 0;
  if (i > 0 && contains(&g_entries[i - 1], lo)) {
    *out = g_entries[i - 1];
    found = 1;
  } else if (i < g_count && (uintptr_t)g_entries[i].start < hi) {
    *out = g_entries[i];
    found = 1;
  }
  pthread_rwlock_unlock(&g_lock);
  return found;
}

int kp_alloc_table_neighbours(const void *ptr, kp_alloc_info *below, kp_alloc_info *above) {
  int found = 0;
  pthread_rwlock_rdlock(&g_lock);
  size_t i = upper_bound((uintptr_t)ptr);
  if (i > 0) *below = g_entries[i - 1], found |= 1;
  if (i < g_count) *above = g_entries[i], found |= 2;
  pthread_rwlock_unlock(&g_lock);
  return found;
}

int kp_alloc_table_find(const void *ptr, void **start, size_t *bytes) {
  kp_alloc_info e;
  if (!kp_alloc_table_lookup(ptr, &e)) return 0;
  if (e.kind != KP_MEMORY_DEVICE && e.kind != KP_MEMORY_MANAGED) return 0;
  *start = e.start;
  *bytes = e.bytes;
  return 1;
}

static int by_id(const void *a, const void *b) {
  unsigned long long x = ((const kp_alloc_info *)a)->id, y = ((const kp_alloc_info *)b)->id;
  return (x > y) - (x < y);
}

size_t kp_alloc_table_report_leaks(void) {
  pthread_rwlock_rdlock(&g_lock);
  size_t n = g_count, total = 0;
  kp_alloc_info *copy = n ? malloc(n * sizeof *copy) : NULL;
  if (copy) memcpy(copy, g_entries, n * sizeof *copy);
  pthread_rwlock_unlock(&g_lock);
  const kp_alloc_info *list = copy ? copy : g_entries; /* at exit nothing else runs */
  if (copy) qsort(copy, n, sizeof *copy, by_id); /* in allocation order */
  for (size_t i = 0; i < n; i++) total += list[i].bytes;
  if (!n) {
    fprintf(stderr, "kernplug: KP_DEBUG=leaks: every allocation was freed\n");
    return 0;
  }
  fprintf(stderr, "kernplug: KP_DEBUG=leaks: %zu allocation%s (%zu bytes) never freed:\n", n,
          n == 1 ? "" : "s", total);
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, "kernplug:   #%llu %s, %zu bytes at %p (device %d), from %s\n", list[i].id,
            kp_memory_kind_name(list[i].kind), list[i].bytes, list[i].start, list[i].device,
            list[i].what ? list[i].what : "?");
  free(copy);
  return n;
}
