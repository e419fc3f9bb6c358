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

/* kp_cpu_fault_armed is a field of kp_cpu_state: not initial-exec, like all the runtime's
 * TLS (cpu_device.c): the handler reads it only on threads that prepared for kernel code
 * (on_fault), whose TLS block is allocated. */

/* The calling thread's stack, [low, low + size), for telling a stack overflow from a wild
 * access (0 when unknown). Read in the handler, like the guard. */
static _Thread_local uintptr_t tls_stack_low;
static _Thread_local size_t tls_stack_size;

/* A stack overflow is told from a wild access by the stack pointer at the fault, not by the
 * address alone: an array that happens to lie just below a thread's stack (device memory
 * mapped next to a worker's stack, say) faults there too, and must be reported as the
 * out-of-bounds access it is. KP_STACK_RED_ZONE: how far below the stack pointer code may
 * still write (x86-64's red zone, where leaf functions keep locals; a push or call writes just
 * below it). KP_STACK_MAX_FRAME: how far below the stack's low end the stack pointer may be
 * and still have left it by one frame (a 12 MiB array on a 1 MiB stack), rather than run on
 * some other stack. KP_STACK_FAULT_WINDOW: where the stack pointer is unknown (targets other
 * than x86-64 and AArch64), how far below the stack a fault counts as an overflow. */
enum {
  KP_STACK_RED_ZONE = 256,
  KP_STACK_MAX_FRAME = 1 << 30,
  KP_STACK_FAULT_WINDOW = 1 << 20
};

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

/* Whether a fault at addr with the stack pointer at sp is code running off the low end
 * (`low`) of its stack: the address lies below the stack (its guard, or the space a frame
 * that left it covers) and no lower than the stack pointer's red zone, the stack pointer
 * being at most a red zone above the low end (the next push or frame faults) or already below
 * it by at most a frame. With sp unknown (0), an address just below the stack. */
static int ran_off_stack(uintptr_t low, uintptr_t addr, uintptr_t sp) {
  if (addr >= low) return 0;
  if (!sp) return low - addr <= KP_STACK_FAULT_WINDOW;
  if (addr + KP_STACK_RED_ZONE < sp) return 0; /* below the stack pointer: not a frame's */
  return sp >= low || low - sp <= KP_STACK_MAX_FRAME;
}

/* Whether a fiber ran off its stack: the address in the guard below a fiber's stack, and the
 * stack pointer near that stack's low end or past it (ran_off_stack). */
static int fiber_stack_overflow(const kp_fiber_stacks *s, uintptr_t addr, uintptr_t sp) {
  if (!kp_fiber_stacks_guard_hit(s, (const void *)addr)) return 0;
  uintptr_t base = (uintptr_t)s->base, slot = s->guard_bytes + s->stack_bytes;
  uintptr_t low = base + (addr - base) / slot * slot + s->guard_bytes;
  return ran_off_stack(low, addr, sp);
}

/* Whether the thread ran off the low end of its own stack. Code on a fiber stack is judged
 * by the fibers' stacks instead. */
static int thread_stack_overflow(const kp_cpu_fault_guard *g, uintptr_t addr, uintptr_t sp) {
  uintptr_t low = tls_stack_low;
  if (!low) return 0;
  if (g->stacks && kp_fiber_stacks_contain(g->stacks, (const void *)sp)) return 0;
  return ran_off_stack(low, addr, sp);
}

void kp_cpu_fault_jump(kp_cpu_fault_guard *g, int sig, void *addr, void *uc) {
  kp_cpu_fault_armed = NULL;
  g->signo = sig;
  g->addr = addr;
  uintptr_t sp = stack_pointer_of(uc);
  g->stack_overflow = fiber_stack_overflow(g->stacks, (uintptr_t)addr, sp);
  g->thread_stack_overflow = !g->stack_overflow && (sig == SIGSEGV || sig == SIGBUS) &&
                             thread_stack_overflow(g, (uintptr_t)addr, sp);
  /* The mask to go back to: the one the kernel code ran with. Leaving the handler by a jump
   * keeps whatever the handler ran with, and a wrapper such as TSan's blocks every signal
   * around handlers: the next fault would then kill the process. */
  g->mask = ((const ucontext_t *)uc)->uc_sigmask;
  kp_fiber_fault_escape(); /* sanitizer builds: the jump may leave a fiber's stack for good */
  siglongjmp(g->env, 1);
}

static pthread_key_t g_prepared_key; /* non-NULL on threads kp_cpu_fault_prepare_thread saw */
static atomic_int g_prepared_key_made;

/* Only threads that prepared for kernel code read the guard. When the runtime was dlopen()ed,
 * its TLS is allocated per thread at the first access, with malloc: a signal on any other
 * thread (an abort() inside malloc, say) must not get there. glibc's pthread_getspecific
 * allocates nothing. (The watchdog's handler may run before the key exists.) */
kp_cpu_fault_guard *kp_cpu_fault_armed_here(void) {
  if (!atomic_load_explicit(&g_prepared_key_made, memory_order_acquire)) return NULL;
  return pthread_getspecific(g_prepared_key) ? kp_cpu_fault_armed : NULL;
}

static void on_fault(int sig, siginfo_t *info, void *uc) {
  kp_cpu_fault_guard *g = kp_cpu_fault_armed_here();
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
static void create_keys(void) {
  pthread_key_create(&g_alt_key, free_alt_stack);
  if (pthread_key_create(&g_prepared_key, NULL) == 0)
    atomic_store_explicit(&g_prepared_key_made, 1, memory_order_release);
}

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
  kp_cpu_thread_state *st = &kp_cpu_state;
  if (st->fault_ready) return;
  st->fault_ready = 1;
  find_own_stack();
  pthread_once(&key_once, create_keys); /* before the handlers, which read g_prepared_key */
  pthread_setspecific(g_prepared_key, &st->fault_ready);
  pthread_once(&handlers_once, install_handlers);
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

void kp_cpu_fault_guard_watch(kp_cpu_fault_guard *guard, int participant,
                              _Atomic unsigned long long *watch, const char *kernel) {
  kp_cpu_watchdog_enter(participant);
  if (participant == 0) atomic_store(watch, kp_cpu_watchdog_begin(kernel));
  guard->launch = watch;
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
