/* fiber.c — user-level contexts and guarded stacks for the CPU backend's fibers.
 *
 * A fiber switch saves the callee-saved registers on the current stack and loads another
 * stack pointer: a few nanoseconds, against microseconds for an OS thread switch, which is
 * what makes running every GPU thread of a block as a fiber affordable. x86-64 has a
 * hand-written switch; other targets fall back to ucontext (correct, slower: it also saves
 * the signal mask with a system call). Stacks come from one mapping per runner with a
 * PROT_NONE guard below each stack, so an overflow faults (cpu_fault.c reports it) instead
 * of overwriting the neighbouring fiber. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"

/* Under valgrind each fiber stack must be registered, or a switch looks like a huge stack
 * frame and every access to the worker's own stack and thread-locals is reported. Only where
 * valgrind.h is installed; the ids live in a small table keyed by the mapping, so that the
 * stacks' layout does not change. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <pthread.h>
#include <stdlib.h>
#include <valgrind/valgrind.h>
#define KP_VALGRIND 1
#endif
#endif

/* In a sanitizer build kp_fiber_switch (below) tells ASan and TSan about the switch around
 * kp_fiber_jump, the plain register switch; otherwise kp_fiber_jump is kp_fiber_switch. */
#ifdef KP_FIBER_SANITIZERS
#define KP_FIBER_JUMP "kp_fiber_jump"
void kp_fiber_jump(kp_fiber_ctx *from, kp_fiber_ctx *to);
static void run_fiber(void *ctx);
#else
#define KP_FIBER_JUMP "kp_fiber_switch"
#endif

#if defined(__x86_64__)

/* kp_fiber_switch(from, to): push rbp rbx r12-r15, store rsp in from->sp, load to->sp, pop
 * the same, return into the other fiber. The SSE/x87 control words are not switched (fldcw
 * alone would double the cost): all fibers of a worker share its floating-point environment,
 * which device code cannot change (fesetround is not a device function). */
__asm__(".text\n"
        ".globl " KP_FIBER_JUMP "\n"
        ".hidden " KP_FIBER_JUMP "\n"
        ".type " KP_FIBER_JUMP ",@function\n"
        KP_FIBER_JUMP ":\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq (%rsi), %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size " KP_FIBER_JUMP ",.-" KP_FIBER_JUMP "\n"
        /* First entry of a fiber: the initial frame put fn in r13 and arg in r12. fn never
         * returns (it switches away for good), so a return is a bug: trap. */
        ".globl kp_fiber_trampoline\n"
        ".hidden kp_fiber_trampoline\n"
        ".type kp_fiber_trampoline,@function\n"
        "kp_fiber_trampoline:\n"
        "  movq %r12, %rdi\n"
        "  callq *%r13\n"
        "  ud2\n"
        ".size kp_fiber_trampoline,.-kp_fiber_trampoline\n");

void kp_fiber_trampoline(void);

static void make_frame(kp_fiber_ctx *ctx, void *stack, size_t size, void (*fn)(void *),
                       void *arg) {
  uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
  uint64_t *sp = (uint64_t *)top;
  /* `ret` into the trampoline leaves rsp 16-byte aligned, as before a call. */
  *--sp = (uint64_t)(uintptr_t)kp_fiber_trampoline;
  *--sp = 0;                          /* rbp */
  *--sp = 0;                          /* rbx */
  *--sp = (uint64_t)(uintptr_t)arg;   /* r12 */
  *--sp = (uint64_t)(uintptr_t)fn;    /* r13 */
  *--sp = 0;                          /* r14 */
  *--sp = 0;                          /* r15 */
  ctx->sp = sp;
}

#else /* portable fallback */

static void ucontext_entry(unsigned hi, unsigned lo) {
  kp_fiber_ctx *ctx = (kp_fiber_ctx *)(((uintptr_t)hi << 32) | lo);
#ifdef KP_FIBER_SANITIZERS
  run_fiber(ctx);
#else
  ctx->fn(ctx->arg);
#endif
  __builtin_trap();
}

static void make_frame(kp_fiber_ctx *ctx, void *stack, size_t size, void (*fn)(void *),
                       void *arg) {
  (void)fn, (void)arg; /* ctx->fn and ctx->arg */
  getcontext(&ctx->uc);
  ctx->uc.uc_stack.ss_sp = stack;
  ctx->uc.uc_stack.ss_size = size;
  ctx->uc.uc_link = NULL;
  uintptr_t p = (uintptr_t)ctx;
  makecontext(&ctx->uc, (void (*)(void))ucontext_entry, 2, (unsigned)(p >> 32), (unsigned)p);
}

#ifdef KP_FIBER_SANITIZERS
void kp_fiber_jump(kp_fiber_ctx *from, kp_fiber_ctx *to) { swapcontext(&from->uc, &to->uc); }
#else
void kp_fiber_switch(kp_fiber_ctx *from, kp_fiber_ctx *to) { swapcontext(&from->uc, &to->uc); }
#endif

#endif

/* ---- sanitizers ---------------------------------------------------------------------------
 * ASan keeps one stack (bounds, fake stack for use-after-return) per thread and TSan one
 * shadow call stack and clock per thread: both must be told when a thread moves to another
 * stack, or ASan takes the switch for a huge frame and TSan mixes up the fibers' calls
 * (__sanitizer_start/finish_switch_fiber, __tsan_create/switch_to_fiber). Each fiber slot
 * keeps its fake stack and TSan fiber from block to block; the functions on a fiber's stack
 * when it leaves for good are not instrumented (KP_UNINSTRUMENTED), so that nothing of an
 * exited fiber stays on them. A thread's own context (kp_fiber_native) is the runner's
 * scheduler, which any launching thread may use in turn, so it is learnt anew per block. */
#ifdef KP_FIBER_SANITIZERS
#ifdef KP_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef KP_TSAN
#include <sanitizer/tsan_interface.h>
#endif

static _Thread_local kp_fiber_ctx *tls_native;  /* this thread's own context, if it has one */
static _Thread_local kp_fiber_ctx *tls_running; /* the context running on this thread */
static _Thread_local kp_fiber_ctx *tls_from;    /* the one it was switched to from (ASan) */

void kp_fiber_native(kp_fiber_ctx *ctx) {
  ctx->stack_lo = NULL, ctx->stack_size = 0, ctx->fake_stack = NULL; /* learnt when left */
#ifdef KP_TSAN
  ctx->tsan_fiber = __tsan_get_current_fiber();
#endif
  tls_native = tls_running = ctx;
}

KP_UNINSTRUMENTED static void announce(kp_fiber_ctx *from, kp_fiber_ctx *to) {
  tls_from = from;
  tls_running = to;
#ifdef KP_ASAN
  __sanitizer_start_switch_fiber(&from->fake_stack, to->stack_lo, to->stack_size);
#endif
#ifdef KP_TSAN
  __tsan_switch_to_fiber(to->tsan_fiber, 0); /* 0: the switch orders the two fibers */
#endif
}

/* On the stack just switched to: ASan reports the bounds of the one left (how a thread's own
 * context learns its bounds). */
KP_UNINSTRUMENTED static void arrived(kp_fiber_ctx *self) {
#ifdef KP_ASAN
  __sanitizer_finish_switch_fiber(self->fake_stack, &tls_from->stack_lo, &tls_from->stack_size);
#else
  (void)self;
#endif
}

KP_UNINSTRUMENTED void kp_fiber_switch(kp_fiber_ctx *from, kp_fiber_ctx *to) {
  announce(from, to);
  kp_fiber_jump(from, to);
  arrived(from);
}

KP_UNINSTRUMENTED static void run_fiber(void *p) {
  kp_fiber_ctx *self = p;
  arrived(self);
  self->fn(self->arg);
}

void kp_fiber_forget(kp_fiber_ctx *ctx) {
#ifdef KP_TSAN
  if (ctx->tsan_fiber) __tsan_destroy_fiber(ctx->tsan_fiber);
  ctx->tsan_fiber = NULL;
#else
  (void)ctx;
#endif
}

/* In the fault handler, on the signal stack, before siglongjmp to the thread's own context:
 * the running fiber is left for good. */
KP_UNINSTRUMENTED void kp_fiber_fault_escape(void) {
  kp_fiber_ctx *native = tls_native, *fiber = tls_running;
  if (!native || fiber == native) return;
  tls_running = native;
#ifdef KP_ASAN
  __sanitizer_start_switch_fiber(&fiber->fake_stack, native->stack_lo, native->stack_size);
  __sanitizer_finish_switch_fiber(native->fake_stack, NULL, NULL);
#endif
#ifdef KP_TSAN
  __tsan_switch_to_fiber(native->tsan_fiber, 0);
#endif
}

void kp_fiber_stacks_clean(const kp_fiber_stacks *s) {
#ifdef KP_ASAN
  for (unsigned i = 0; i < s->count; i++)
    __asan_unpoison_memory_region(kp_fiber_stack(s, i), s->stack_bytes);
#else
  (void)s;
#endif
}

#else
void kp_fiber_native(kp_fiber_ctx *ctx) { (void)ctx; }
void kp_fiber_forget(kp_fiber_ctx *ctx) { (void)ctx; }
void kp_fiber_fault_escape(void) {}
void kp_fiber_stacks_clean(const kp_fiber_stacks *s) { (void)s; }
#endif

void kp_fiber_make(kp_fiber_ctx *ctx, void *stack, size_t size, void (*fn)(void *), void *arg) {
  ctx->fn = fn;
  ctx->arg = arg;
#ifdef KP_FIBER_SANITIZERS
  ctx->stack_lo = stack;
  ctx->stack_size = size;
#ifdef KP_TSAN
  if (!ctx->tsan_fiber) ctx->tsan_fiber = __tsan_create_fiber(0);
#endif
  make_frame(ctx, stack, size, run_fiber, ctx);
#else
  make_frame(ctx, stack, size, fn, arg);
#endif
}

#ifdef KP_VALGRIND
enum { KP_VALGRIND_MAPPINGS = 256 };
static struct {
  void *base;
  unsigned *ids;
  unsigned count;
} g_valgrind[KP_VALGRIND_MAPPINGS];
static pthread_mutex_t g_valgrind_lock = PTHREAD_MUTEX_INITIALIZER;

static void valgrind_register(const kp_fiber_stacks *s) {
  if (!RUNNING_ON_VALGRIND) return;
  unsigned *ids = malloc(s->count * sizeof *ids);
  if (!ids) return;
  for (unsigned i = 0; i < s->count; i++) {
    char *lo = kp_fiber_stack(s, i);
    ids[i] = VALGRIND_STACK_REGISTER(lo, lo + s->stack_bytes);
  }
  pthread_mutex_lock(&g_valgrind_lock);
  for (int k = 0; k < KP_VALGRIND_MAPPINGS && ids; k++)
    if (!g_valgrind[k].base) {
      g_valgrind[k].base = s->base, g_valgrind[k].ids = ids, g_valgrind[k].count = s->count;
      ids = NULL;
    }
  pthread_mutex_unlock(&g_valgrind_lock);
  free(ids); /* no room: the registrations stay (harmless under valgrind) */
}

static void valgrind_deregister(const kp_fiber_stacks *s) {
  if (!RUNNING_ON_VALGRIND || !s->base) return;
  pthread_mutex_lock(&g_valgrind_lock);
  for (int k = 0; k < KP_VALGRIND_MAPPINGS; k++)
    if (g_valgrind[k].base == s->base) {
      for (unsigned i = 0; i < g_valgrind[k].count; i++)
        VALGRIND_STACK_DEREGISTER(g_valgrind[k].ids[i]);
      free(g_valgrind[k].ids);
      g_valgrind[k].base = NULL;
    }
  pthread_mutex_unlock(&g_valgrind_lock);
}
#else
#define valgrind_register(s) ((void)(s))
#define valgrind_deregister(s) ((void)(s))
#endif

static size_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096;
}

int kp_fiber_stacks_reserve(kp_fiber_stacks *s, unsigned count, size_t stack_bytes) {
  size_t page = page_size();
  stack_bytes = (stack_bytes + page - 1) / page * page;
  if (s->base && s->count >= count && s->stack_bytes == stack_bytes) return 0;
  kp_fiber_stacks_release(s);
  /* A guard of 64 KiB rather than one page: a frame with a large local array can step over a
   * single guard page straight into the next fiber's stack. */
  size_t guard = 64 * 1024;
  if (guard < page) guard = page;
  size_t slot = guard + stack_bytes;
  size_t total = slot * count;
  /* NORESERVE: only the pages a fiber touches are ever committed. */
  void *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
  if (base == MAP_FAILED) return -1;
  for (unsigned i = 0; i < count; i++) {
    if (mprotect((char *)base + (size_t)i * slot, guard, PROT_NONE) != 0) {
      munmap(base, total);
      return -1;
    }
  }
  s->base = base;
  s->total = total;
  s->guard_bytes = guard;
  s->stack_bytes = stack_bytes;
  s->count = count;
  valgrind_register(s);
  return 0;
}

void kp_fiber_stacks_release(kp_fiber_stacks *s) {
  valgrind_deregister(s);
  if (s->base) kp_fiber_stacks_clean(s); /* ASan: no stale poison where the next mmap lands */
  if (s->base) munmap(s->base, s->total);
  memset(s, 0, sizeof *s);
}

void *kp_fiber_stack(const kp_fiber_stacks *s, unsigned i) {
  return (char *)s->base + (size_t)i * (s->guard_bytes + s->stack_bytes) + s->guard_bytes;
}

int kp_fiber_stacks_guard_hit(const kp_fiber_stacks *s, const void *addr) {
  if (!s || !s->base) return 0;
  uintptr_t a = (uintptr_t)addr, lo = (uintptr_t)s->base;
  if (a < lo || a >= lo + s->total) return 0;
  return (a - lo) % (s->guard_bytes + s->stack_bytes) < s->guard_bytes;
}

int kp_fiber_stacks_contain(const kp_fiber_stacks *s, const void *addr) {
  uintptr_t a = (uintptr_t)addr, lo = s && s->base ? (uintptr_t)s->base : 0;
  return lo && a >= lo && a - lo < s->total;
}
