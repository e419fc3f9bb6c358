/* cpu_fault.c — a crash inside a kernel on the CPU backend becomes a launch error.
 *
 * On a GPU an out-of-bounds access fails the launch (CUDA_ERROR_ILLEGAL_ADDRESS) and the
 * program gets an error; on the CPU the same bug would kill the process, and a fiber that
 * runs out of stack would overwrite its neighbour. While a worker runs kernel code it arms a
 * guard (a sigjmp_buf); SIGSEGV/SIGBUS/SIGFPE then jump back to the worker's block loop,
 * which reports the kernel, block and thread. Faults outside kernel code go to whatever
 * handler was installed before, or get the default action, so programs behave as without
 * kernplug. The handler runs on an alternate signal stack: an overflowing fiber has none. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "cpu_backend.h"

static const int g_signals[] = {SIGSEGV, SIGBUS, SIGFPE};
enum { NSIG_HANDLED = sizeof g_signals / sizeof g_signals[0] };
static struct sigaction g_previous[NSIG_HANDLED];

_Thread_local kp_cpu_fault_guard *kp_cpu_fault_armed __attribute__((tls_model("initial-exec")));

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
  /* Default action: reinstall it and let the fault happen again (a real fault re-executes
   * the instruction; a signal sent with kill() is raised again). */
  signal(sig, SIG_DFL);
  if (info->si_code <= 0) raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *uc) {
  kp_cpu_fault_guard *g = kp_cpu_fault_armed;
  if (g) {
    kp_cpu_fault_armed = NULL;
    g->signo = sig;
    g->addr = info->si_addr;
    g->stack_overflow = kp_fiber_stacks_guard_hit(g->stacks, info->si_addr);
    /* SA_NODEFER left the signal unblocked, but a sanitizer's wrapper around this handler
     * (TSan's) blocks every signal while it runs: restore the faulting code's mask, or the
     * next fault in kernel code (the replay that names the thread) kills the process. */
    pthread_sigmask(SIG_SETMASK, &((ucontext_t *)uc)->uc_sigmask, NULL);
    kp_fiber_fault_escape(); /* sanitizer builds: leaving a fiber's stack for good */
    siglongjmp(g->env, 1);
  }
  for (int i = 0; i < NSIG_HANDLED; i++)
    if (g_signals[i] == sig) forward(i, sig, info, uc);
}

static void install_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
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

void kp_cpu_fault_prepare_thread(void) {
  static pthread_once_t handlers_once = PTHREAD_ONCE_INIT, key_once = PTHREAD_ONCE_INIT;
  static _Thread_local int prepared;
  if (prepared) return;
  prepared = 1;
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

const char *kp_cpu_fault_describe(const kp_cpu_fault_guard *g) {
  switch (g->signo) {
  case SIGSEGV: return "invalid memory access (SIGSEGV)";
  case SIGBUS: return "misaligned or unmapped memory access (SIGBUS)";
  case SIGFPE: return "arithmetic exception, e.g. integer division by zero (SIGFPE)";
  default: return "fault";
  }
}
