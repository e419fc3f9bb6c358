/* cpu_watchdog.c — KP_CPU_TIMEOUT_MS: a launch on the CPU backend that runs longer fails.
 *
 * A kernel that never returns (a loop whose exit condition is wrong) would hold the program
 * forever. With KP_CPU_TIMEOUT_MS set, a watchdog thread notes when each launch starts and,
 * once it has run that long, interrupts the threads still running its kernel with a signal.
 * The handler jumps back to the worker's block loop like a fault does (cpu_fault.c), so the
 * launch fails with the kernel, block and thread, and in KP_ERRORS=return mode the program
 * goes on: kernel code holds nothing a jump would leak — except inside the C library (device
 * printf holds stdout's lock). A thread interrupted there is left alone and signalled again
 * 10 ms later; one that stays in the C library for KP_WATCHDOG_GIVE_UP_MS (blocked writing
 * to a full pipe) cannot be stopped safely, and the process exits with the message instead.
 *
 * Off by default: then the launch path pays one load of a global. On, a launch costs a
 * mutex, a clock read and a condition signal (the watchdog is woken only when it is idle). */
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "backend/cpu/cpu_backend.h"
#include "core/env.h"

enum {
  KP_WATCHDOG_RETRY_MS = 10,     /* between signals to threads that could not stop yet */
  KP_WATCHDOG_GIVE_UP_MS = 2000, /* then the process exits with the message */
  KP_WATCHDOG_MAX_MS = 1 << 30
};

long long kp_cpu_timeout_ms; /* 0: off */

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv;    /* on CLOCK_MONOTONIC; a launch started */
static int g_started, g_idle;  /* the watchdog thread exists; it waits for a launch */
static unsigned long long g_seq, g_running; /* launches begun; the one running (0: none) */
static const char *g_kernel;   /* its kernel, for the message when it cannot be stopped */
static struct timespec g_deadline;
static pthread_t *g_threads;   /* the participant threads of the running launch */
static int g_nthreads;
static atomic_ullong g_target; /* the launch being stopped: only its guards may jump */
static struct sigaction g_previous;

/* ---- where a thread may be interrupted --------------------------------------------------- */

/* The executable segments of the C library and the dynamic loader, which hold locks a jump
 * would leave held. */
enum { KP_UNSAFE_RANGES = 8 };
static struct { uintptr_t lo, hi; } g_unsafe[KP_UNSAFE_RANGES];
static int g_nunsafe;

static int note_unsafe(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  if (!strstr(name, "/libc.so") && !strstr(name, "/ld-linux") && !strstr(name, "/libpthread"))
    return 0;
  for (int i = 0; i < info->dlpi_phnum && g_nunsafe < KP_UNSAFE_RANGES; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    g_unsafe[g_nunsafe].lo = lo, g_unsafe[g_nunsafe].hi = lo + ph->p_memsz, g_nunsafe++;
  }
  return 0;
}

static int in_unsafe_code(const void *uc) {
#if defined(__x86_64__)
  uintptr_t pc = (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  uintptr_t pc = (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
#else
  (void)uc;
  return 0;
#endif
  for (int i = 0; i < g_nunsafe; i++)
    if (pc >= g_unsafe[i].lo && pc < g_unsafe[i].hi) return 1;
  return 0;
}

static void on_timeout(int sig, siginfo_t *info, void *uc) {
  kp_cpu_fault_guard *g = kp_cpu_fault_armed_here();
  unsigned long long target = atomic_load_explicit(&g_target, memory_order_acquire);
  if (g && target && g->launch && atomic_load(g->launch) == target && !in_unsafe_code(uc)) {
    kp_cpu_fault_jump(g, sig, NULL, uc);
    return;
  }
  /* Not a kernel of the launch being stopped: someone else's signal, or too late. */
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) g_previous.sa_sigaction(sig, info, uc);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
  }
}

/* ---- the watchdog thread ----------------------------------------------------------------- */

static void add_ms(struct timespec *t, long long ms) {
  t->tv_sec += (time_t)(ms / 1000);
  t->tv_nsec += (long)(ms % 1000) * 1000000L;
  if (t->tv_nsec >= 1000000000L) t->tv_sec++, t->tv_nsec -= 1000000000L;
}

static int passed(const struct timespec *deadline) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec > deadline->tv_sec ||
         (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* Interrupts launch `seq` until it has returned; g_mu is held, and while it is the launch
 * cannot return (kp_cpu_watchdog_end waits for it), so its threads are alive. */
static void stop(unsigned long long seq) {
  atomic_store_explicit(&g_target, seq, memory_order_release);
  for (int waited = 0; g_running == seq; waited += KP_WATCHDOG_RETRY_MS) {
    if (waited >= KP_WATCHDOG_GIVE_UP_MS)
      kp_fatal("kernel '%s' did not finish within KP_CPU_TIMEOUT_MS=%lld ms, and a thread "
               "running it stays inside the C library, where stopping it is not safe: "
               "exiting",
               g_kernel, kp_cpu_timeout_ms);
    for (int i = 0; i < g_nthreads; i++) { /* 0: a worker that has not run a watched launch */
      pthread_t t = __atomic_load_n(&g_threads[i], __ATOMIC_RELAXED); /* see enter() */
      if (t) pthread_kill(t, KP_CPU_TIMEOUT_SIGNAL);
    }
    struct timespec retry;
    clock_gettime(CLOCK_MONOTONIC, &retry);
    add_ms(&retry, KP_WATCHDOG_RETRY_MS);
    while (g_running == seq && pthread_cond_timedwait(&g_cv, &g_mu, &retry) == 0) {
    }
  }
  atomic_store_explicit(&g_target, 0, memory_order_release);
}

static void *watchdog_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&g_mu);
  for (;;) {
    g_idle = !g_running;
    if (!g_running) {
      pthread_cond_wait(&g_cv, &g_mu);
      continue;
    }
    g_idle = 0;
    unsigned long long seq = g_running;
    struct timespec deadline = g_deadline;
    pthread_cond_timedwait(&g_cv, &g_mu, &deadline);
    if (g_running == seq && passed(&deadline)) stop(seq);
  }
  return NULL;
}

/* With g_mu held. Returns 0, or -1 when the thread cannot start (then no watchdog). */
static int start_locked(void) {
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&g_cv, &attr);
  pthread_condattr_destroy(&attr);
  pthread_t t;
  if (pthread_create(&t, NULL, watchdog_main, NULL) != 0) return -1;
  pthread_detach(t);
  g_started = 1;
  return 0;
}

/* ---- the backend's side ------------------------------------------------------------------ */

int kp_cpu_watchdog_init(int participants, char *why, size_t why_size) {
  const char *s = getenv("KP_CPU_TIMEOUT_MS");
  if (!s || !*s || strcmp(s, "0") == 0) return 0; /* off */
  long long ms = kp_env_positive("KP_CPU_TIMEOUT_MS", 0, KP_WATCHDOG_MAX_MS, why, why_size);
  if (ms < 0) return -1;
  g_threads = calloc((size_t)participants, sizeof *g_threads);
  if (!g_threads) {
    snprintf(why, why_size, "out of memory for the KP_CPU_TIMEOUT_MS watchdog");
    return -1;
  }
  g_nthreads = participants;
  dl_iterate_phdr(note_unsafe, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_timeout;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(KP_CPU_TIMEOUT_SIGNAL, &sa, &g_previous);
  kp_cpu_timeout_ms = ms;
  return 0;
}

/* Workers note themselves without g_mu while the watchdog may be reading the table in stop()
 * (a data race TSan reported): atomic accesses, and a store only when the entry changes.
 * Participant 0 notes itself before kp_cpu_watchdog_begin takes g_mu, so the watchdog sees
 * the launching thread of the launch it stops. */
void kp_cpu_watchdog_enter(int participant) {
  if (participant >= g_nthreads) return;
  pthread_t self = pthread_self();
  if (__atomic_load_n(&g_threads[participant], __ATOMIC_RELAXED) != self)
    __atomic_store_n(&g_threads[participant], self, __ATOMIC_RELAXED);
}

unsigned long long kp_cpu_watchdog_begin(const char *kernel) {
  pthread_mutex_lock(&g_mu);
  if (!g_started && start_locked() != 0) { /* no thread, no timeout; the launch still runs */
    pthread_mutex_unlock(&g_mu);
    return 0;
  }
  unsigned long long seq = ++g_seq;
  g_running = seq;
  g_kernel = kernel;
  clock_gettime(CLOCK_MONOTONIC, &g_deadline);
  add_ms(&g_deadline, kp_cpu_timeout_ms);
  if (g_idle) pthread_cond_signal(&g_cv);
  pthread_mutex_unlock(&g_mu);
  return seq;
}

void kp_cpu_watchdog_end(unsigned long long seq) {
  if (!seq) return;
  pthread_mutex_lock(&g_mu);
  if (g_running == seq) g_running = 0;
  pthread_cond_broadcast(&g_cv); /* the watchdog may be waiting in stop() */
  pthread_mutex_unlock(&g_mu);
}

void kp_cpu_watchdog_forget(int first, int count) {
  for (int i = first; i < first + count && i < g_nthreads; i++)
    __atomic_store_n(&g_threads[i], (pthread_t)0, __ATOMIC_RELAXED);
}

void kp_cpu_watchdog_after_fork_child(void) {
  g_mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
  g_started = 0, g_idle = 0, g_running = 0; /* the thread is not in the child: start again */
  if (g_threads) memset(g_threads, 0, (size_t)g_nthreads * sizeof *g_threads); /* nor these */
  atomic_store(&g_target, 0);
}
