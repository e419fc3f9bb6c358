/* kp_internal.h — declarations shared by the files of libkernplug_rt (never installed).
 *
 * The runtime is split by responsibility: error.c (reporting), registry.c (modules from the
 * plugin), launch.c (launch() configuration and checks), backend.c (KP_BACKEND choice),
 * backend_cpu.c + pool.c + cpu_block.c + fiber.c + cpu_fault.c + cpu_memory.c +
 * cpu_watchdog.c + cpu_device.c (the CPU backend, whose shared declarations are in
 * cpu_backend.h), backend_cuda.c (the driver API), fork.c (pthread_atfork), memory.c +
 * alloc_table.c + counts.c (explicit transfers), stream.c + cuda_stream.c + cpu_stream.c
 * (streams and events, declared in stream.h), detect.c (kp_detect). */
#ifndef KP_INTERNAL_H
#define KP_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define KP_NO_SHORT_NAMES /* the runtime uses only kp_ names; `launch` etc. stay free */
#include "kernplug.h"
#include "kp_abi.h"

/* Everything is built with -fvisibility=hidden; public entry points say so explicitly so that
 * the shared library exports the API of kernplug.h and kp_abi.h and nothing else. */
#define KP_EXPORT __attribute__((visibility("default")))

#if defined(__GNUC__) || defined(__clang__)
#define KP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define KP_NORETURN __attribute__((noreturn))
#else
#define KP_PRINTF(fmt, args)
#define KP_NORETURN
#endif

/* A pointer's bits mixed so that every bit of the address reaches the low bits (the
 * registry's hash table and the launch path's per-thread caches index with them). */
static inline size_t kp_hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

/* ---- errors (error.c) -------------------------------------------------------------------- */

/* Records `code` with a formatted message for kp_last_error(); in abort mode prints
 * "kernplug: error: <message>" to stderr and aborts. Returns `code` in return mode so that
 * callers can write `return kp_fail(...)`. */
kp_error kp_fail(kp_error code, const char *fmt, ...) KP_PRINTF(2, 3);
kp_error kp_vfail(kp_error code, const char *fmt, va_list ap);
/* For errors after which nothing can continue (a device primitive the CPU cannot honour
 * called from inside a kernel): prints and aborts whatever the error mode. */
KP_NORETURN void kp_fatal(const char *fmt, ...) KP_PRINTF(1, 2);
/* cpu_fault.c: drops the calling thread's kernel fault guard, so that the runtime's own
 * abort() on a worker aborts instead of failing the launch like an abort() in kernel code. */
void kp_fault_guard_drop(void);

/* ---- backends (backend.c) ---------------------------------------------------------------- */

typedef struct kp_launch_config {
  const void *kernel;      /* the function launch() named */
  const char *kernel_expr; /* how the user spelled it, for messages */
  kp_extent blocks;
  kp_extent threads;
  size_t shared_bytes;
  kp_stream stream;
} kp_launch_config;

/* What a launch may ask for; checked in launch.c before any backend sees the launch. */
typedef struct kp_limits {
  long long max_threads_per_block;
  long long max_block[3];
  long long max_grid[3];
  long long max_shared_bytes; /* shared memory per block */
  /* Whether static `shared` arrays count against max_shared_bytes (on a GPU); the CPU backend
   * keeps them in worker thread-locals and limits only the dynamic buffer. */
  int static_shared_counts;
  const char *shared_hint; /* appended to the over-limit message, "" if nothing to suggest */
} kp_limits;

/* A backend: the operations the rest of the runtime needs. Each function that can fail
 * reports through kp_fail() itself (it knows the call and the driver's error) and returns
 * the code. `what` names the user-level call for messages ("copy_to_host", …). */
typedef struct kp_backend {
  const char *name;
  const char *limits_owner; /* "the CPU backend", "device 0 (NVIDIA H100)": for messages */
  kp_limits limits;
  kp_error (*launch)(kp_kernel_desc *kernel, const kp_launch_config *cfg, void **args);
  /* Memory (docs/memory.md). alloc/release: device memory on the calling thread's device,
   * also for the runtime's temporaries (staging, reduce, automatic transfers); from the
   * stream-ordered pool where the driver has one. release and release_kind are given the
   * size that was allocated (the CPU backend unmaps exactly its mapping). */
  kp_error (*alloc)(size_t bytes, void **out, const char *what);
  kp_error (*release)(void *ptr, size_t bytes, const char *what);
  /* Memory of a kind (DEVICE, MANAGED or PINNED) on the calling thread's device, which is
   * stored in *device; release_kind frees it on that device. */
  kp_error (*alloc_kind)(kp_memory_kind kind, size_t bytes, void **out, int *device,
                         const char *what);
  kp_error (*release_kind)(kp_memory_kind kind, int device, void *ptr, size_t bytes,
                           const char *what);
  /* Page-locks existing host memory (kp_register) and undoes it. */
  kp_error (*register_host)(void *ptr, size_t bytes, const char *what);
  kp_error (*unregister_host)(void *ptr, const char *what);
  /* Whether ptr, unknown to the allocation table, is device or managed memory that other code
   * allocated (the CUDA driver knows; the CPU backend has none). NULL: never. */
  int (*is_foreign_device_memory)(const void *ptr);
  /* Copies between host memory and device or managed memory (on the allocation's device). */
  kp_error (*to_device)(void *dst, const void *src, size_t bytes, const char *what);
  kp_error (*to_host)(void *dst, const void *src, size_t bytes, const char *what);
  kp_error (*synchronize)(const char *what);
  void (*detect)(void);
  int (*device_count)(void);
  /* Devices, per host thread (NULL on the CPU backend, which runs everything as its one
   * pseudo-device 0; backend.c answers for it). select_device has checked nothing yet. */
  kp_error (*select_device)(int device, const char *what);
  int (*current_device)(void);
  kp_error (*device_properties)(int device, kp_device_properties *out, const char *what);
  /* The launch limits of the calling thread's device and their owner for messages; NULL
   * when `limits` and `limits_owner` hold for every thread. Use kp_backend_limits. */
  const kp_limits *(*thread_limits)(const char **owner);
  /* The block size that maximises occupancy for the kernel with `dynamic_shared` bytes per
   * block, and the grid that fills the device at that size (CUDA's
   * cuOccupancyMaxPotentialBlockSize; the CPU backend answers for its workers). Returns 0, or
   * nonzero without reporting when it has no answer (the caller then picks a default);
   * loading the kernel's module may report its own error. */
  int (*occupancy)(kp_kernel_desc *kernel, size_t dynamic_shared, int *min_grid, int *block);
  /* Device memory is host memory (the CPU backend): a host array can be used in place. */
  int host_memory;
  /* Items each thread of a grid-stride kernel should handle when the grid is not capped by
   * occupancy (0 or 1: one). The CPU backend calls the kernel once per GPU thread and
   * amortises that call over several items. */
  int items_per_thread;
  /* Streams and events (stream.h). stream.c has checked the handles (live, never recorded,
   * same device) and the copy ranges; a NULL kp_stream is the default stream. event_query
   * returns 1 (done), 0 (pending) or -1 after reporting an error. */
  kp_error (*stream_create)(kp_stream s, const char *what);
  kp_error (*stream_destroy)(kp_stream s, const char *what);
  kp_error (*stream_synchronize)(kp_stream s, const char *what);
  kp_error (*event_create)(kp_event e, const char *what);
  kp_error (*event_destroy)(kp_event e, const char *what);
  kp_error (*event_record)(kp_event e, kp_stream s, const char *what);
  kp_error (*event_synchronize)(kp_event e, const char *what);
  int (*event_query)(kp_event e, const char *what);
  kp_error (*event_elapsed_ms)(kp_event start, kp_event end, float *ms, const char *what);
  kp_error (*to_device_async)(void *dst, const void *src, size_t bytes, kp_stream s,
                              const char *what);
  kp_error (*to_host_async)(void *dst, const void *src, size_t bytes, kp_stream s,
                            const char *what);
  /* The module is being unregistered (registry.c; its library is being dlclose()d, or the
   * process exits): drop what the backend keeps in its runtime_data slots and those of its
   * kernels (the loaded GPU code). Reports nothing. NULL: nothing is kept. */
  void (*unload_module)(kp_module_desc *module);
} kp_backend;

/* The backend in use, chosen once (KP_BACKEND) on first use. NULL after reporting an error
 * when the requested backend cannot start (KP_BACKEND=cuda without a GPU, a bad value). */
const kp_backend *kp_backend_get(void);
/* The same without reporting an error when there is none (kp_detect). */
const kp_backend *kp_backend_peek(void);
/* The backend if one has been chosen already, else NULL; never chooses one (a module that
 * leaves before any kernel ran must not start a GPU driver). */
const kp_backend *kp_backend_chosen(void);
/* Why the CPU backend was chosen, or why CUDA could not start ("" if not known). */
const char *kp_backend_reason(void);
/* The launch limits of the calling thread's device, and their owner ("CUDA device 1 (…)",
 * "the CPU backend") in *owner for messages. */
const kp_limits *kp_backend_limits(const kp_backend *be, const char **owner);
/* launch.c: checks a configuration against the calling thread's device limits (grid, block,
 * threads per block, shared memory, stream) before any backend sees it; messages start with
 * `call` ("ufunc(add, ...)"), or with "launch(<kernel>, ...)" when call is NULL (formatted
 * only for a message, so that the launch path formats nothing). */
kp_error kp_launch_check(const kp_backend *be, const kp_kernel_desc *kernel,
                         const kp_launch_config *cfg, const char *call);

/* The CPU backend (backend_cpu.c); cannot fail to start except for bad settings. */
const kp_backend *kp_cpu_backend_init(char *why, size_t why_size);
/* The CUDA backend (backend_cuda.c); NULL with the reason in `why` when it cannot start. */
const kp_backend *kp_cuda_backend_init(char *why, size_t why_size);

/* ---- fork() (fork.c) ------------------------------------------------------------------------ */

/* The phases of pthread_atfork: before the fork (take the lock, so that the child's copy of
 * what it guards is whole), then in the parent (release it) or in the child (make it anew:
 * the child is single-threaded and a mutex "held" by the forking thread is not its own). */
typedef enum kp_fork_phase { KP_FORK_PREPARE, KP_FORK_PARENT, KP_FORK_CHILD } kp_fork_phase;
/* Registers the runtime's fork handlers (once; backend.c calls it on first use). */
void kp_fork_install(void);
/* Each module's part (every lock taken here is a leaf: none is held while taking another). */
void kp_alloc_table_fork(kp_fork_phase phase);
void kp_memory_fork(kp_fork_phase phase);
void kp_stream_fork(kp_fork_phase phase);
void kp_cpu_memory_fork(kp_fork_phase phase); /* the CPU backend's cache of mappings */
void kp_registry_fork(kp_fork_phase phase);   /* the registry's lock */
/* backend.c, in the child: the CUDA backend becomes an error (CUDA cannot be used after fork),
 * the CPU backend's pool starts again. */
void kp_backend_after_fork_child(void);

/* ---- environment helpers (env.c) --------------------------------------------------------- */

/* Parses a positive integer environment variable; returns `fallback` when unset and -1 (after
 * writing the reason to `why`) when it is set but not a number in [1, max]. */
long long kp_env_positive(const char *name, long long fallback, long long max, char *why,
                          size_t why_size);

/* ---- memory (alloc_table.c, memory.c, transfers.c) -------------------------------------- */

/* memory.c: [d, d + bytes) lies inside one live device or managed array; else an error that
 * says what d is (NULL, freed, host memory, unknown, too short), prefixed with `what`. */
kp_error kp_check_device_range(const char *what, const void *d, size_t bytes);

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
/* Whether ptr started an allocation that was freed recently (for "freed twice" messages). */
int kp_memory_was_freed(const void *ptr);

/* The table's generation, changed by every insert and remove: what a thread learnt from the
 * table in one generation holds as long as the generation is the same. */
unsigned long long kp_alloc_table_generation(void);

/* A host range staged for one call (staging.c): `device` is what the kernel uses, either a
 * temporary device array (staged) or the host range itself, used in place. */
typedef struct kp_staging {
  const void *user; /* the host range */
  void *device;
  size_t bytes;
  int staged;    /* device is a temporary that kp_unstage releases */
  int is_output; /* kp_unstage copies the temporary back first */
} kp_staging;
/* Stages `bytes` at host: a temporary device array, filled from host when copy_in, copied
 * back by kp_unstage when copy_back (or is_output set later). Used in place instead when
 * nothing needs moving (device memory is host memory, or no bytes) unless `always`: launch's
 * transfers copy on the CPU too, so that a program behaves alike on both backends. `what`
 * names the argument in messages. On failure s is safe to kp_unstage. */
kp_error kp_stage(const kp_backend *be, kp_staging *s, const void *host, size_t bytes,
                  int copy_in, int copy_back, int always, const char *what);
/* Copies back if staged and is_output, releases the temporary, zeroes s; safe on a failed or
 * zeroed s. Returns the first error. */
kp_error kp_unstage(const kp_backend *be, kp_staging *s, const char *what);

/* Launches through the backend, moving pinned and registered host arrays to the device and
 * back around the launch (transfers.c); refuses host pointers the runtime cannot size. */
kp_error kp_launch_with_transfers(const kp_backend *be, kp_kernel_desc *kernel,
                                  const kp_launch_config *cfg, void **args);

/* The name of the last kernel launched on any host thread (for asynchronous CUDA errors). */
const char *kp_last_launched_kernel(void);
void kp_note_launched_kernel(const char *name);
/* Forgets `name` as the last kernel launched if it is (its module is being unloaded). */
void kp_forget_launched_kernel(const char *name);

#endif /* KP_INTERNAL_H */
