/* pool.c — the CPU backend's worker threads.
 *
 * One participant per CPU the process may run on (its affinity mask: taskset, numactl, an
 * MPI launcher's binding; KP_NUM_THREADS overrides): the launching host thread is participant
 * 0 and participants-1 background threads help, so KP_NUM_THREADS=1 runs everything on the
 * caller. Grids run one at a time (g_run_lock): launches from several host threads are safe
 * and complete in some order, as on one CUDA stream per thread would.
 *
 * What a launch costs (measured by bench/cpu/launch_overhead.c):
 * - A grid that cannot be shared (one unit of work) runs on the caller; nobody is told.
 * - Otherwise the caller publishes the task in one atomic word (g_state) and starts on it at
 *   once. Workers spin on that word for KP_CPU_SPIN_US microseconds (default
 *   KP_POOL_DEFAULT_SPIN_US) after each task before they sleep, so back-to-back launches
 *   reach them without a system call; sleeping workers are woken (a futex call on the
 *   caller) only when the grid has at least KP_POOL_WAKE_THREADS GPU threads — less work
 *   than that takes less time on the caller than a wake-up does; a launch that wakes nobody
 *   while every worker sleeps is not even published — or when the previous
 *   launch that woke nobody took longer than KP_POOL_WAKE_AFTER_NS (a slow kernel on a
 *   small grid). A spinner that finds itself descheduled stops spinning for a while.
 * - A worker joins a task with a compare-and-swap on g_state while it is open, at most
 *   units-1 of them. When the caller has finished its part it closes the task and waits only
 *   for the workers that joined: a worker that wakes late finds the task closed and touches
 *   nothing of it (the task's context lives on the caller's stack).
 * After fork() the child has only the thread that forked: kp_pool_after_fork_child makes the
 * pool's locks anew and the child's first launch starts the workers again. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include "backend/cpu/cpu_backend.h"
#include "core/env.h"

enum {
  KP_POOL_MAX_PARTICIPANTS = 1024,
  /* Tens of microseconds: longer than the gap between back-to-back launches with a little
   * host work between them, short enough that an idle program does not burn a core. */
  KP_POOL_DEFAULT_SPIN_US = 50,
  KP_POOL_MAX_SPIN_US = 1000000,
  /* Below this many GPU threads in the whole grid a sleeping worker is not woken (spinning
   * ones still join): a block entry's vectorised loop runs a GPU thread of a small kernel in
   * ~0.15 ns (a vector add of 10^4 floats, 1.3 us on the caller alone, 2026-11-25, 2-core EPYC
   * VM), a wake-up costs 2-10 us on the caller and more before the worker runs. A slow kernel
   * on a smaller grid wakes them from its second launch on (KP_POOL_WAKE_AFTER_NS). */
  KP_POOL_WAKE_THREADS = 32768,
  /* A launch that takes longer than this on the threads awake would have gained from a
   * wake-up (a few us for the caller, tens before the worker runs). */
  KP_POOL_WAKE_AFTER_NS = 50 * 1000
};

/* g_state: the task on offer. Bits 0-15: workers that joined it; 16-31: how many may join;
 * bit 32: open (joining allowed); 33-63: the task's number, which workers wait to change. */
#define STATE_JOINED(s) ((unsigned)((s)&0xffffu))
#define STATE_LIMIT(s) ((unsigned)(((s) >> 16) & 0xffffu))
#define STATE_OPEN (1ull << 32)
#define STATE_GEN(s) ((s) >> 33)
#define STATE_MAKE(gen, limit) (((unsigned long long)(gen) << 33) | STATE_OPEN | \
                                ((unsigned long long)(limit) << 16))

/* g_run_lock (run_lock/run_unlock): one grid at a time. */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;       /* only to sleep and wake */
static pthread_cond_t g_work_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t g_done_cv = PTHREAD_COND_INITIALIZER;

static int g_participants = 1;
static long long g_spin_ns = KP_POOL_DEFAULT_SPIN_US * 1000LL;
static _Atomic unsigned long long g_state;
static unsigned long long g_gen;    /* the last task's number (the caller's, under g_run_lock) */
static atomic_uint g_finished;      /* workers that finished the current task */
static atomic_int g_sleepers;       /* workers asleep on g_work_cv (or about to be) */
static atomic_int g_caller_waiting; /* the caller sleeps on g_done_cv (or is about to) */
/* Written by the caller before it opens the task, read by workers that joined it. */
static kp_pool_task g_task;
static void *g_ctx;
/* How long the last launch that did not wake sleeping workers took, in ns (under
 * g_run_lock): a grid too small to wake them by its size is still worth it when its kernel
 * is slow, and launches of one kernel tend to come in series. */
static long long g_unwoken_ns;

/* A program built with -fsanitize=thread does not see this library's atomics (the library
 * is not instrumented; its mutexes TSan sees through its interceptors): the two hand-offs
 * are announced to it — the task, from the caller to each worker that joins, and each
 * worker's results back to the caller. The weak references are NULL without TSan. */
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));
static inline void tsan_acquire(void *addr) {
  if (__tsan_acquire) __tsan_acquire(addr);
}
static inline void tsan_release(void *addr) {
  if (__tsan_release) __tsan_release(addr);
}

typedef struct worker_arg {
  int index;
} worker_arg;
static size_t g_stack_bytes;
static int g_restart; /* participants to start again (in a child of fork()), else 0 */

/* One grid at a time. On Linux a futex word, 0 free, 1 held, 2 held with waiters (Drepper,
 * "Futexes Are Tricky", mutex3): taking and giving it back uncontended is one atomic
 * instruction each, where pthread_mutex_lock/unlock cost ~50 instructions per launch, a
 * quarter of an empty launch's pool work. TSan sees it through the announcements. */
#if defined(__linux__)
static atomic_int g_run_word;

static void run_lock(void) {
  int c = 0;
  if (!atomic_compare_exchange_strong_explicit(&g_run_word, &c, 1, memory_order_acquire,
                                               memory_order_relaxed)) {
    if (c != 2) c = atomic_exchange_explicit(&g_run_word, 2, memory_order_acquire);
    while (c != 0) {
      syscall(SYS_futex, &g_run_word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
      c = atomic_exchange_explicit(&g_run_word, 2, memory_order_acquire);
    }
  }
  tsan_acquire(&g_run_word);
}

static void run_unlock(void) {
  tsan_release(&g_run_word);
  if (atomic_fetch_sub_explicit(&g_run_word, 1, memory_order_release) != 1) {
    atomic_store_explicit(&g_run_word, 0, memory_order_release);
    syscall(SYS_futex, &g_run_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
  }
}

static void run_lock_reset(void) { atomic_store(&g_run_word, 0); }
#else
static pthread_mutex_t g_run_mutex = PTHREAD_MUTEX_INITIALIZER;
static void run_lock(void) { pthread_mutex_lock(&g_run_mutex); }
static void run_unlock(void) { pthread_mutex_unlock(&g_run_mutex); }
static void run_lock_reset(void) { g_run_mutex = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER; }
#endif

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spins until done(arg) or KP_CPU_SPIN_US have passed; returns done(arg). The clock is read
 * every 64 pauses (a pause is 10-150 cycles depending on the CPU). The spinner does not
 * yield: sched_yield hands the core to any runnable thread of any process for a time slice,
 * in which the spinner misses the launches it spins for (on a shared 2-core VM, yielding
 * after 2 us cut the launches a worker joined from ~75% to 0-48%). A spinner that finds it
 * was descheduled (a gap of KP_POOL_PREEMPTED_NS between two clock reads) is on a machine
 * with more runnable threads than cores: there a spinning worker is the first to lose its
 * core, possibly in the middle of a launch's blocks that the launching thread then waits for,
 * so nobody spins for the next KP_POOL_NO_SPIN_NS: threads that sleep and are woken get
 * their core back at once. */
enum {
  KP_POOL_PREEMPTED_NS = 200 * 1000,
  KP_POOL_NO_SPIN_NS = 20 * 1000 * 1000
};
static _Atomic long long g_no_spin_until; /* now_ns() before which nobody spins */

static int spin_until(int (*done)(const void *), const void *arg) {
  if (g_spin_ns <= 0) return done(arg);
  long long start = now_ns(), last = start, deadline = start + g_spin_ns;
  if (start < atomic_load_explicit(&g_no_spin_until, memory_order_relaxed)) return done(arg);
  for (;;) {
    for (int i = 0; i < 64; i++) {
      if (done(arg)) return 1;
      cpu_relax();
    }
    long long t = now_ns();
    if (t - last >= KP_POOL_PREEMPTED_NS) {
      atomic_store_explicit(&g_no_spin_until, t + KP_POOL_NO_SPIN_NS, memory_order_relaxed);
      return done(arg);
    }
    if (t >= deadline) return done(arg);
    last = t;
  }
}

/* Sequentially consistent loads here and in all_finished: each is one side of a check that a
 * sleeper and its waker must not both miss (a plain load on x86). */
static int task_changed(const void *seen) {
  return STATE_GEN(atomic_load(&g_state)) !=
         *(const unsigned long long *)seen;
}

/* A worker: returns the number of the next task after `seen`, spinning first, then asleep. */
static unsigned long long wait_for_task(unsigned long long seen) {
  if (!spin_until(task_changed, &seen)) {
    pthread_mutex_lock(&g_mu);
    /* Seen by the caller's load after its store of g_state (both sequentially consistent):
     * either it sees a sleeper and wakes it, or this thread sees the new task. */
    atomic_fetch_add(&g_sleepers, 1);
    while (!task_changed(&seen)) pthread_cond_wait(&g_work_cv, &g_mu);
    atomic_fetch_sub(&g_sleepers, 1);
    pthread_mutex_unlock(&g_mu);
  }
  return STATE_GEN(atomic_load_explicit(&g_state, memory_order_acquire));
}

/* Joins task `gen` if it is still open and has room. */
static int try_join(unsigned long long gen) {
  unsigned long long s = atomic_load_explicit(&g_state, memory_order_acquire);
  while (STATE_GEN(s) == gen && (s & STATE_OPEN) && STATE_JOINED(s) < STATE_LIMIT(s)) {
    if (atomic_compare_exchange_weak_explicit(&g_state, &s, s + 1, memory_order_acquire,
                                              memory_order_acquire))
      return 1;
  }
  return 0;
}

static void *worker_main(void *p) {
  int index = ((worker_arg *)p)->index;
  unsigned long long seen = 0; /* workers start before the first task (see kp_pool_start) */
  for (;;) {
    seen = wait_for_task(seen);
    if (!try_join(seen)) continue; /* closed or full: the others did it */
    tsan_acquire(&g_state);
    g_task(g_ctx, index, 0);
    tsan_release(&g_finished);
    /* Sequentially consistent, against the caller's g_caller_waiting (see wait_for_workers). */
    atomic_fetch_add(&g_finished, 1);
    if (atomic_load(&g_caller_waiting)) {
      pthread_mutex_lock(&g_mu);
      pthread_mutex_unlock(&g_mu);
      pthread_cond_signal(&g_done_cv);
    }
  }
  return NULL;
}

typedef struct finished_count {
  unsigned joined;
} finished_count;

static int all_finished(const void *arg) {
  return atomic_load(&g_finished) ==
         ((const finished_count *)arg)->joined;
}

/* The caller, after closing the task: waits for the `joined` workers that took part. */
static void wait_for_workers(unsigned joined) {
  finished_count want = {joined};
  if (joined == 0 || spin_until(all_finished, &want)) return;
  pthread_mutex_lock(&g_mu);
  atomic_store(&g_caller_waiting, 1);
  while (!all_finished(&want)) pthread_cond_wait(&g_done_cv, &g_mu);
  atomic_store(&g_caller_waiting, 0);
  pthread_mutex_unlock(&g_mu);
}

/* The CPUs this process may run on: the affinity mask of the calling thread (what taskset,
 * numactl or an MPI launcher's core binding set), else the online cores. */
int kp_pool_default_size(void) {
  int count = 0;
#if defined(__linux__) && defined(CPU_COUNT_S)
  for (int cpus = 1024; cpus <= (1 << 20) && count == 0; cpus *= 2) {
    cpu_set_t *set = CPU_ALLOC(cpus);
    if (!set) break;
    size_t bytes = CPU_ALLOC_SIZE(cpus);
    if (sched_getaffinity(0, bytes, set) == 0) {
      count = CPU_COUNT_S(bytes, set);
      CPU_FREE(set);
      break;
    }
    CPU_FREE(set);
    if (errno != EINVAL) break; /* EINVAL: the kernel's mask is larger than ours */
  }
#endif
  if (count < 1) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    count = cores > 0 ? (int)(cores < KP_POOL_MAX_PARTICIPANTS ? cores : KP_POOL_MAX_PARTICIPANTS)
                      : 1;
  }
  return count < KP_POOL_MAX_PARTICIPANTS ? count : KP_POOL_MAX_PARTICIPANTS;
}

static int start_workers(int participants, size_t stack_bytes, char *why, size_t why_size) {
  static worker_arg args[KP_POOL_MAX_PARTICIPANTS];
  if (participants < 1) participants = 1;
  if (participants > KP_POOL_MAX_PARTICIPANTS) participants = KP_POOL_MAX_PARTICIPANTS;
  g_stack_bytes = stack_bytes;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  /* A guard as large as a fiber's (fiber.c), so that a big frame faults on it, and
   * cpu_fault.c reports a stack overflow, rather than landing in another mapping. */
  pthread_attr_setguardsize(&attr, 64 * 1024);
  int started = 1;
  for (int i = 1; i < participants; i++) {
    args[i].index = i;
    pthread_t t;
    int rc = pthread_create(&t, &attr, worker_main, &args[i]);
    if (rc) {
      /* Fewer workers still compute the right result; only say so if none started. */
      if (started == 1) snprintf(why, why_size, "pthread_create: %s", strerror(rc));
      break;
    }
    pthread_detach(t);
    started++;
  }
  pthread_attr_destroy(&attr);
  g_participants = started;
  return started;
}

int kp_pool_start(int participants, size_t stack_bytes, char *why, size_t why_size) {
  long long us = kp_env_nonnegative("KP_CPU_SPIN_US", KP_POOL_DEFAULT_SPIN_US,
                                     KP_POOL_MAX_SPIN_US, why, why_size);
  if (us < 0) return 0;
  g_spin_ns = us * 1000;
  return start_workers(participants, stack_bytes, why, why_size);
}

int kp_pool_size(void) { return g_participants; }

void kp_pool_after_fork_child(void) {
  /* Another thread may have held them at the fork; it does not exist here. */
  run_lock_reset();
  g_mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
  g_work_cv = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
  g_done_cv = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
  if (g_participants > 1) g_restart = g_participants;
  g_participants = 1; /* the caller alone until the workers are back */
  atomic_store(&g_state, 0);
  atomic_store(&g_finished, 0);
  atomic_store(&g_sleepers, 0);
  atomic_store(&g_caller_waiting, 0);
  g_gen = 0;
  g_unwoken_ns = 0;
  atomic_store(&g_no_spin_until, 0);
}

/* In a child of fork(): starts the workers again (the forking thread is participant 0). A
 * child that only execs never pays for them. */
static void restart_workers(void) {
  char why[256] = "";
  int want = g_restart;
  g_restart = 0;
  start_workers(want, g_stack_bytes, why, sizeof why); /* fewer workers still compute right */
}

/* Whether a grid of units x unit_threads GPU threads is worth waking sleeping workers for:
 * at least KP_POOL_WAKE_THREADS of them, or the last launch that woke none took longer than
 * KP_POOL_WAKE_AFTER_NS. */
static int worth_a_wake_up(unsigned long long units, unsigned long long unit_threads) {
  return unit_threads >= KP_POOL_WAKE_THREADS || units >= KP_POOL_WAKE_THREADS ||
         units * unit_threads >= KP_POOL_WAKE_THREADS || g_unwoken_ns >= KP_POOL_WAKE_AFTER_NS;
}

void kp_pool_run(kp_pool_task task, void *ctx, unsigned long long units,
                 unsigned long long unit_threads) {
  run_lock();
  if (__builtin_expect(g_restart != 0, 0)) restart_workers();
  unsigned long long helpers = (unsigned long long)g_participants - 1;
  if (units < 1) units = 1;
  if (units - 1 < helpers) helpers = units - 1;
  if (helpers == 0) { /* nothing to share: no worker hears of it */
    task(ctx, 0, 1);
    run_unlock();
    return;
  }
  int wake = worth_a_wake_up(units, unit_threads);
  if (!wake && atomic_load(&g_sleepers) == g_participants - 1) {
    /* Every worker sleeps and none is to be woken: nobody would see the task, so it is not
     * published (a sleeper a broadcast woke earlier finds no new task and sleeps again). */
    long long start = now_ns();
    task(ctx, 0, 1);
    g_unwoken_ns = now_ns() - start;
    run_unlock();
    return;
  }
  g_task = task;
  g_ctx = ctx;
  atomic_store_explicit(&g_finished, 0, memory_order_relaxed);
  g_gen = (g_gen + 1) & ((1ull << 31) - 1);
  if (g_gen == 0) g_gen = 1; /* workers start having seen 0 */
  tsan_release(&g_state);
  /* Sequentially consistent, with the load of g_sleepers after it (see wait_for_task). */
  atomic_store(&g_state, STATE_MAKE(g_gen, helpers));
  long long start = wake ? 0 : now_ns();
  if (wake && atomic_load(&g_sleepers) > 0) {
    /* A sleeper checks g_state and waits holding g_mu: once we have held it, each one is
     * waiting or will see the task. Broadcast after unlocking, so that the woken do not
     * block on g_mu. */
    pthread_mutex_lock(&g_mu);
    pthread_mutex_unlock(&g_mu);
    pthread_cond_broadcast(&g_work_cv);
  }
  task(ctx, 0, 0);
  unsigned long long closed =
      atomic_fetch_and_explicit(&g_state, ~STATE_OPEN, memory_order_acq_rel);
  if (STATE_JOINED(closed)) {
    wait_for_workers(STATE_JOINED(closed));
    tsan_acquire(&g_finished);
  }
  g_unwoken_ns = wake ? 0 : now_ns() - start;
  run_unlock();
}
