/* cpu_backend.h — the pieces of the CPU backend shared by its files (never installed):
 * fiber.c (contexts and guarded stacks), cpu_block.c (a block's threads as fibers: barriers
 * and warp collectives), cpu_fault.c (faults in kernel code become errors), cpu_device.c
 * (the kp_dev_* primitives), pool.c (the workers), cpu_memory.c (guarded mappings),
 * cpu_watchdog.c (KP_CPU_TIMEOUT_MS), cpu_properties.c (device 0), cpu_stream.c (streams and
 * events), cpu_range.c (generated kernels' range entries) and backend_cpu.c (grids over the worker pool, the kp_backend hooks). Only this
 * folder includes it: the rest of the runtime sees the backend through backend/backend.h. */
#ifndef KP_CPU_BACKEND_H
#define KP_CPU_BACKEND_H

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "core/error.h"

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

/* Sanitizer builds (cmake/Sanitize.cmake): fiber switches are announced to ASan and TSan
 * (fiber.c), which otherwise take a switch for a huge stack frame or lose track of threads. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KP_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define KP_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(KP_ASAN)
#define KP_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(KP_TSAN)
#define KP_TSAN 1
#endif
#if defined(KP_ASAN) || defined(KP_TSAN)
#define KP_FIBER_SANITIZERS 1
/* For the functions on a fiber's stack when it leaves for good: TSan would keep their calls
 * on the fiber's shadow stack (it adds entry/exit hooks even where no_sanitize("thread")
 * says not to check accesses). */
#define KP_UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation))
#else
#define KP_UNINSTRUMENTED
#endif

/* ---- pool.c ------------------------------------------------------------------------------ */

/* A fixed set of worker threads that run a function for each participant. alone: 1 when the
 * caller (participant 0) runs the task and no worker can join it, so that it may take all the
 * work at once; 0 when workers may join. */
typedef void (*kp_pool_task)(void *ctx, int participant, int alone);
/* The default number of participants: the CPUs in the process's affinity mask (taskset, an
 * MPI rank bound to cores), else the online cores; at most 1024. */
int kp_pool_default_size(void);
/* Starts participants-1 worker threads with stacks of stack_bytes and reads KP_CPU_SPIN_US.
 * Returns the participants, or 0 with the reason in why. */
int kp_pool_start(int participants, size_t stack_bytes, char *why, size_t why_size);
int kp_pool_size(void);
/* Runs task(ctx, i, alone) for the caller (i = 0) and the workers that join (i = their number), and
 * returns when all that joined have finished. `units`: how many pieces the work splits into
 * at most (1: the caller alone, no worker is told), each of `unit_threads` GPU threads; with
 * fewer than KP_POOL_WAKE_THREADS GPU threads in all (pool.c) only spinning workers join. A
 * task must therefore do all the work on participant 0 alone when no one joins. Serialised:
 * one grid at a time. */
void kp_pool_run(kp_pool_task task, void *ctx, unsigned long long units,
                 unsigned long long unit_threads);
/* In the child of fork(): no workers are left; reset the locks, restart on the next run. */
void kp_pool_after_fork_child(void);

/* ---- cpu_schedule.c ---------------------------------------------------------------------- */

/* Reads KP_CPU_SCHEDULE ('ordered', the default, or 'random:<seed>'); -1 with the reason in
 * why when it is set to anything else. */
int kp_cpu_schedule_init(char *why, size_t why_size);
/* 1 when blocks run in a random order (and its seed in *seed), else 0. */
int kp_cpu_schedule_random(unsigned long long *seed);
/* A launch's key for kp_cpu_schedule_block: a different order for each launch. */
uint64_t kp_cpu_schedule_launch_key(void);
/* The block to run as the b-th of n: a bijection on [0, n) chosen by key. */
unsigned long long kp_cpu_schedule_block(uint64_t key, unsigned long long b,
                                         unsigned long long n);
/* The order in which block `block` (linear index) of the launch `key` runs its n fibers in
 * barrier round `round`: a permutation of [0, n) in order[0..n). */
void kp_cpu_schedule_threads(uint64_t key, unsigned long long block, unsigned round,
                             unsigned *order, unsigned n);

/* ---- cpu_properties.c -------------------------------------------------------------------- */

/* What kp_device_properties_get says about the CPU backend's one device: the machine's CPU
 * and memory, the workers and the launch limits `lim`. */
void kp_cpu_describe_device(const kp_limits *lim, kp_device_properties *p);

/* ---- cpu_gpu_memory.c -------------------------------------------------------------------- */

/* Whether p is memory of a GPU, which CUDA code the process loaded allocated (the backend's
 * is_unreachable_gpu_memory hook). */
int kp_cpu_is_gpu_memory(const void *p);
/* In a child of fork(): from now on the answer is no, asked of nothing (cpu_gpu_memory.c). */
void kp_cpu_gpu_memory_after_fork_child(void);

/* ---- cpu_memory.c ------------------------------------------------------------------------ */

/* `bytes` of memory in a mapping of its own between guard pages, 256-byte aligned and
 * ending as close to the trailing guard as that allows (under ASan or valgrind: the checker's
 * malloc of exactly `bytes`, cpu_memory.c). kp_cpu_map reports failure (an
 * out-of-memory error naming `what`); kp_cpu_map_quiet returns 0 or an errno value. */
kp_error kp_cpu_map(size_t bytes, void **out, const char *what);
int kp_cpu_map_quiet(size_t bytes, void **out);
/* Unmaps what kp_cpu_map(bytes) returned (NULL: nothing), or keeps it for reuse. */
void kp_cpu_unmap(void *p, size_t bytes);
/* Appends to a fault message what `addr` is near: ", 4 bytes past the end of the device
 * array of 256 bytes at 0x… (from device_array); check the indices …". */
void kp_cpu_describe_address(char *out, size_t size, const void *addr);
/* The fork_locks hook: the lock of the cache of mappings. */
void kp_cpu_memory_fork(kp_fork_phase phase);

/* ---- cpu_device.c ------------------------------------------------------------------------ */

typedef struct kp_cpu_block_runner kp_cpu_block_runner;

/* What the kp_dev_* primitives read on a worker: the indices of the GPU thread running now
 * (the fiber scheduler rewrites tid/linear_tid at every switch). */
typedef struct kp_cpu_thread_state {
  unsigned tid[3], ctaid[3], ntid[3], nctaid[3];
  unsigned linear_tid; /* tid.x + ntid.x * (tid.y + ntid.y * tid.z), for laneid */
  void *dynamic_shared;
  const kp_kernel_desc *kernel;  /* for messages from primitives */
  kp_cpu_block_runner *runner;   /* set while the block runs as fibers, else NULL */
  /* Here rather than in thread-locals of their own, so that a launch reaches them through the
   * one TLS access it makes for the indices (the runtime's TLS is not initial-exec: each
   * variable costs a __tls_get_addr call per function that reads it). */
  struct kp_cpu_fault_guard *fault_armed; /* kp_cpu_fault_armed (cpu_fault.c) */
  int fault_ready; /* kp_cpu_fault_prepare_thread has run on this thread */
} kp_cpu_thread_state;
extern _Thread_local kp_cpu_thread_state kp_cpu_state;

/* ---- fiber.c ----------------------------------------------------------------------------- */

/* `count` stacks of `stack_bytes` in one mapping, each with an inaccessible guard below it. */
typedef struct kp_fiber_stacks {
  void *base;
  size_t total, guard_bytes, stack_bytes;
  unsigned count;
} kp_fiber_stacks;

typedef struct kp_fiber_ctx {
#if defined(__x86_64__)
  void *sp; /* the saved stack pointer; registers live on the fiber's stack */
#else
  ucontext_t uc;
#endif
  void (*fn)(void *);
  void *arg;
#ifdef KP_FIBER_SANITIZERS
  /* The stack the context runs on (for a thread's own context: learnt when it is first left),
   * ASan's fake stack while it is switched out, and its TSan fiber (NULL for a thread's own
   * context). Kept across kp_fiber_make, so that a fiber slot reused for block after block
   * reuses them; zero-initialise a new context. */
  const void *stack_lo;
  size_t stack_size;
  void *fake_stack;
  void *tsan_fiber;
#endif
} kp_fiber_ctx;

/* Prepares ctx so that the first kp_fiber_switch to it runs fn(arg) on [stack, stack+size).
 * fn must never return: it ends by switching away for good, after which ctx may be made
 * again. */
void kp_fiber_make(kp_fiber_ctx *ctx, void *stack, size_t size, void (*fn)(void *), void *arg);
/* Saves the running context in `from` and resumes `to`. */
void kp_fiber_switch(kp_fiber_ctx *from, kp_fiber_ctx *to);
/* ctx is the calling thread's own context, about to switch to fibers (a runner's scheduler,
 * which any launching thread may use in turn). Sanitizer builds; nothing otherwise. */
void kp_fiber_native(kp_fiber_ctx *ctx);
/* Sanitizer builds: ctx was abandoned (a fault, or a barrier that could never complete) and
 * will be made again: it gets a fresh TSan fiber (the abandoned frames are on its shadow
 * stack). Nothing otherwise. */
void kp_fiber_forget(kp_fiber_ctx *ctx);
/* From the fault handler, before it jumps out of a fiber to the thread's own context
 * (cpu_fault.c): the sanitizers are told that the thread is back on its own stack (ASan) and
 * fiber (TSan, whose state for that fiber holds the jump buffer). Nothing otherwise. */
void kp_fiber_fault_escape(void);

/* Makes s hold at least `count` stacks of exactly `stack_bytes` (rounded to pages); keeps
 * the current mapping when it fits. Returns 0, or -1 when the memory cannot be mapped. */
int kp_fiber_stacks_reserve(kp_fiber_stacks *s, unsigned count, size_t stack_bytes);
void kp_fiber_stacks_release(kp_fiber_stacks *s);
void *kp_fiber_stack(const kp_fiber_stacks *s, unsigned i);
/* Sanitizer builds: fibers on s were abandoned; ASan's poisoned frames on their stacks are
 * cleared before the stacks are used again. Nothing otherwise. */
void kp_fiber_stacks_clean(const kp_fiber_stacks *s);
/* Whether addr lies in one of the guards (a stack overflow). */
int kp_fiber_stacks_guard_hit(const kp_fiber_stacks *s, const void *addr);
/* Whether addr lies anywhere in the mapping (s may be NULL). */
int kp_fiber_stacks_contain(const kp_fiber_stacks *s, const void *addr);

/* ---- cpu_fault.c ------------------------------------------------------------------------- */

/* Armed by a worker while it runs kernel code: a fault jumps to `env` with what happened.
 * sigsetjmp(env, 0): saving the signal mask would cost a system call per arming; after the
 * jump, kp_cpu_fault_recovered restores the mask the fault interrupted instead. */
typedef struct kp_cpu_fault_guard {
  sigjmp_buf env;
  int signo;
  void *addr;
  int stack_overflow;             /* a fiber ran off its stack into the guard below it */
  int thread_stack_overflow;      /* the thread ran off its own stack (worker or caller) */
  const kp_fiber_stacks *stacks;  /* the fiber stacks in use, or NULL */
  sigset_t mask;                  /* the signal mask when the fault happened */
  /* The watchdog's number for the launch (cpu_watchdog.c), read when it interrupts; NULL
   * when the watchdog is off. */
  const _Atomic unsigned long long *launch;
} kp_cpu_fault_guard;
/* The guard armed on this thread, NULL when none: a field of kp_cpu_state. */
#define kp_cpu_fault_armed (kp_cpu_state.fault_armed)
/* From a signal handler: the calling thread's armed guard, or NULL; touches no TLS on a
 * thread that never prepared for kernel code (kp_cpu_fault_prepare_thread). */
kp_cpu_fault_guard *kp_cpu_fault_armed_here(void);
/* The before_abort hook: drops the calling thread's kernel fault guard, so that the runtime's
 * own abort() on a worker aborts instead of failing the launch like an abort() in kernel
 * code. */
void kp_cpu_fault_guard_drop(void);
/* Installs the process's fault handlers (once) and this thread's alternate signal stack. */
void kp_cpu_fault_prepare_thread(void);
/* From a signal handler (uc: its context): records sig and addr in g and jumps to g->env. */
KP_NORETURN void kp_cpu_fault_jump(kp_cpu_fault_guard *g, int sig, void *addr, void *uc);
/* Call first thing after a jump to g->env: restores the signal mask of the faulting code. */
void kp_cpu_fault_recovered(const kp_cpu_fault_guard *g);
/* kp_cpu_fault_guard_begin's part when the watchdog is on (cpu_fault.c). */
void kp_cpu_fault_guard_watch(kp_cpu_fault_guard *guard, int participant,
                              _Atomic unsigned long long *watch, const char *kernel);
/* "invalid memory access (SIGSEGV)", … */
const char *kp_cpu_fault_describe(const kp_cpu_fault_guard *g);
/* What a GPU reports for the same fault: "CUDA_ERROR_ILLEGAL_ADDRESS", … */
const char *kp_cpu_fault_gpu_equivalent(const kp_cpu_fault_guard *g);
/* The calling thread's stack: its size, and its lowest address in *low (0 and NULL when
 * unknown). Found once per thread. */
size_t kp_cpu_thread_stack(const char **low);

/* ---- cpu_watchdog.c ---------------------------------------------------------------------- */

/* KP_CPU_TIMEOUT_MS, 0 when off (the default): the launch path tests only this. */
extern long long kp_cpu_timeout_ms;
/* The signal that interrupts a kernel past its time (handled only while the watchdog is on). */
#define KP_CPU_TIMEOUT_SIGNAL SIGURG
/* Reads KP_CPU_TIMEOUT_MS; 0, or -1 with the reason in why. */
int kp_cpu_watchdog_init(int participants, char *why, size_t why_size);
/* Each participant of a watched launch, before running kernel code. */
void kp_cpu_watchdog_enter(int participant);
/* Participant 0, holding the pool: a launch of `kernel` starts now. Returns its number (0:
 * not watched); kp_cpu_watchdog_end(number) once every participant is done. */
unsigned long long kp_cpu_watchdog_begin(const char *kernel);
void kp_cpu_watchdog_end(unsigned long long launch);
/* After kp_cpu_watchdog_end: the `count` participants from `first` on (a cooperative launch's
 * block threads, which end) are signalled no more. */
void kp_cpu_watchdog_forget(int first, int count);
/* In the child of fork(): the watchdog thread is gone; start it again when needed. */
void kp_cpu_watchdog_after_fork_child(void);

/* What each participant of a launch (a grid's blocks, a ufunc's ranges) does before running
 * kernel code: prepares this thread's fault handling (once per thread), clears *guard, and
 * when the watchdog is on enters it, participant 0 starting the launch of `kernel` in *watch,
 * which the guard then reads. The caller still does sigsetjmp(guard->env) and arms the guard.
 * Inline: on the launch path it costs a test of kp_cpu_state, which the caller reads anyway. */
static inline void kp_cpu_fault_guard_begin(kp_cpu_fault_guard *guard, int participant,
                                            _Atomic unsigned long long *watch,
                                            const char *kernel) {
  if (__builtin_expect(!kp_cpu_state.fault_ready, 0)) kp_cpu_fault_prepare_thread();
  guard->stacks = NULL;
  guard->launch = NULL;
  if (kp_cpu_timeout_ms) kp_cpu_fault_guard_watch(guard, participant, watch, kernel);
}

/* ---- cpu_block.c ------------------------------------------------------------------------- */

/* A runner per worker, reused for every block it runs. NULL when out of memory. */
kp_cpu_block_runner *kp_cpu_block_runner_new(void);
/* Frees r (NULL: nothing) and its fiber stacks; no block may be running on it. */
void kp_cpu_block_runner_free(kp_cpu_block_runner *r);
/* Runs the threads of the block kp_cpu_state.ctaid as fibers, each on a stack of
 * `stack_bytes`; registers the stacks in `guard` so that an overflow is recognised.
 * Returns 0, or -1 with a message naming the kernel, block and threads in `msg`. */
int kp_cpu_block_run(kp_cpu_block_runner *r, const kp_kernel_desc *k, void **args,
                     const unsigned block[3], size_t stack_bytes, kp_cpu_fault_guard *guard,
                     char *msg, size_t msg_size);
/* KP_CPU_SCHEDULE=random: the blocks r runs from now on run their threads in an order of
 * kp_cpu_schedule_threads(key, …) (shuffled != 0), or in index order (0, the default). */
void kp_cpu_block_runner_shuffle(kp_cpu_block_runner *r, int shuffled, uint64_t key);

/* A cooperative launch's grid barrier (cpu_coop.c): runners of its blocks wait there once
 * all of their block's threads have reached grid_sync(). */
typedef struct kp_cpu_grid_barrier kp_cpu_grid_barrier;
void kp_cpu_block_runner_grid(kp_cpu_block_runner *r, kp_cpu_grid_barrier *grid);
/* grid_sync() on the running fiber: parks it until the grid's every thread has arrived. */
void kp_cpu_block_grid_sync(kp_cpu_block_runner *r);
/* The block `block` of kernel `kernel` arrives (all its threads are at grid_sync()); returns 0
 * when every block has, or -1 with a message when the barrier can never complete (a block
 * exited without reaching it, or failed). */
int kp_cpu_grid_barrier_wait(kp_cpu_grid_barrier *g, const char *kernel, const unsigned block[3],
                             char *msg, size_t msg_size);

/* ---- cpu_coop.c -------------------------------------------------------------------------- */

/* The most blocks a cooperative launch runs (a thread each), whatever memory allows; the
 * watchdog keeps a slot for each beside the pool's participants. */
#define KP_CPU_COOP_MAX_BLOCKS 1024

/* A cooperative launch (KP_KERNEL_COOPERATIVE): every block on a thread of its own, all
 * alive at once, each block's threads as fibers (their stacks of stack_bytes). */
struct kp_cpu_check_launch;
kp_error kp_cpu_launch_cooperative(kp_kernel_desc *k, const kp_launch_config *cfg, void **args,
                                   const struct kp_cpu_check_launch *check, size_t stack_bytes);
/* The most blocks of `threads` threads such a launch may have (the backend's
 * cooperative_blocks hook). */
long long kp_cpu_cooperative_limit(long long threads, size_t dynamic_shared, size_t stack_bytes);
/* What went wrong in kernel code, for "kernel 'k', block (…), thread (…): " (backend_cpu.c). */
void kp_cpu_explain_fault(char *msg, size_t size, const kp_cpu_fault_guard *f, int participant);

/* Block barriers; the result is what syncthreads_count/and/or return. */
typedef enum kp_cpu_barrier_op {
  KP_CPU_SYNC,
  KP_CPU_SYNC_COUNT,
  KP_CPU_SYNC_AND,
  KP_CPU_SYNC_OR
} kp_cpu_barrier_op;
int kp_cpu_block_barrier(kp_cpu_block_runner *r, kp_cpu_barrier_op op, int predicate);

/* Warp collectives: every lane named in `mask` meets the others, then each gets its result. */
typedef enum kp_cpu_warp_op {
  KP_CPU_SHFL_IDX,
  KP_CPU_SHFL_UP,
  KP_CPU_SHFL_DOWN,
  KP_CPU_SHFL_XOR,
  KP_CPU_BALLOT,
  KP_CPU_ALL,
  KP_CPU_ANY,
  KP_CPU_SYNCWARP,
  KP_CPU_ACTIVEMASK /* meets the warp's other live lanes; no mask */
} kp_cpu_warp_op;
int kp_cpu_block_warp(kp_cpu_block_runner *r, kp_cpu_warp_op op, unsigned mask, int value,
                      int arg);

/* ---- cpu_range.c ------------------------------------------------------------------------- */

/* The launch_range hook: a generated kernel's range entry in contiguous chunks over the pool. */
kp_error kp_cpu_launch_range(kp_kernel_desc *kernel, long long n, long long serial_below,
                             void **args);

/* The fill hook (cpu_memory.c): `count` elements of elem_size (1, 2 or 4) bytes of pattern. */
kp_error kp_cpu_fill(void *dst, uint32_t pattern, size_t elem_size, size_t count,
                     const char *what);

/* ---- cpu_stream.c ------------------------------------------------------------------------ */

/* The stream and event hooks: everything runs at once, in call order. */
#define KP_CPU_STREAM_HOOK_DECL(Ret, Name, Params) Ret kp_cpu_##Name Params;
KP_BACKEND_STREAM_HOOKS(KP_CPU_STREAM_HOOK_DECL)
#undef KP_CPU_STREAM_HOOK_DECL

#endif /* KP_CPU_BACKEND_H */
