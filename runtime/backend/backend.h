/* backend.h — the generic backend object: what core and ufunc/ need from a backend, and
 * nothing about how one works (never installed).
 *
 * The shape of LLVM offload's plugins-nextgen PluginInterface.h: core owns the generic
 * operations — kp_launch_check / kp_launch_with_transfers / kp_launch_checked (launch.h)
 * validate every launch and do the common work (staging, automatic transfers), stream.c and
 * memory.c check every handle and range — and then call the backend's hooks, which only do
 * the work. A backend (backend/cpu, backend/cuda) fills one kp_backend; core includes this
 * header and never a backend's own headers, and the backends include core's headers, never
 * each other's. The CPU backend's scheduling (items per thread, worker pool, fibers) stays
 * behind the hooks: core asks questions in its own terms (does a host range need a copy,
 * how many blocks for n items) and gets answers. */
#ifndef KP_BACKEND_H
#define KP_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "core/common.h"
#include "core/fork.h"

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

/* The stream and event hooks, one row each: X(return type, name, parameters). kp_backend has
 * a field for each; each backend declares its functions and fills the fields from the same
 * rows. */
#define KP_BACKEND_STREAM_HOOKS(X)                                                            \
  X(kp_error, stream_create, (kp_stream s, const char *what))                                 \
  X(kp_error, stream_destroy, (kp_stream s, const char *what))                                \
  X(kp_error, stream_synchronize, (kp_stream s, const char *what))                            \
  X(kp_error, event_create, (kp_event e, const char *what))                                   \
  X(kp_error, event_destroy, (kp_event e, const char *what))                                  \
  X(kp_error, event_record, (kp_event e, kp_stream s, const char *what))                      \
  X(kp_error, event_synchronize, (kp_event e, const char *what))                              \
  X(int, event_query, (kp_event e, const char *what))                                         \
  X(kp_error, event_elapsed_ms, (kp_event start, kp_event end, float *ms, const char *what))  \
  X(kp_error, stream_wait_event, (kp_stream s, kp_event e, const char *what))                 \
  X(kp_error, stream_add_callback, (kp_stream s, void (*run)(void *), void *arg,              \
                                    const char *what))                                        \
  X(kp_error, to_device_async,                                                                \
    (void *dst, const void *src, size_t bytes, kp_stream s, const char *what))                \
  X(kp_error, to_host_async,                                                                  \
    (void *dst, const void *src, size_t bytes, kp_stream s, const char *what))                \
  X(kp_error, device_to_device_async,                                                         \
    (void *dst, const void *src, size_t bytes, kp_stream s, const char *what))                \
  X(kp_error, fill_async,                                                                     \
    (void *dst, uint32_t pattern, size_t elem_size, size_t count, kp_stream s,                \
     const char *what))

/* A backend: the operations the rest of the runtime needs. Each function that can fail
 * reports through kp_fail() itself (it knows the call and the driver's error) and returns
 * the code. `what` names the user-level call for messages ("copy_to_host", …). Hooks that
 * may be NULL say what NULL means. */
typedef struct kp_backend {
  const char *name;
  const char *limits_owner; /* "the CPU backend", "device 0 (NVIDIA H100)": for messages */
  kp_limits limits;
  /* Runs a launch that core has checked (limits, stream) and whose arguments it has staged
   * (launch.h): the backend only starts the kernel. */
  kp_error (*launch_impl)(kp_kernel_desc *kernel, const kp_launch_config *cfg, void **args);
  /* Runs a generated kernel's range entry (kernel->cpu_range_entry, not NULL) for the indices
   * [0, n), n >= 1, with the arguments `args` its grid launch would get, and returns when all
   * are done; core has checked the stream. Below `serial_below` indices the work is too small
   * to share out. NULL: the backend runs grids only (ufunc_common.c launches the kernel). */
  kp_error (*launch_range)(kp_kernel_desc *kernel, long long n, long long serial_below,
                           void **args);
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
  /* The allocation such memory lies in (cuMemGetAddressRange): 1 with its start and size, 0
   * when the backend cannot say. NULL: never known. */
  int (*foreign_device_range)(const void *ptr, void **base, size_t *size);
  /* Whether ptr, unknown to the allocation table, is a GPU's memory that this backend's kernels
   * and copies cannot use (the CPU backend, in a process whose other CUDA code allocated it
   * with cudaMalloc). NULL: never. */
  int (*is_unreachable_gpu_memory)(const void *ptr);
  /* Whether a kernel needs the host range [host, host + bytes) copied into device memory to
   * use it (the array operands of ufunc, gufunc and kp_reduce; staging.c). NULL: always, as
   * on a GPU, whose device memory is not host memory. */
  int (*host_range_needs_copy)(const void *host, size_t bytes);
  /* Copies between host memory and device or managed memory (on the allocation's device),
   * and between two device or managed ranges (copies.c has classified both sides). */
  kp_error (*to_device)(void *dst, const void *src, size_t bytes, const char *what);
  kp_error (*to_host)(void *dst, const void *src, size_t bytes, const char *what);
  kp_error (*device_to_device)(void *dst, const void *src, size_t bytes, const char *what);
  /* Writes `count` elements of elem_size bytes (1, 2 or 4), each the low elem_size bytes of
   * `pattern`, at dst in device or managed memory (cuMemsetD8/D16/D32). */
  kp_error (*fill)(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                   const char *what);
  kp_error (*synchronize)(const char *what);
  void (*detect)(void);
  int (*device_count)(void);
  /* Devices, per host thread. select_device has checked nothing yet; device_properties is
   * given a zeroed *out. */
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
  /* The blocks to launch for a grid-stride kernel (the generated ufunc, gufunc and reduce
   * kernels, whose threads loop until the items run out) over `items` items (>= 1) with
   * `threads` threads per block, before occupancy's grid and the grid limit cap them. NULL:
   * one item per thread. Use kp_backend_grid_stride_blocks. */
  long long (*grid_stride_blocks)(const kp_kernel_desc *kernel, long long items,
                                  long long threads);
  /* The most blocks of `threads` threads with `dynamic_shared` bytes each that a cooperative
   * launch of the kernel (KP_KERNEL_COOPERATIVE: it reaches grid_sync) may have, all resident
   * at once, in *blocks (0: none); reports its errors. NULL: no cooperative launches. */
  kp_error (*cooperative_blocks)(kp_kernel_desc *kernel, long long threads,
                                 size_t dynamic_shared, long long *blocks);
  /* Streams and events (core/stream.h). stream.c has checked the handles (live, never
   * recorded, same device) and copies.c the copy ranges; a NULL kp_stream is the default
   * stream. stream_create reads s->flags. event_query returns 1 (done), 0 (pending) or -1
   * after reporting an error. stream_add_callback has run(arg) called once, on the host, after the
   * stream's earlier work (run frees arg); after an error it never calls it. */
#define KP_STREAM_HOOK_FIELD(Ret, Name, Params) Ret(*Name) Params;
  KP_BACKEND_STREAM_HOOKS(KP_STREAM_HOOK_FIELD)
#undef KP_STREAM_HOOK_FIELD
  /* The driver objects behind kernplug's, for CUDA libraries (backend/native_handles.c): the
   * calling thread's device's context in *out (a CUcontext); stream_wrap makes s (external
   * set, flags and device to fill) stand for the driver stream `native` (a CUstream) other
   * code created. NULL: the backend has no driver objects (the CPU backend). */
  kp_error (*native_context)(void **out, const char *what);
  kp_error (*stream_wrap)(kp_stream s, void *native, const char *what);
  /* kp_copy_to_constant (constant.c) has written [offset, offset + bytes) of the host copy of
   * the module's `constant` variable c, after synchronize: the backend updates the copies it
   * keeps (the CUDA backend: each device that loaded the module). NULL: the host variable is
   * the only copy (the CPU backend). */
  kp_error (*constant_changed)(const kp_module_desc *module, const kp_constant_desc *c,
                               size_t offset, size_t bytes, const char *what);
  /* The module is being unregistered (registry.c; its library is being dlclose()d, or the
   * process exits): drop what the backend keeps in its runtime_data slots and those of its
   * kernels (the loaded GPU code). Reports nothing. NULL: nothing is kept. */
  void (*unload_module)(kp_module_desc *module);
  /* fork() (fork.c): the backend's locks, taken before the fork and released (parent) or
   * made anew (child) after it like core's. NULL: none. */
  void (*fork_locks)(kp_fork_phase phase);
  /* In the child of fork(), after fork_locks: makes the backend ready to run there and
   * returns KP_SUCCESS, or returns the error every later use reports, with why in `why`
   * (a GPU driver's context cannot be used in a child). NULL: nothing to do. */
  kp_error (*after_fork_child)(char *why, size_t why_size);
  /* The runtime is about to abort() the process from the calling thread (an error in abort
   * mode, kp_fatal): a backend that turns aborts in kernel code into failed launches stands
   * aside. NULL: nothing to do. */
  void (*before_abort)(void);
} kp_backend;

/* ---- selection (backend.c) --------------------------------------------------------------- */

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
/* The backend's grid_stride_blocks, or one item per thread; be may be NULL. */
long long kp_backend_grid_stride_blocks(const kp_backend *be, const kp_kernel_desc *kernel,
                                        long long items, long long threads);
/* fork.c, in the child: the backend's after_fork_child; a backend that cannot go on there
 * becomes the error every later use reports. */
void kp_backend_after_fork_child(void);

/* The backends' constructors, called only by the selection. The CPU backend cannot fail to
 * start except for bad settings; the CUDA backend returns NULL with the reason in `why` when
 * it cannot start. */
const kp_backend *kp_cpu_backend_init(char *why, size_t why_size);
const kp_backend *kp_cuda_backend_init(char *why, size_t why_size);

#endif /* KP_BACKEND_H */
