/* cpu_coop.c — cooperative launches on the CPU backend: kernels that reach grid_sync().
 *
 * grid_sync() needs every thread of the grid alive at once, which the worker pool's "run a
 * block to its end, then take the next" cannot give. A cooperative launch instead runs each
 * block on a thread of its own, all started together, each block's GPU threads as fibers
 * (cpu_block.c): a thread of its own because `shared` arrays are thread-locals, so two
 * blocks alive on one thread would share them. When all fibers of a block are at grid_sync()
 * the block's thread waits at the grid barrier below; the last block to arrive releases
 * them all. Block barriers and warp collectives between grid syncs work as in any fiber
 * block. A grid_sync() that can never complete (a block that exits without reaching it, some
 * threads of a block that skip it) fails the launch naming the kernel and the blocks, as a
 * barrier inside a branch does; a fault or the watchdog (KP_CPU_TIMEOUT_MS) in one block
 * releases the others, which stop.
 *
 * The co-resident limit (kp_cpu_cooperative_limit) is what memory allows: every thread of
 * the grid has a fiber stack of KP_CPU_STACK_SIZE bytes at once, the blocks' threads a stack
 * each, and each block its dynamic shared memory; at most half the machine's memory, and at
 * most KP_CPU_COOP_MAX_BLOCKS threads, and at most the fibers whose stacks (two mappings
 * each, with the guard) fit in vm.max_map_count. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_check.h"
#include "core/launch.h"

enum {
  KP_CPU_COOP_THREAD_STACK = 256 * 1024, /* the block's scheduler only: kernel code is on fibers */
  KP_CPU_COOP_MIN_SHARED = 256,
  KP_CPU_COOP_OTHER_MAPS = 16384 /* mappings left for the program and the rest of the runtime */
};

/* ---- the grid barrier -------------------------------------------------------------------- */

struct kp_cpu_grid_barrier {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned long long blocks, arrived, exited, generation;
  unsigned exited_block[3]; /* the first block that exited */
  int failed;               /* the barrier can never complete: every waiter returns -1 */
  char message[512];        /* why, when a block found it out (not for a block's fault) */
};

static void barrier_init(kp_cpu_grid_barrier *g, unsigned long long blocks) {
  memset(g, 0, sizeof *g);
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  g->blocks = blocks;
}

static void barrier_destroy(kp_cpu_grid_barrier *g) {
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
}

/* With g->mu held: a block exited while others wait, or arrived after one exited. */
static void deadlock_locked(kp_cpu_grid_barrier *g, const char *kernel) {
  if (!g->failed)
    snprintf(g->message, sizeof g->message,
             "kernel '%s': grid_sync() can never complete: block (%u, %u, %u) exited without "
             "reaching it while other blocks wait there. Every thread of the grid must reach "
             "each grid_sync() (on a GPU this hangs)",
             kernel, g->exited_block[0], g->exited_block[1], g->exited_block[2]);
  g->failed = 1;
  pthread_cond_broadcast(&g->cv);
}

int kp_cpu_grid_barrier_wait(kp_cpu_grid_barrier *g, const char *kernel, const unsigned block[3],
                             char *msg, size_t msg_size) {
  (void)block;
  /* The watchdog's signal must not jump out of this wait (its lock would stay held): the
   * block's guard is off until the block's fibers run again. */
  kp_cpu_fault_guard *armed = kp_cpu_fault_armed;
  kp_cpu_fault_armed = NULL;
  atomic_signal_fence(memory_order_seq_cst);
  pthread_mutex_lock(&g->mu);
  if (g->exited && !g->failed) deadlock_locked(g, kernel);
  unsigned long long generation = g->generation;
  if (!g->failed && ++g->arrived == g->blocks) { /* the last block releases the others */
    g->arrived = 0;
    g->generation++;
    pthread_cond_broadcast(&g->cv);
  }
  while (!g->failed && g->generation == generation) pthread_cond_wait(&g->cv, &g->mu);
  int failed = g->generation == generation; /* released by a failure, not by the others */
  if (failed)
    snprintf(msg, msg_size, "%s",
             g->message[0] ? g->message : "stopped at grid_sync() after another block failed");
  pthread_mutex_unlock(&g->mu);
  atomic_signal_fence(memory_order_seq_cst);
  kp_cpu_fault_armed = armed;
  return failed ? -1 : 0;
}

/* A block whose threads have all exited: no block may wait at grid_sync() any more. */
static void barrier_leave(kp_cpu_grid_barrier *g, const char *kernel, const unsigned block[3]) {
  pthread_mutex_lock(&g->mu);
  if (!g->exited++) memcpy(g->exited_block, block, sizeof g->exited_block);
  if (g->arrived) deadlock_locked(g, kernel);
  pthread_mutex_unlock(&g->mu);
}

/* A block failed (its error is recorded already): release the others. */
static void barrier_abandon(kp_cpu_grid_barrier *g) {
  pthread_mutex_lock(&g->mu);
  g->failed = 1;
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

/* ---- the launch -------------------------------------------------------------------------- */

typedef struct coop_launch {
  kp_kernel_desc *kernel;
  void **args;
  unsigned grid[3], block[3];
  size_t stack_bytes, shared_bytes;
  const kp_cpu_check_launch *check;
  kp_cpu_grid_barrier barrier;
  _Atomic unsigned long long watch; /* the watchdog's number for the launch (0: not watched) */
  atomic_int failed;
  char message[1024];
  int first_participant; /* the watchdog's slot of block 0's thread */
  int shuffled;           /* KP_CPU_SCHEDULE=random: each block's fibers in its order */
  uint64_t key;
  /* Block threads stay alive until the launch has left the watchdog (the gate), which may
   * signal them until then. */
  pthread_mutex_t gate_mu;
  pthread_cond_t gate_cv;
  unsigned long long finished;
  int open;
} coop_launch;

typedef struct coop_block {
  coop_launch *launch;
  unsigned long long index;
  pthread_t thread;
} coop_block;

static void record(coop_launch *c, const char *msg) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&c->failed, &expected, 1))
    snprintf(c->message, sizeof c->message, "%s", msg);
}

static void *run_block(void *p) {
  coop_block *b = p;
  coop_launch *c = b->launch;
  kp_cpu_thread_state *st = &kp_cpu_state;
  memcpy(st->ntid, c->block, sizeof st->ntid);
  memcpy(st->nctaid, c->grid, sizeof st->nctaid);
  const unsigned long long gx = c->grid[0], gxy = gx * c->grid[1];
  st->ctaid[0] = (unsigned)(b->index % gx);
  st->ctaid[1] = (unsigned)((b->index / gx) % c->grid[1]);
  st->ctaid[2] = (unsigned)(b->index / gxy);
  st->kernel = c->kernel;
  void *shared = NULL;
  kp_cpu_block_runner *runner = kp_cpu_block_runner_new();
  char msg[1024];
  if (!runner || kp_cpu_map_quiet(c->shared_bytes, &shared) != 0) {
    snprintf(msg, sizeof msg,
             "kernel '%s', block (%u, %u, %u): out of memory for a block of a cooperative "
             "launch",
             c->kernel->name, st->ctaid[0], st->ctaid[1], st->ctaid[2]);
    record(c, msg);
    barrier_abandon(&c->barrier);
    kp_cpu_block_runner_free(runner);
    runner = NULL;
    goto gate;
  }
  st->dynamic_shared = shared;
  kp_cpu_check_enter(c->check);
  kp_cpu_block_runner_grid(runner, &c->barrier);
  kp_cpu_block_runner_shuffle(runner, c->shuffled, c->key);
  int participant = c->first_participant + (int)b->index;
  kp_cpu_fault_guard guard;
  /* Never participant 0: the launching thread started the watch (kp_cpu_launch_cooperative). */
  kp_cpu_fault_guard_begin(&guard, participant > 0 ? participant : 1, &c->watch,
                           c->kernel->name);
  if (sigsetjmp(guard.env, 0)) { /* a fault in kernel code, or the watchdog */
    kp_cpu_fault_recovered(&guard);
    st->runner = NULL;
    int n = snprintf(msg, sizeof msg, "kernel '%s', block (%u, %u, %u), thread (%u, %u, %u): ",
                     c->kernel->name, st->ctaid[0], st->ctaid[1], st->ctaid[2], st->tid[0],
                     st->tid[1], st->tid[2]);
    if (n < 0 || (size_t)n >= sizeof msg) n = 0;
    kp_cpu_explain_fault(msg + n, sizeof msg - (size_t)n, &guard, participant);
    record(c, msg);
    barrier_abandon(&c->barrier);
    goto out;
  }
  kp_cpu_fault_armed = &guard;
  int rc = kp_cpu_block_run(runner, c->kernel, c->args, c->block, c->stack_bytes, &guard, msg,
                            sizeof msg);
  kp_cpu_fault_armed = NULL; /* no jump out of the barrier's lock below */
  if (rc != 0) {
    record(c, msg);
    barrier_abandon(&c->barrier);
  } else {
    barrier_leave(&c->barrier, c->kernel->name, st->ctaid);
  }
out:
  st->kernel = NULL;
  st->dynamic_shared = NULL;
  kp_cpu_unmap(shared, c->shared_bytes);
gate:
  pthread_mutex_lock(&c->gate_mu);
  c->finished++;
  pthread_cond_broadcast(&c->gate_cv);
  while (!c->open) pthread_cond_wait(&c->gate_cv, &c->gate_mu);
  pthread_mutex_unlock(&c->gate_mu);
  kp_cpu_block_runner_free(runner);
  return NULL;
}

long long kp_cpu_cooperative_limit(long long threads, size_t dynamic_shared, size_t stack_bytes) {
  long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
  if (page <= 0 || pages <= 0) return KP_CPU_COOP_MAX_BLOCKS;
  unsigned long long budget = (unsigned long long)page * (unsigned long long)pages / 2;
  /* Per block: a fiber stack and its guard page per thread, the block thread's stack, its
   * dynamic shared memory. */
  unsigned long long per_block =
      (unsigned long long)threads * (stack_bytes + (size_t)page) + KP_CPU_COOP_THREAD_STACK +
      dynamic_shared + (size_t)page;
  unsigned long long blocks = budget / per_block;
  /* Each fiber stack and its guard are two mappings: the process's limit on mappings
   * (vm.max_map_count), less room for everything else, caps the fibers. */
  long long maps = 65530;
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  if (f) {
    if (fscanf(f, "%lld", &maps) != 1) maps = 65530;
    fclose(f);
  }
  unsigned long long fibers = maps > 2 * KP_CPU_COOP_OTHER_MAPS
                                  ? (unsigned long long)(maps - KP_CPU_COOP_OTHER_MAPS) / 2
                                  : 0;
  if (blocks > fibers / (unsigned long long)threads) blocks = fibers / (unsigned long long)threads;
  return blocks > KP_CPU_COOP_MAX_BLOCKS ? KP_CPU_COOP_MAX_BLOCKS : (long long)blocks;
}

/* One cooperative launch at a time: the watchdog's slots for block threads are shared. */
static pthread_mutex_t g_coop_mu = PTHREAD_MUTEX_INITIALIZER;

kp_error kp_cpu_launch_cooperative(kp_kernel_desc *k, const kp_launch_config *cfg, void **args,
                                   const struct kp_cpu_check_launch *check, size_t stack_bytes) {
  unsigned long long blocks =
      (unsigned long long)cfg->blocks.x * (unsigned long long)cfg->blocks.y * cfg->blocks.z;
  coop_launch *c = calloc(1, sizeof *c);
  coop_block *threads = calloc(blocks, sizeof *threads);
  if (!c || !threads) {
    free(c), free(threads);
    return kp_fail(KP_ERROR_OUT_OF_MEMORY,
                   "launch(%s, ...): out of memory for a cooperative launch of %llu blocks",
                   k->name, blocks);
  }
  c->kernel = k, c->args = args, c->check = check, c->stack_bytes = stack_bytes;
  c->grid[0] = (unsigned)cfg->blocks.x, c->grid[1] = (unsigned)cfg->blocks.y;
  c->grid[2] = (unsigned)cfg->blocks.z;
  c->block[0] = (unsigned)cfg->threads.x, c->block[1] = (unsigned)cfg->threads.y;
  c->block[2] = (unsigned)cfg->threads.z;
  c->shared_bytes = cfg->shared_bytes > KP_CPU_COOP_MIN_SHARED ? cfg->shared_bytes
                                                                : KP_CPU_COOP_MIN_SHARED;
  c->first_participant = kp_pool_size();
  barrier_init(&c->barrier, blocks);
  pthread_mutex_init(&c->gate_mu, NULL);
  pthread_cond_init(&c->gate_cv, NULL);
  c->shuffled = kp_cpu_schedule_random(NULL);
  if (c->shuffled) c->key = kp_cpu_schedule_launch_key();
  atomic_init(&c->failed, 0);
  atomic_init(&c->watch, 0);
  kp_note_launched_kernel(k->name);

  pthread_mutex_lock(&g_coop_mu);
  if (kp_cpu_timeout_ms) atomic_store(&c->watch, kp_cpu_watchdog_begin(k->name));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, KP_CPU_COOP_THREAD_STACK);
  unsigned long long started = 0;
  for (; started < blocks; started++) {
    threads[started].launch = c, threads[started].index = started;
    if (pthread_create(&threads[started].thread, &attr, run_block, &threads[started]) != 0) {
      char msg[256];
      snprintf(msg, sizeof msg,
               "launch(%s, ...): cannot start a thread for block %llu of a cooperative launch "
               "of %llu blocks (the system's thread limit)",
               k->name, started, blocks);
      record(c, msg);
      barrier_abandon(&c->barrier);
      break;
    }
  }
  pthread_attr_destroy(&attr);
  pthread_mutex_lock(&c->gate_mu);
  while (c->finished < started) pthread_cond_wait(&c->gate_cv, &c->gate_mu);
  pthread_mutex_unlock(&c->gate_mu);
  if (kp_cpu_timeout_ms) { /* from now on the watchdog signals none of the block threads */
    kp_cpu_watchdog_end(atomic_load(&c->watch));
    kp_cpu_watchdog_forget(c->first_participant, (int)started);
  }
  pthread_mutex_lock(&c->gate_mu);
  c->open = 1;
  pthread_cond_broadcast(&c->gate_cv);
  pthread_mutex_unlock(&c->gate_mu);
  for (unsigned long long i = 0; i < started; i++) pthread_join(threads[i].thread, NULL);
  pthread_mutex_unlock(&g_coop_mu);
  barrier_destroy(&c->barrier);
  pthread_mutex_destroy(&c->gate_mu);
  pthread_cond_destroy(&c->gate_cv);
  kp_error rc = atomic_load(&c->failed) ? kp_fail(KP_ERROR_LAUNCH, "%s", c->message) : KP_SUCCESS;
  free(threads);
  free(c);
  return rc;
}
