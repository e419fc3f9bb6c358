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

#include "cpu_backend.h"

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

#if defined(__x86_64__)

/* kp_fiber_switch(from, to): push rbp rbx r12-r15, store rsp in from->sp, load to->sp, pop
 * the same, return into the other fiber. The SSE/x87 control words are not switched (fldcw
 * alone would double the cost): all fibers of a worker share its floating-point environment,
 * which device code cannot change (fesetround is not a device function). */
__asm__(".text\n"
        ".globl kp_fiber_switch\n"
        ".hidden kp_fiber_switch\n"
        ".type kp_fiber_switch,@function\n"
        "kp_fiber_switch:\n"
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
        ".size kp_fiber_switch,.-kp_fiber_switch\n"
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

void kp_fiber_make(kp_fiber_ctx *ctx, void *stack, size_t size, void (*fn)(void *), void *arg) {
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
  ctx->fn(ctx->arg);
  __builtin_trap();
}

void kp_fiber_make(kp_fiber_ctx *ctx, void *stack, size_t size, void (*fn)(void *), void *arg) {
  getcontext(&ctx->uc);
  ctx->uc.uc_stack.ss_sp = stack;
  ctx->uc.uc_stack.ss_size = size;
  ctx->uc.uc_link = NULL;
  ctx->fn = fn;
  ctx->arg = arg;
  uintptr_t p = (uintptr_t)ctx;
  makecontext(&ctx->uc, (void (*)(void))ucontext_entry, 2, (unsigned)(p >> 32), (unsigned)p);
}

void kp_fiber_switch(kp_fiber_ctx *from, kp_fiber_ctx *to) { swapcontext(&from->uc, &to->uc); }

#endif

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
