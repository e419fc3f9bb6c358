/* cpu_block.c — one block of a kernel with barriers or warp collectives, as fibers.
 *
 * Every GPU thread of the block is a fiber on the worker that owns the block. Runnable fibers
 * run in order (index order, or under KP_CPU_SCHEDULE=random a new pseudo-random order each
 * round, cpu_schedule.c), each until it blocks (at syncthreads or a warp collective) or exits; when no
 * fiber can run, it completes what can be completed — a warp collective once every
 * lane of its mask has arrived, the block barrier once every thread has — and goes round
 * again. If nothing can be completed, some thread waits for one that will never come (a
 * barrier inside a branch, an early return before syncthreads): on a GPU that hangs or
 * silently corrupts results; here the launch fails with a message naming the kernel, the
 * block and the threads. Shared arrays are thread-locals of the worker, so the fibers of a
 * block see one copy, and one block runs at a time on a worker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_check.h"

enum { WARP = 32 };

typedef enum fiber_state { RUNNABLE, AT_BARRIER, AT_WARP, AT_GRID, EXITED } fiber_state;

typedef struct gpu_thread {
  kp_fiber_ctx ctx;
  unsigned tid[3];
  unsigned char state; /* fiber_state */
  unsigned char op;    /* kp_cpu_barrier_op or kp_cpu_warp_op while waiting */
  unsigned mask;       /* warp collectives: the lanes named by the caller */
  int value, arg;      /* operands while waiting */
  int result;          /* set when the wait completes */
} gpu_thread;

struct kp_cpu_block_runner {
  kp_fiber_ctx scheduler;
  kp_fiber_stacks stacks;
  gpu_thread *threads;
  unsigned capacity;
  /* the block being run */
  const kp_kernel_desc *kernel;
  void **args;
  unsigned n, current, exited, at_barrier, at_warp, at_grid;
  /* A cooperative launch's grid barrier (cpu_coop.c), NULL otherwise; set when grid_sync()
   * is reached outside one. */
  kp_cpu_grid_barrier *grid;
  int grid_sync_uncooperative;
  /* KP_CPU_SCHEDULE=random: the round's order of the threads (NULL: index order), the
   * position in it of the running thread, the launch's key and the round. */
  unsigned *order, position, round;
  unsigned *order_buffer, order_capacity;
  int shuffled;
  uint64_t key;
  char *msg;
  size_t msg_size;
  /* A block is running, or ended with fibers that never finished (a fault jumped out of
   * one, or a barrier could not complete): in sanitizer builds their state is cleared before
   * the slots are used again (kp_fiber_stacks_clean, kp_fiber_forget). */
  int running, abandoned;
};

kp_cpu_block_runner *kp_cpu_block_runner_new(void) {
  return calloc(1, sizeof(kp_cpu_block_runner));
}

void kp_cpu_block_runner_free(kp_cpu_block_runner *r) {
  if (!r) return;
  kp_fiber_stacks_release(&r->stacks);
  free(r->threads);
  free(r->order_buffer);
  free(r);
}

void kp_cpu_block_runner_grid(kp_cpu_block_runner *r, kp_cpu_grid_barrier *grid) {
  r->grid = grid;
}

void kp_cpu_block_runner_shuffle(kp_cpu_block_runner *r, int shuffled, uint64_t key) {
  r->shuffled = shuffled;
  r->key = key;
}

static const char *warp_op_name(unsigned op) {
  static const char *const names[] = {"shfl_sync()",   "shfl_up_sync()", "shfl_down_sync()",
                                      "shfl_xor_sync()", "ballot_sync()", "all_sync()",
                                      "any_sync()",    "syncwarp()",     "activemask()"};
  return op < sizeof names / sizeof names[0] ? names[op] : "a warp collective";
}

static const char *barrier_op_name(unsigned op) {
  static const char *const names[] = {"syncthreads()", "syncthreads_count()",
                                      "syncthreads_and()", "syncthreads_or()"};
  return op < sizeof names / sizeof names[0] ? names[op] : "syncthreads()";
}

/* ---- running fibers ---------------------------------------------------------------------- */

/* Makes thread i the running one: its indices for the kp_dev_* primitives, then its stack.
 * switch_to, yield and fiber_main are on a fiber's stack when it leaves for good: not
 * instrumented in sanitizer builds (fiber.c). */
KP_UNINSTRUMENTED static void switch_to(kp_cpu_block_runner *r, kp_fiber_ctx *from, unsigned i) {
  gpu_thread *t = &r->threads[i];
  r->current = i;
  memcpy(kp_cpu_state.tid, t->tid, sizeof t->tid);
  kp_cpu_state.linear_tid = i;
  kp_fiber_switch(from, &t->ctx);
}

/* A fiber that blocks or exits hands over directly to the next runnable fiber after it in the
 * round's order (one switch instead of two through the scheduler); the last one returns to
 * the scheduler, which then completes the waits. */
KP_UNINSTRUMENTED static void yield(kp_cpu_block_runner *r, gpu_thread *self) {
  if (r->order) {
    for (unsigned p = r->position + 1; p < r->n; p++)
      if (r->threads[r->order[p]].state == RUNNABLE) {
        r->position = p;
        switch_to(r, &self->ctx, r->order[p]);
        return;
      }
  } else {
    for (unsigned j = r->current + 1; j < r->n; j++)
      if (r->threads[j].state == RUNNABLE) {
        switch_to(r, &self->ctx, j);
        return;
      }
  }
  kp_fiber_switch(&self->ctx, &r->scheduler);
}

/* One round: every runnable fiber runs until it blocks or exits, in index order or in the
 * round's random order. */
static void run_round(kp_cpu_block_runner *r) {
  if (!r->order) {
    for (unsigned i = 0; i < r->n; i++)
      if (r->threads[i].state == RUNNABLE) switch_to(r, &r->scheduler, i);
    return;
  }
  const kp_cpu_thread_state *st = &kp_cpu_state;
  unsigned long long block =
      st->ctaid[0] + (unsigned long long)st->nctaid[0] *
                         (st->ctaid[1] + (unsigned long long)st->nctaid[1] * st->ctaid[2]);
  kp_cpu_schedule_threads(r->key, block, r->round++, r->order, r->n);
  for (unsigned p = 0; p < r->n; p++)
    if (r->threads[r->order[p]].state == RUNNABLE) {
      r->position = p;
      switch_to(r, &r->scheduler, r->order[p]);
    }
}

KP_UNINSTRUMENTED static void fiber_main(void *p) {
  kp_cpu_block_runner *r = p;
  ((kp_cpu_entry_fn)r->kernel->cpu_entry)(r->args);
  gpu_thread *t = &r->threads[r->current];
  t->state = EXITED;
  r->exited++;
  yield(r, t); /* never resumed */
}

/* Parks the calling fiber until the scheduler completes its wait; returns its result. */
static int wait_here(kp_cpu_block_runner *r) {
  gpu_thread *t = &r->threads[r->current];
  yield(r, t);
  return t->result;
}

int kp_cpu_block_barrier(kp_cpu_block_runner *r, kp_cpu_barrier_op op, int predicate) {
  gpu_thread *t = &r->threads[r->current];
  t->state = AT_BARRIER;
  t->op = (unsigned char)op;
  t->value = predicate != 0;
  r->at_barrier++;
  return wait_here(r);
}

/* grid_sync(): the fiber waits until every thread of the block is here, then the block waits
 * for the grid's other blocks (kp_cpu_block_run, kp_cpu_grid_barrier_wait). */
void kp_cpu_block_grid_sync(kp_cpu_block_runner *r) {
  gpu_thread *t = &r->threads[r->current];
  t->state = AT_GRID;
  r->at_grid++;
  if (!r->grid) r->grid_sync_uncooperative = 1;
  wait_here(r);
}

int kp_cpu_block_warp(kp_cpu_block_runner *r, kp_cpu_warp_op op, unsigned mask, int value,
                      int arg) {
  gpu_thread *t = &r->threads[r->current];
  t->state = AT_WARP;
  t->op = (unsigned char)op;
  t->mask = mask;
  t->value = value;
  t->arg = arg;
  r->at_warp++;
  return wait_here(r);
}

/* Lanes of warp w that exist (the last warp of a block may be partial). */
static unsigned existing_lanes(const kp_cpu_block_runner *r, unsigned w) {
  unsigned lanes = r->n - w * WARP;
  return lanes >= WARP ? ~0u : (1u << lanes) - 1u;
}

/* ---- completing waits -------------------------------------------------------------------- */

static int fail(kp_cpu_block_runner *r, const char *fmt, ...) KP_PRINTF(2, 3);
static int fail(kp_cpu_block_runner *r, const char *fmt, ...) {
  int n = snprintf(r->msg, r->msg_size, "kernel '%s', block (%u, %u, %u): ", r->kernel->name,
                   kp_cpu_state.ctaid[0], kp_cpu_state.ctaid[1], kp_cpu_state.ctaid[2]);
  if (n >= 0 && (size_t)n < r->msg_size) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg + n, r->msg_size - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

#define TID(t) (t)->tid[0], (t)->tid[1], (t)->tid[2]

/* The value lane `src` contributes to a shuffle by `lane`, or the lane's own value when the
 * source is outside the warp or the group (PTX shfl.sync's rule for out-of-range lanes). */
static int shuffle_source(const gpu_thread *warp, unsigned group, unsigned lane, long long src) {
  if (src < 0 || src >= WARP || !(group >> src & 1u)) return warp[lane].value;
  return warp[src].value;
}

static void complete_warp_group(gpu_thread *warp, unsigned group) {
  unsigned ballot = 0;
  for (unsigned l = 0; l < WARP; l++)
    if ((group >> l & 1u) && warp[l].value) ballot |= 1u << l;
  for (unsigned l = 0; l < WARP; l++) {
    if (!(group >> l & 1u)) continue;
    gpu_thread *t = &warp[l];
    switch ((kp_cpu_warp_op)t->op) {
    case KP_CPU_SHFL_IDX: t->result = shuffle_source(warp, group, l, t->arg & (WARP - 1)); break;
    case KP_CPU_SHFL_UP: t->result = shuffle_source(warp, group, l, (long long)l - (unsigned)t->arg); break;
    case KP_CPU_SHFL_DOWN: t->result = shuffle_source(warp, group, l, (long long)l + (unsigned)t->arg); break;
    case KP_CPU_SHFL_XOR: t->result = shuffle_source(warp, group, l, l ^ (unsigned)t->arg); break;
    case KP_CPU_BALLOT: t->result = (int)ballot; break;
    case KP_CPU_ALL: t->result = ballot == group; break;
    case KP_CPU_ANY: t->result = ballot != 0; break;
    case KP_CPU_SYNCWARP: t->result = 0; break;
    case KP_CPU_ACTIVEMASK: t->result = (int)group; break;
    }
    t->state = RUNNABLE;
  }
}

/* KP_CHECK=shuffle: a shuffle of the group that reads a lane of the warp outside it (not in
 * the mask, or no thread there) fails the launch; otherwise it would silently get the caller's
 * own value (shuffle_source), where a GPU gives an undefined one. */
static int check_shuffles(kp_cpu_block_runner *r, const gpu_thread *warp, unsigned group) {
  for (unsigned l = 0; l < WARP; l++) {
    if (!(group >> l & 1u)) continue;
    const gpu_thread *t = &warp[l];
    int src = kp_cpu_check_shuffle_source(t->op, l, t->arg, group);
    if (src >= 0)
      return fail(r, "thread (%u, %u, %u): checked mode (KP_CHECK): %s with mask 0x%08x and "
                     "lane operand %d reads lane %d, %s (on a GPU the result is undefined)",
                  TID(t), warp_op_name(t->op), t->mask, t->arg, src,
                  (t->mask >> src & 1u) ? "which no thread of the block runs (inactive)"
                                        : "which is not in the mask");
  }
  return 0;
}

/* Completes every warp collective whose lanes have all arrived. Returns how many groups
 * completed, or -1 (message written) when one can never complete because a lane exited. */
static int complete_warps(kp_cpu_block_runner *r) {
  int completed = 0;
  unsigned warps = (r->n + WARP - 1) / WARP;
  for (unsigned w = 0; w < warps && r->at_warp; w++) {
    gpu_thread *warp = &r->threads[w * WARP];
    unsigned existing = existing_lanes(r, w), waiting = 0;
    for (unsigned l = 0; l < WARP; l++)
      if ((existing >> l & 1u) && warp[l].state == AT_WARP) waiting |= 1u << l;
    /* activemask: the lanes that arrived at it together, i.e. all of the warp's lanes waiting
     * there once every live lane has run as far as it can. Lanes that run ahead alone (one
     * fiber after another) would otherwise see their warp as one lane wide. */
    unsigned converged = 0;
    for (unsigned l = 0; l < WARP; l++)
      if ((waiting >> l & 1u) && warp[l].op == KP_CPU_ACTIVEMASK) converged |= 1u << l;
    if (converged) {
      complete_warp_group(warp, converged);
      r->at_warp -= (unsigned)__builtin_popcount(converged);
      waiting &= ~converged;
      completed++;
    }
    unsigned pending = waiting;
    while (pending) {
      unsigned lane = (unsigned)__builtin_ctz(pending);
      gpu_thread *t = &warp[lane];
      unsigned group = t->mask & existing;
      pending &= ~(1u << lane);
      if (!(group >> lane & 1u))
        return fail(r, "thread (%u, %u, %u) called %s with mask 0x%08x, which does not "
                       "include its own lane %u",
                    TID(t), warp_op_name(t->op), t->mask, lane);
      int complete = (waiting & group) == group;
      for (unsigned l = 0; l < WARP; l++) {
        if (!(group >> l & 1u)) continue;
        if (warp[l].state == EXITED)
          return fail(r, "thread (%u, %u, %u) called %s with mask 0x%08x, but lane %u "
                         "(thread (%u, %u, %u)) had already exited; every lane named in the "
                         "mask must call the same collective",
                      TID(t), warp_op_name(t->op), t->mask, l, TID(&warp[l]));
        if (warp[l].state == AT_WARP && (warp[l].mask & existing) != group) complete = 0;
      }
      pending &= ~group;
      if (!complete) continue;
      if ((kp_cpu_check_mode() & KP_CHECK_SHUFFLE) && check_shuffles(r, warp, group) != 0)
        return -1;
      complete_warp_group(warp, group);
      r->at_warp -= (unsigned)__builtin_popcount(group);
      completed++;
    }
  }
  return completed;
}

static void complete_barrier(kp_cpu_block_runner *r) {
  int count = 0;
  for (unsigned i = 0; i < r->n; i++) count += r->threads[i].value;
  for (unsigned i = 0; i < r->n; i++) {
    gpu_thread *t = &r->threads[i];
    switch ((kp_cpu_barrier_op)t->op) {
    case KP_CPU_SYNC: t->result = 0; break;
    case KP_CPU_SYNC_COUNT: t->result = count; break;
    case KP_CPU_SYNC_AND: t->result = count == (int)r->n; break;
    case KP_CPU_SYNC_OR: t->result = count != 0; break;
    }
    t->state = RUNNABLE;
  }
  r->at_barrier = 0;
}

/* Nothing can run and nothing can complete: say who waits for whom. */
static int report_stuck(kp_cpu_block_runner *r) {
  const gpu_thread *exited = NULL, *barrier = NULL, *warp = NULL, *grid = NULL;
  for (unsigned i = 0; i < r->n; i++) {
    const gpu_thread *t = &r->threads[i];
    if (t->state == EXITED && !exited) exited = t;
    if (t->state == AT_BARRIER && !barrier) barrier = t;
    if (t->state == AT_WARP && !warp) warp = t;
    if (t->state == AT_GRID && !grid) grid = t;
  }
  if (grid && r->grid_sync_uncooperative)
    return fail(r, "thread (%u, %u, %u) called grid_sync(), but the launch is not "
                   "cooperative: the kernel reaches grid_sync() only through a device function "
                   "of another file, which the plugin cannot see; call grid_sync() in the "
                   "kernel's own file (a device function there is enough)",
                TID(grid));
  if (grid && !barrier && !warp)
    return fail(r, "grid_sync() was reached by %u of the block's %u threads; the other %u "
                   "exited without reaching it (first: thread (%u, %u, %u)). Every thread of "
                   "the grid must reach each grid_sync() (on a GPU this hangs)",
                r->at_grid, r->n, r->exited, TID(exited));
  if (grid)
    return fail(r, "threads wait for each other forever: %u at grid_sync() (first: thread "
                   "(%u, %u, %u)) and %u at %s (first: thread (%u, %u, %u)). Every thread of "
                   "the grid must reach each grid_sync() and every thread of a block each "
                   "barrier",
                r->at_grid, TID(grid), barrier ? r->at_barrier : r->at_warp,
                barrier ? barrier_op_name(barrier->op) : warp_op_name(warp->op),
                barrier ? barrier->tid[0] : warp->tid[0], barrier ? barrier->tid[1] : warp->tid[1],
                barrier ? barrier->tid[2] : warp->tid[2]);
  if (barrier && !warp)
    return fail(r, "%s was reached by %u of the block's %u threads; the other %u exited "
                   "without reaching it (first: thread (%u, %u, %u)). Every thread of a block "
                   "must reach each barrier (on a GPU this hangs or gives wrong results)",
                barrier_op_name(barrier->op), r->at_barrier, r->n, r->exited, TID(exited));
  if (barrier && warp)
    return fail(r, "threads wait for each other forever: %u at %s (first: thread (%u, %u, %u)) "
                   "and %u at %s (first: thread (%u, %u, %u), mask 0x%08x), whose lanes are "
                   "at the barrier. Every thread of a block must reach each barrier",
                r->at_barrier, barrier_op_name(barrier->op), TID(barrier), r->at_warp,
                warp_op_name(warp->op), TID(warp), warp->mask);
  return fail(r, "warp collectives never complete: thread (%u, %u, %u) waits in %s with mask "
                 "0x%08x for lanes that called a collective with a different mask",
              TID(warp), warp_op_name(warp->op), warp->mask);
}

/* ---- one block --------------------------------------------------------------------------- */

int kp_cpu_block_run(kp_cpu_block_runner *r, const kp_kernel_desc *k, void **args,
                     const unsigned block[3], size_t stack_bytes, kp_cpu_fault_guard *guard,
                     char *msg, size_t msg_size) {
  unsigned n = block[0] * block[1] * block[2];
  r->kernel = k, r->args = args, r->msg = msg, r->msg_size = msg_size;
  r->n = n, r->current = 0, r->exited = 0, r->at_barrier = 0, r->at_warp = 0, r->at_grid = 0;
  r->grid_sync_uncooperative = 0;
  r->order = NULL, r->position = 0, r->round = 0;
  if (n > r->capacity) {
    gpu_thread *grown = realloc(r->threads, n * sizeof *grown);
    if (!grown) return fail(r, "out of memory for %u fiber descriptors", n);
    /* zeroed: a context keeps its sanitizer state from block to block (kp_fiber_make) */
    memset(grown + r->capacity, 0, (n - r->capacity) * sizeof *grown);
    r->threads = grown, r->capacity = n;
  }
  if (r->shuffled) {
    if (n > r->order_capacity) {
      unsigned *grown = realloc(r->order_buffer, n * sizeof *grown);
      if (!grown) return fail(r, "out of memory for the order of %u fibers", n);
      r->order_buffer = grown, r->order_capacity = n;
    }
    r->order = r->order_buffer;
  }
  if (kp_fiber_stacks_reserve(&r->stacks, n, stack_bytes) != 0)
    return fail(r, "cannot map %u fiber stacks of %zu bytes (KP_CPU_STACK_SIZE)", n,
                stack_bytes);
  if (r->running || r->abandoned) {
    kp_fiber_stacks_clean(&r->stacks);
    for (unsigned j = 0; j < r->capacity; j++) kp_fiber_forget(&r->threads[j].ctx);
    r->abandoned = 0;
  }
  r->running = 1;
  kp_fiber_native(&r->scheduler);
  guard->stacks = &r->stacks;
  unsigned i = 0;
  for (unsigned z = 0; z < block[2]; z++)
    for (unsigned y = 0; y < block[1]; y++)
      for (unsigned x = 0; x < block[0]; x++, i++) {
        gpu_thread *t = &r->threads[i];
        t->tid[0] = x, t->tid[1] = y, t->tid[2] = z;
        t->state = RUNNABLE;
        kp_fiber_make(&t->ctx, kp_fiber_stack(&r->stacks, i), r->stacks.stack_bytes,
                      fiber_main, r);
      }

  kp_cpu_state.runner = r;
  int rc = 0;
  for (;;) {
    run_round(r);
    if (r->exited == n) break;
    int completed = r->at_warp ? complete_warps(r) : 0;
    if (completed < 0) {
      rc = -1;
      break;
    }
    if (completed > 0) continue;
    if (r->at_barrier + r->exited == n && r->exited == 0) {
      complete_barrier(r);
      continue;
    }
    if (r->at_grid == n && r->grid) { /* the whole block is at grid_sync(): wait for the grid */
      if (kp_cpu_grid_barrier_wait(r->grid, r->kernel->name, kp_cpu_state.ctaid, r->msg,
                                   r->msg_size) != 0) {
        rc = -1;
        break;
      }
      for (unsigned i = 0; i < n; i++) r->threads[i].state = RUNNABLE;
      r->at_grid = 0;
      continue;
    }
    rc = report_stuck(r);
    break;
  }
  kp_cpu_state.runner = NULL;
  guard->stacks = NULL;
  r->running = 0;
  r->abandoned = rc != 0;
  return rc;
}
