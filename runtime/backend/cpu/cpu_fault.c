/* cpu_fault.c — a crash inside a kernel on the CPU backend becomes a launch error.
 *
 * On a GPU an out-of-bounds access fails the launch (CUDA_ERROR_ILLEGAL_ADDRESS), and so do a
 * trap (CUDA_ERROR_LAUNCH_FAILED) and a failed device assert (CUDA_ERROR_ASSERT); the program
 * gets an error. On the CPU the same bugs would kill the process, and a fiber that runs out of
 * stack would overwrite its neighbour. While a worker runs kernel code it arms a guard (a
 * sigjmp_buf); SIGSEGV/SIGBUS/SIGFPE/SIGILL (__builtin_trap) and SIGABRT (abort(), a failed
 * assert()) raised by that code then jump back to the worker's block loop, which reports the
 * kernel, block and thread. Signals outside kernel code, or sent by another process, go to
 * whatever handler was installed before, or get the default action, so programs behave as
 * without kernplug (abort() in host code still aborts). The handler runs on an alternate
 * signal stack: an overflowing stack has no room left for it. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"

static const int g_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
enum { NSIG_HANDLED = sizeof g_signals / sizeof g_signals[0] };
static struct sigaction g_previous[NSIG_HANDLED];

_Thread_local kp_cpu_fault_guard *kp_cpu_fault_armed __attribute__((tls_model("initial-exec")));

/* The calling thread's stack, [low, low + size), for telling a stack overflow from a wild
 * access (0 when unknown). Read in the handler, so initial-exec like the guard. */
static _Thread_local uintptr_t tls_stack_low __attribute__((tls_model("initial-exec")));
static _Thread_local size_t tls_stack_size __attribute__((tls_model("initial-exec")));

/* How far below a thread's stack a fault still counts as running off its end: the guard
 * pages (pool.c gives workers 64 KiB; the kernel keeps a 1 MiB gap below the main stack). */
enum { KP_STACK_FAULT_WINDOW = 1 << 20 };

static void forward(int index, int sig, siginfo_t *info, void *uc) {
  struct sigaction *old = &g_previous[index];
  if (old->sa_flags & SA_SIGINFO) {
    if (old->sa_sigaction) old->sa_sigaction(sig, info, uc);
    return;
  }
  if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
    old->sa_handler(sig);
    return;
  }
  /* Default action, or ignored: reinstall it and let the fault happen again (a real fault
   * re-executes the instruction and cannot be ignored; a signal sent with kill() or raise()
   * is raised again by default, dropped if ignored — abort() then raises it once more). */
  if (old->sa_handler == SIG_IGN && info->si_code <= 0) return;
  signal(sig, SIG_DFL);
  if (info->si_code <= 0) raise(sig);
}

/* Whether the signal comes from the code this thread runs: the CPU's fault on an instruction
 * (si_code > 0), or raise()/abort() in this process (tgkill: SI_TKILL from our own pid).
 * kill -SEGV from outside must not pass for a kernel fault. */
static int raised_here(const siginfo_t *info) {
  return info->si_code > 0 || (info->si_code == SI_TKILL && info->si_pid == getpid());
}

static uintptr_t stack_pointer_of(const void *uc) {
  const ucontext_t *u = uc;
#if defined(__x86_64__)
  return (uintptr_t)u->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  return (uintptr_t)u->uc_mcontext.sp;
#else
  (void)u;
  return 0; /* unknown: only the faulting address is checked */
#endif
}

/* Whether the thread ran off the low end of its own stack: the faulting address lies in the
 * guard below it, or the stack pointer has already left it (a frame larger than the guard,
 * allocated in one step). Code on a fiber stack is judged by the fibers' guards instead. */
static int thread_stack_overflow(const kp_cpu_fault_guard *g, uintptr_t addr, uintptr_t sp) {
  uintptr_t low = tls_stack_low;
  if (!low) return 0;
  if (g->stacks && kp_fiber_stacks_contain(g->stacks, (const void *)sp)) return 0;
  if (addr < low && low - addr <= KP_STACK_FAULT_WINDOW) return 1;
  return sp && sp < low && low - sp <= (uintptr_t)1 << 40; /* off the stack, not elsewhere */
}

void kp_cpu_fault_jump(kp_cpu_fault_guard *g, int sig, void *addr, void *uc) {
  kp_cpu_fault_armed = NULL;
  g->signo = sig;
  g->addr = addr;
  g->stack_overflow = kp_fiber_stacks_guard_hit(g->stacks, addr);
  g->thread_stack_overflow = !g->stack_overflow && (sig == SIGSEGV || sig == SIGBUS) &&
                             thread_stack_overflow(g, (uintptr_t)addr, stack_pointer_of(uc));
  /* The mask to go back to: the one the kernel code ran with. Leaving the handler by a jump
   * keeps whatever the handler ran with, and a wrapper such as TSan's blocks every signal
   * around handlers: the next fault would then kill the process. */
  g->mask = ((const ucontext_t *)uc)->uc_sigmask;
  kp_fiber_fault_escape(); /* sanitizer builds: the jump may leave a fiber's stack for good */
  siglongjmp(g->env, 1);
}

static void on_fault(int sig, siginfo_t *info, void *uc) {
  kp_cpu_fault_guard *g = kp_cpu_fault_armed;
  if (g && raised_here(info)) kp_cpu_fault_jump(g, sig, info->si_addr, uc);
  for (int i = 0; i < NSIG_HANDLED; i++)
    if (g_signals[i] == sig) forward(i, sig, info, uc);
}

void kp_cpu_fault_recovered(const kp_cpu_fault_guard *g) {
  pthread_sigmask(SIG_SETMASK, &g->mask, NULL);
}

void kp_cpu_fault_guard_drop(void) { kp_cpu_fault_armed = NULL; }

static void install_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  /* NODEFER: a fault while the handler runs (a bug here) kills the process instead of
   * leaving it blocked; the mask is restored after each jump (kp_cpu_fault_recovered). */
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NSIG_HANDLED; i++) sigaction(g_signals[i], &sa, &g_previous[i]);
}

/* Each thread that runs kernels needs its own alternate stack; one we allocated is freed
 * when the thread exits. A thread that already has one (set by the program) keeps it. */
enum { ALT_STACK_BYTES = 64 * 1024 };
static pthread_key_t g_alt_key;
static void free_alt_stack(void *p) {
  stack_t off = {.ss_flags = SS_DISABLE};
  sigaltstack(&off, NULL);
  free(p);
}
static void create_key(void) { pthread_key_create(&g_alt_key, free_alt_stack); }

static void find_own_stack(void) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
    tls_stack_low = (uintptr_t)addr;
    tls_stack_size = size;
  }
  pthread_attr_destroy(&attr);
}

void kp_cpu_fault_prepare_thread(void) {
  static pthread_once_t handlers_once = PTHREAD_ONCE_INIT, key_once = PTHREAD_ONCE_INIT;
  static _Thread_local int prepared;
  if (prepared) return;
  prepared = 1;
  find_own_stack();
  pthread_once(&handlers_once, install_handlers);
  pthread_once(&key_once, create_key);
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
  void *mem = malloc(ALT_STACK_BYTES);
  if (!mem) return; /* faults then take the default action: no worse than without us */
  stack_t alt = {.ss_sp = mem, .ss_size = ALT_STACK_BYTES, .ss_flags = 0};
  if (sigaltstack(&alt, NULL) != 0) {
    free(mem);
    return;
  }
  pthread_setspecific(g_alt_key, mem);
}

void kp_cpu_fault_guard_begin(kp_cpu_fault_guard *guard, int participant,
                              _Atomic unsigned long long *watch, const char *kernel) {
  kp_cpu_fault_prepare_thread();
  guard->stacks = NULL;
  guard->launch = NULL;
  if (kp_cpu_timeout_ms) {
    kp_cpu_watchdog_enter(participant);
    if (participant == 0) atomic_store(watch, kp_cpu_watchdog_begin(kernel));
    guard->launch = watch;
  }
}

size_t kp_cpu_thread_stack(const char **low) {
  kp_cpu_fault_prepare_thread();
  *low = (const char *)tls_stack_low;
  return tls_stack_size;
}

const char *kp_cpu_fault_describe(const kp_cpu_fault_guard *g) {
  switch (g->signo) {
  case SIGSEGV: return "invalid memory access (SIGSEGV)";
  case SIGBUS: return "misaligned or unmapped memory access (SIGBUS)";
  case SIGFPE: return "arithmetic exception, e.g. integer division by zero (SIGFPE)";
  case SIGILL: return "trap: __builtin_trap() or an illegal instruction (SIGILL)";
  case SIGABRT: return "abort() or a failed assert() (SIGABRT)";
  default: return "fault";
  }
}

const char *kp_cpu_fault_gpu_equivalent(const kp_cpu_fault_guard *g) {
  switch (g->signo) {
  case SIGILL: return "CUDA_ERROR_LAUNCH_FAILED";
  case SIGABRT:
    return "CUDA_ERROR_ASSERT after a failed assert(), CUDA_ERROR_LAUNCH_FAILED after abort()";
  case SIGFPE: return "no error but an undefined result";
  default: return "CUDA_ERROR_ILLEGAL_ADDRESS";
  }
}
