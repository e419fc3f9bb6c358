/* cpu_range.c — generated kernels (ufunc, gufunc) through their CPU range entries.
 *
 * A generated kernel's grid-stride loop gives each GPU thread items strided over the whole
 * array; on the CPU that ran 2-2.5x slower than an OpenMP loop. Its range entry
 * (kp_abi.h: kp_cpu_range_fn) is the loop over a contiguous range of indices instead, with
 * the element function inlined and vectorised. [0, n) is cut into contiguous chunks, a few
 * per participant of the pool, taken from an atomic counter (dynamic, as the grid path steals:
 * a worker that another process slows down does not hold up the rest); chunks are whole
 * cache lines of the widest element. Small calls run on the calling thread alone, without
 * waking the pool. A fault in the element function fails the call with the index that
 * faulted (the chunk is replayed one index at a time to find it), as the grid path names the
 * thread. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "backend/cpu/cpu_backend.h"
#include "core/launch.h"

enum {
  KP_CPU_RANGE_CHUNKS = 4, /* chunks per participant */
  KP_CPU_RANGE_ALIGN = 64  /* indices per chunk are a multiple of this (cache lines, vectors) */
};

typedef struct cpu_range_job {
  const kp_kernel_desc *kernel;
  kp_cpu_range_fn entry;
  void **args;
  long long n, chunk;
  const char *unit; /* "element" (ufunc), "block" (gufunc) */
  atomic_llong next;
  atomic_int failed;
  _Atomic unsigned long long watch; /* the watchdog's number (0: not watched) */
  char message[1024];
} cpu_range_job;

static void range_failure(cpu_range_job *j, const char *msg) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&j->failed, &expected, 1))
    snprintf(j->message, sizeof j->message, "%s", msg);
}

/* Runs the range [begin, end) one index at a time to find the first that faults; returns it,
 * with `fault` updated, or -1 when the replay ran through. The call has failed already and
 * its results are undefined, as on a GPU. */
static long long replay_to_find_index(const cpu_range_job *j, long long begin, long long end,
                                      kp_cpu_fault_guard *fault) {
  kp_cpu_fault_guard replay;
  replay.stacks = NULL;
  replay.launch = fault->launch;
  volatile long long i = begin;
  if (sigsetjmp(replay.env, 0)) {
    kp_cpu_fault_recovered(&replay);
    fault->signo = replay.signo;
    fault->addr = replay.addr;
    fault->stack_overflow = replay.stack_overflow;
    fault->thread_stack_overflow = replay.thread_stack_overflow;
    return i;
  }
  kp_cpu_fault_armed = &replay;
  for (; i < end; i = i + 1) j->entry(j->args, i, i + 1);
  kp_cpu_fault_armed = NULL;
  return -1;
}

static void record_range_fault(cpu_range_job *j, const kp_cpu_fault_guard *f, long long index,
                               long long begin, long long end, int participant) {
  char msg[1024];
  int n = index >= 0
              ? snprintf(msg, sizeof msg, "kernel '%s', %s %lld: ", j->kernel->name, j->unit,
                         index)
              : snprintf(msg, sizeof msg, "kernel '%s', one of %ss %lld to %lld: ",
                         j->kernel->name, j->unit, begin, end - 1);
  if (n < 0 || (size_t)n >= sizeof msg) n = 0;
  char *rest = msg + n;
  size_t size = sizeof msg - (size_t)n;
  if (f->thread_stack_overflow || f->stack_overflow) {
    snprintf(rest, size,
             "stack overflow: the kernel ran off the end of the stack of the %s (deep "
             "recursion or large local arrays); %s, or put less on the stack",
             participant ? "CPU worker thread running it" : "host thread that called it",
             participant ? "set KP_CPU_WORKER_STACK to more bytes"
                         : "give that thread a larger stack (ulimit -s for the main thread)");
  } else if (f->signo == KP_CPU_TIMEOUT_SIGNAL) {
    snprintf(rest, size,
             "did not finish within KP_CPU_TIMEOUT_MS=%lld ms; the CPU backend's watchdog "
             "stopped it (a function that never returns: check its loop conditions)",
             kp_cpu_timeout_ms);
  } else {
    int w = snprintf(rest, size, "%s", kp_cpu_fault_describe(f));
    if (w > 0 && (size_t)w < size && (f->signo == SIGSEGV || f->signo == SIGBUS))
      w += snprintf(rest + w, size - (size_t)w, " at address %p", f->addr);
    if (w > 0 && (size_t)w < size)
      w += snprintf(rest + w, size - (size_t)w, " on the CPU backend (on a GPU: %s)",
                    kp_cpu_fault_gpu_equivalent(f));
    if (w > 0 && (size_t)w < size && (f->signo == SIGSEGV || f->signo == SIGBUS))
      kp_cpu_describe_address(rest + w, size - (size_t)w, f->addr);
  }
  range_failure(j, msg);
}

static void run_ranges(void *p, int participant, int alone) {
  (void)alone; /* the chunks are taken in order from one counter: alone or not, the same */
  cpu_range_job *j = p;
  kp_cpu_thread_state *st = &kp_cpu_state;
  const kp_kernel_desc *saved_kernel = st->kernel;
  st->kernel = j->kernel; /* for messages from primitives the element function calls */
  kp_cpu_fault_guard guard;
  kp_cpu_fault_guard_begin(&guard, participant, &j->watch, j->kernel->name);
  volatile long long begin = 0, end = 0; /* the chunk running, read after a fault */
  if (sigsetjmp(guard.env, 0)) {
    kp_cpu_fault_recovered(&guard);
    long long index = guard.signo == KP_CPU_TIMEOUT_SIGNAL
                          ? -1 /* replaying would only run the endless function again */
                          : replay_to_find_index(j, begin, end, &guard);
    record_range_fault(j, &guard, index, begin, end, participant);
    goto out;
  }
  kp_cpu_fault_armed = &guard;
  while (!atomic_load_explicit(&j->failed, memory_order_relaxed)) {
    long long b = atomic_fetch_add_explicit(&j->next, j->chunk, memory_order_relaxed);
    if (b >= j->n) break;
    long long e = j->n - b < j->chunk ? j->n : b + j->chunk;
    begin = b;
    end = e;
    j->entry(j->args, b, e);
  }
  kp_cpu_fault_armed = NULL;
out:
  st->kernel = saved_kernel;
}

kp_error kp_cpu_launch_range(kp_kernel_desc *k, long long n, long long serial_below,
                             void **args) {
  cpu_range_job j = {.kernel = k, .entry = k->cpu_range_entry, .args = args, .n = n};
  j.unit = (k->flags & KP_KERNEL_GUVECTORIZE) ? "block" : "element";
  atomic_init(&j.next, 0);
  atomic_init(&j.failed, 0);
  atomic_init(&j.watch, 0);
  long long chunks = (long long)kp_pool_size() * KP_CPU_RANGE_CHUNKS;
  long long chunk = (n + chunks - 1) / chunks;
  if (n >= KP_CPU_RANGE_ALIGN * chunks)
    chunk = (chunk + KP_CPU_RANGE_ALIGN - 1) / KP_CPU_RANGE_ALIGN * KP_CPU_RANGE_ALIGN;
  j.chunk = chunk < 1 ? 1 : chunk;
  kp_note_launched_kernel(k->name);
  if (n < serial_below && !kp_cpu_timeout_ms) {
    /* Waking the pool costs more than the work: the caller runs it all, as participant 0
     * would (the watchdog wants the pool's participant 0, so not when it is on). */
    j.chunk = n;
    run_ranges(&j, 0, 1);
  } else {
    /* Each chunk is a unit; its elements count as the pool's GPU threads (its wake-up rule). */
    kp_pool_run(run_ranges, &j, (unsigned long long)((n + j.chunk - 1) / j.chunk),
                (unsigned long long)j.chunk);
    if (kp_cpu_timeout_ms) kp_cpu_watchdog_end(atomic_load(&j.watch));
  }
  if (atomic_load(&j.failed)) return kp_fail(KP_ERROR_LAUNCH, "%s", j.message);
  return KP_SUCCESS;
}
