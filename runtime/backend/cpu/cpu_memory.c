/* cpu_memory.c — the CPU backend's "device" memory: a mapping of its own per allocation.
 *
 * On a GPU, a kernel that writes past the end of a device array hits other device memory or
 * an unmapped page (CUDA_ERROR_ILLEGAL_ADDRESS); it never reaches host memory. With device
 * arrays taken from malloc, the same kernel on the CPU overwrote the heap next to them —
 * malloc's metadata, other arrays and the runtime's own tables — and the program failed
 * later, somewhere else, or computed garbage. Here every allocation is
 *
 *     [guard page][data pages, the array ending against the next guard][guard page]
 *
 * with the array placed as close to the trailing guard as its 256-byte alignment allows, so a
 * write just past its end (from the first multiple of 256 bytes on) faults and cpu_fault.c
 * turns it into a launch error naming the kernel and the array; nothing the runtime keeps is
 * within reach. A short overrun inside the alignment padding stays inside the mapping. The
 * price: a new mapping costs mmap + mprotect and its pages' first-touch faults, and at least
 * one page. Allocating in a loop (and the temporaries of launches with pinned arguments) gets
 * back a recently freed mapping of the same size from a small cache instead: 17-26 us per
 * device_array + kp_free of 4 MiB without it, well under 1 us with it.
 *
 * Under a memory checker (AddressSanitizer in the program, valgrind's memcheck) the checker
 * sees more than a guard page: there an allocation is the checker's own malloc of exactly the
 * bytes asked for (256-byte aligned), so that `x[n]` in a kernel is reported at once with the
 * kernel's line and the allocation's call stack, rather than hidden in the padding. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"
#include "core/alloc_table.h"

enum { KP_CPU_ALLOC_ALIGN = 256 }; /* cuMemAlloc's alignment: keep alignment behaviour identical */

/* Freed mappings kept for reuse by an allocation of the same data size. */
enum {
  KP_CPU_CACHE_SLOTS = 16,
  KP_CPU_CACHE_BYTES = 64 << 20 /* at most this much memory sits unused in the cache */
};
static pthread_mutex_t g_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  char *base;
  size_t data;
} g_cache[KP_CPU_CACHE_SLOTS];
static int g_cached;
static size_t g_cached_bytes;

static char *cache_take(size_t data) {
  char *base = NULL;
  pthread_mutex_lock(&g_cache_lock);
  for (int i = g_cached - 1; i >= 0 && !base; i--) /* the most recent first: warm pages */
    if (g_cache[i].data == data) {
      base = g_cache[i].base;
      g_cache[i] = g_cache[--g_cached];
      g_cached_bytes -= data;
    }
  pthread_mutex_unlock(&g_cache_lock);
  return base;
}

static int cache_put(char *base, size_t data) {
  int kept = 0;
  pthread_mutex_lock(&g_cache_lock);
  if (g_cached < KP_CPU_CACHE_SLOTS && data <= KP_CPU_CACHE_BYTES - g_cached_bytes) {
    g_cache[g_cached].base = base, g_cache[g_cached].data = data, g_cached++;
    g_cached_bytes += data;
    kept = 1;
  }
  pthread_mutex_unlock(&g_cache_lock);
  return kept;
}

void kp_cpu_memory_fork(kp_fork_phase phase) {
  if (phase == KP_FORK_PREPARE) pthread_mutex_lock(&g_cache_lock);
  else if (phase == KP_FORK_PARENT) pthread_mutex_unlock(&g_cache_lock);
  else g_cache_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
}

static size_t page_size(void) {
  static size_t page;
  if (!page) {
    long p = sysconf(_SC_PAGESIZE);
    page = p > 0 ? (size_t)p : 4096;
  }
  return page;
}

/* The layout of an allocation of `bytes`: data bytes (whole pages) and the offset of the
 * array in them. 0 when the mapping would not fit in the address space. */
static size_t data_bytes(size_t bytes, size_t *offset) {
  size_t page = page_size();
  size_t used = bytes ? bytes : 1; /* a distinct pointer even for 0 bytes */
  if (used > SIZE_MAX - (KP_CPU_ALLOC_ALIGN - 1) - 3 * page) return 0;
  used = (used + KP_CPU_ALLOC_ALIGN - 1) / KP_CPU_ALLOC_ALIGN * KP_CPU_ALLOC_ALIGN;
  size_t data = (used + page - 1) / page * page;
  *offset = data - used;
  return data;
}

static kp_error out_of_memory(size_t bytes, int err, const char *what) {
  long page = sysconf(_SC_PAGESIZE), avail = sysconf(_SC_AVPHYS_PAGES),
       total = sysconf(_SC_PHYS_PAGES);
  size_t free_bytes = avail > 0 && page > 0 ? (size_t)avail * (size_t)page : 0;
  return kp_fail(KP_ERROR_OUT_OF_MEMORY,
                 "%s: allocating %zu bytes on the CPU backend: out of memory (%zu bytes free "
                 "of %zu)%s",
                 what, bytes, free_bytes,
                 total > 0 && page > 0 ? (size_t)total * (size_t)page : 0,
                 err == ENOMEM && free_bytes > bytes
                     ? "; or too many live arrays: each is a mapping of its own on the CPU "
                       "backend, and vm.max_map_count limits them"
                     : "");
}

/* 1 when a memory checker watches the heap: ASan's runtime is in the process, or valgrind
 * preloaded its malloc (it puts vgpreload_*.so in LD_PRELOAD). Decided once. */
static int exact_allocations(void) {
  static int exact = -1;
  if (exact < 0) {
    const char *preload = getenv("LD_PRELOAD");
    exact = dlsym(RTLD_DEFAULT, "__asan_init") != NULL ||
            (preload && strstr(preload, "/vgpreload_") != NULL);
  }
  return exact;
}

int kp_cpu_map_quiet(size_t bytes, void **out) {
  if (exact_allocations()) /* a distinct pointer even for 0 bytes, as below */
    return posix_memalign(out, KP_CPU_ALLOC_ALIGN, bytes ? bytes : 1);
  size_t page = page_size(), offset = 0, data = data_bytes(bytes, &offset);
  if (!data) return ENOMEM;
  char *reused = cache_take(data);
  if (reused) {
    *out = reused + page + offset;
    return 0;
  }
  /* PROT_NONE costs no memory (not even commit charge); only the data pages become usable. */
  char *base = mmap(NULL, data + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return errno;
  if (mprotect(base + page, data, PROT_READ | PROT_WRITE) != 0) {
    int err = errno;
    munmap(base, data + 2 * page);
    return err;
  }
  *out = base + page + offset;
  return 0;
}

kp_error kp_cpu_map(size_t bytes, void **out, const char *what) {
  int err = kp_cpu_map_quiet(bytes, out);
  return err ? out_of_memory(bytes, err, what) : KP_SUCCESS;
}

void kp_cpu_unmap(void *p, size_t bytes) {
  if (!p) return;
  if (exact_allocations()) {
    free(p);
    return;
  }
  size_t page = page_size(), offset = 0, data = data_bytes(bytes, &offset);
  char *base = (char *)p - offset - page;
  if (!cache_put(base, data)) munmap(base, data + 2 * page);
}

void kp_cpu_describe_address(char *out, size_t size, const void *addr) {
  kp_alloc_info below, above;
  int found = kp_alloc_table_neighbours(addr, &below, &above);
  uintptr_t a = (uintptr_t)addr, reach = page_size() + KP_CPU_ALLOC_ALIGN;
  const char *advice = "check the indices against the array sizes";
  if (found & 1) {
    uintptr_t end = (uintptr_t)below.start + below.bytes;
    if (a >= end && a - end < reach) {
      snprintf(out, size, ", %zu bytes past the end of the %s array of %zu bytes at %p (from "
               "%s); %s",
               (size_t)(a - end), kp_memory_kind_name(below.kind), below.bytes, below.start,
               below.what ? below.what : "?", advice);
      return;
    }
  }
  if ((found & 2) && (uintptr_t)above.start - a <= page_size()) {
    snprintf(out, size, ", %zu bytes before the start of the %s array of %zu bytes at %p "
             "(from %s); %s",
             (size_t)((uintptr_t)above.start - a), kp_memory_kind_name(above.kind),
             above.bytes, above.start, above.what ? above.what : "?", advice);
    return;
  }
  snprintf(out, size, "; %s", advice);
}

kp_error kp_cpu_fill(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                     const char *what) {
  (void)what;
  if (elem_size == 1) {
    memset(dst, (int)(pattern & 0xff), count);
  } else if (elem_size == 2) {
    uint16_t v = (uint16_t)pattern, *p = dst;
    for (size_t i = 0; i < count; i++) p[i] = v;
  } else {
    uint32_t *p = dst;
    for (size_t i = 0; i < count; i++) p[i] = pattern;
  }
  return KP_SUCCESS;
}
