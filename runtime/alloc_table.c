/* alloc_table.c — every live allocation made through kp_* on the active backend.
 *
 * Both backends use it: it is what makes freeing twice, freeing or copying an unknown
 * pointer, and copying past the end of an allocation errors instead of memory corruption
 * (on the CPU) or a late, anonymous CUDA_ERROR_INVALID_VALUE (on the GPU). A sorted array
 * answers "which allocation contains p?" by binary search, which interior pointers
 * (d + offset) need; programs hold few allocations, so the O(n) insert does not matter. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

typedef struct entry {
  uintptr_t start;
  size_t bytes;
} entry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static entry *g_entries;
static size_t g_count, g_capacity;

/* Index of the first entry whose start is > p. */
static size_t upper_bound(uintptr_t p) {
  size_t lo = 0, hi = g_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g_entries[mid].start <= p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

void kp_alloc_table_insert(void *ptr, size_t bytes) {
  pthread_mutex_lock(&g_lock);
  if (g_count == g_capacity) {
    size_t cap = g_capacity ? g_capacity * 2 : 64;
    entry *e = realloc(g_entries, cap * sizeof *e);
    if (!e) {
      /* Untracked memory still works for kernels; only the checks are lost. */
      pthread_mutex_unlock(&g_lock);
      return;
    }
    g_entries = e;
    g_capacity = cap;
  }
  size_t i = upper_bound((uintptr_t)ptr);
  memmove(&g_entries[i + 1], &g_entries[i], (g_count - i) * sizeof *g_entries);
  g_entries[i] = (entry){(uintptr_t)ptr, bytes};
  g_count++;
  pthread_mutex_unlock(&g_lock);
}

int kp_alloc_table_remove(void *ptr) {
  pthread_mutex_lock(&g_lock);
  size_t i = upper_bound((uintptr_t)ptr);
  int found = i > 0 && g_entries[i - 1].start == (uintptr_t)ptr;
  if (found) {
    memmove(&g_entries[i - 1], &g_entries[i], (g_count - i) * sizeof *g_entries);
    g_count--;
  }
  pthread_mutex_unlock(&g_lock);
  return found;
}

int kp_alloc_table_find(const void *ptr, void **start, size_t *bytes) {
  pthread_mutex_lock(&g_lock);
  size_t i = upper_bound((uintptr_t)ptr);
  int found = 0;
  if (i > 0) {
    entry e = g_entries[i - 1];
    /* A zero-byte allocation still owns its start address. */
    if ((uintptr_t)ptr == e.start || (uintptr_t)ptr - e.start < e.bytes) {
      *start = (void *)e.start;
      *bytes = e.bytes;
      found = 1;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return found;
}
