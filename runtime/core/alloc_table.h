/* alloc_table.h — the table of live allocations made (or host ranges registered) through
 * kp_* (alloc_table.c). */
#ifndef KP_ALLOC_TABLE_H
#define KP_ALLOC_TABLE_H

#include <stddef.h>

#include "core/common.h"

/* One live allocation made (or host range registered) through kp_*. */
typedef struct kp_alloc_info {
  void *start;
  size_t bytes;
  kp_memory_kind kind;
  int device;            /* the CUDA device it belongs to (0 on the CPU backend) */
  const char *what;      /* the call that made it ("to_device"), for KP_DEBUG=leaks */
  unsigned long long id; /* allocation number, in order, for KP_DEBUG=leaks */
} kp_alloc_info;

/* Adds an allocation (id is assigned); returns 0, or nonzero when the table cannot grow. */
int kp_alloc_table_insert(const kp_alloc_info *info);
/* Removes the allocation that starts at ptr; returns 1 and its info if there was one. */
int kp_alloc_table_remove(const void *ptr, kp_alloc_info *out);
/* The allocation (any kind) containing ptr: returns 1 and fills *out, or 0. Cheap (a shared
 * lock and a binary search): the launch path calls it once per pointer argument. */
int kp_alloc_table_lookup(const void *ptr, kp_alloc_info *out);
/* The first allocation overlapping [ptr, ptr + bytes): returns 1 and fills *out, or 0. */
int kp_alloc_table_overlap(const void *ptr, size_t bytes, kp_alloc_info *out);
/* The allocations around ptr, for messages: the last one starting at or below it in *below
 * (bit 1 of the result) and the first one starting above it in *above (bit 2). */
int kp_alloc_table_neighbours(const void *ptr, kp_alloc_info *below, kp_alloc_info *above);
/* Finds the device-side allocation (device or managed) containing ptr; returns 1 and its
 * start and size, or 0 (also for pinned and registered host memory, which is host memory). */
int kp_alloc_table_find(const void *ptr, void **start, size_t *bytes);
/* Prints the live allocations to stderr (KP_DEBUG=leaks at exit); returns how many. */
size_t kp_alloc_table_report_leaks(void);

/* The table's generation, changed by every insert and remove: what a thread learnt from the
 * table in one generation holds as long as the generation is the same. */
unsigned long long kp_alloc_table_generation(void);

#endif /* KP_ALLOC_TABLE_H */
