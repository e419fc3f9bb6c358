/* backend_cpu.c — kernels on all CPU cores.
 *
 * Blocks are spread over the pool's participants in chunks: each participant first takes the
 * chunks of its own lane of blocks, then steals from the others' (cpu_lanes.h), so that a core
 * runs the same blocks from launch to launch and blocks that take longer do not hold up a
 * static partition. Inside a
 * block the GPU threads run one after another: one call of the kernel's block entry, a loop
 * the plugin built with the body inlined (kp_abi.h), or, for descriptors without one, a loop
 * calling the per-thread entry. Kernels with barriers get a block entry too where the plugin
 * could split them at their barriers (KP_KERNEL_CPU_BLOCK_BARRIERS: one loop over the block's
 * threads per stretch between barriers); the others, and kernels with warp collectives, run
 * each block's threads as fibers (cpu_block.c), so plain kernels pay nothing for them. A
 * fault in kernel code
 * (cpu_fault.c) or a barrier that cannot complete fails the launch with the kernel, block and
 * thread, and the other workers stop taking blocks. Launches complete before they return, so
 * kp_synchronize() has nothing to wait for. "Device" memory is ordinary host memory, but
 * every transfer is a real copy so that programs behave as they do on a GPU. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/cpu_check.h"
#include "backend/cpu/cpu_lanes.h"
#include "core/env.h"
#include "core/launch.h"

enum {
  KP_CPU_DEFAULT_SHARED = 48 * 1024, /* CUDA's default per-block dynamic shared limit */
  KP_CPU_MAX_SHARED = 1 << 30,
  KP_CPU_DEFAULT_STACK = 128 * 1024, /* per fiber; CUDA's default is far smaller, but C
                                        programmers put arrays on the stack */
  KP_CPU_MIN_STACK = 16 * 1024,
  KP_CPU_MAX_STACK = 1 << 30,
  /* Worker threads: the usual main-thread stack, since kernels may keep sizeable local
   * arrays; KP_CPU_WORKER_STACK changes it. */
  KP_CPU_DEFAULT_WORKER_STACK = 8 << 20,
  KP_CPU_MIN_WORKER_STACK = 64 * 1024
};

static void **g_shared_buffers;            /* one per participant, max_shared_bytes each */
static kp_cpu_block_runner **g_runners;    /* one per participant, made on first use */
static size_t g_stack_bytes = KP_CPU_DEFAULT_STACK;
static size_t g_worker_stack_bytes = KP_CPU_DEFAULT_WORKER_STACK;
static char g_owner[128];

typedef struct cpu_grid {
  kp_kernel_desc *kernel;
  void **args;
  unsigned grid[3], block[3];
  int fibers; /* the kernel uses barriers or warp collectives and has no block entry for them */
  kp_cpu_block_fn block_entry; /* NULL: one call per thread */
  int split; /* block_entry is the kernel split at its barriers: whole blocks only */
  int runs;  /* block_entry runs a chunk's blocks in one call (all but old split entries) */
  int shuffled; /* KP_CPU_SCHEDULE=random: block b runs as kp_cpu_schedule_block(key, b) */
  uint64_t key;
  const kp_cpu_check_launch *check; /* KP_CHECK: what the checked entry's checks read */
  int checking; /* KP_CHECK is on: check (NULL or not) is to be entered on each participant */
  unsigned long long total_blocks, chunk, chunks;
  kp_cpu_lanes lanes; /* who takes which chunk (cpu_lanes.h) */
  atomic_int failed;     /* set once by the first participant that fails */
  _Atomic unsigned long long watch; /* the watchdog's number for it (0: not watched) */
  char message[1024];    /* its error, read after kp_pool_run returns */
} cpu_grid;

static void record_failure(cpu_grid *g, const char *msg) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&g->failed, &expected, 1))
    snprintf(g->message, sizeof g->message, "%s", msg);
}

/* What went wrong, after "kernel 'k', block (…), thread (…): ". participant: who ran it (0:
 * the launching host thread, whose stack is the program's, not ours). */
void kp_cpu_explain_fault(char *msg, size_t size, const kp_cpu_fault_guard *f, int participant) {
  if (f->signo == KP_CPU_CHECK_FAILED) {
    snprintf(msg, size, "%s", kp_cpu_check_message());
  } else if (f->stack_overflow) {
    snprintf(msg, size,
             "stack overflow: on the CPU backend each thread of a kernel with barriers or warp "
             "collectives runs on a fiber stack of %zu bytes; set KP_CPU_STACK_SIZE to more "
             "bytes or put less on the stack",
             g_stack_bytes);
  } else if (f->thread_stack_overflow && participant > 0) {
    snprintf(msg, size,
             "stack overflow: the kernel ran off the end of the %zu-byte stack of the CPU "
             "worker thread running the block (deep recursion or large local arrays); set "
             "KP_CPU_WORKER_STACK to more bytes or put less on the stack",
             g_worker_stack_bytes);
  } else if (f->thread_stack_overflow) {
    const char *low;
    snprintf(msg, size,
             "stack overflow: the kernel ran off the end of the %zu-byte stack of the host "
             "thread that launched it, which runs blocks too (deep recursion or large local "
             "arrays); give that thread a larger stack (ulimit -s for the main thread), set "
             "KP_CPU_WORKER_STACK for the worker threads, or put less on the stack",
             kp_cpu_thread_stack(&low));
  } else if (f->signo == KP_CPU_TIMEOUT_SIGNAL) {
    snprintf(msg, size,
             "did not finish within KP_CPU_TIMEOUT_MS=%lld ms; the CPU backend's watchdog "
             "stopped it (a kernel that never returns: check its loop conditions)",
             kp_cpu_timeout_ms);
  } else if (f->signo == SIGSEGV || f->signo == SIGBUS) {
    int n = snprintf(msg, size, "%s at address %p on the CPU backend (on a GPU: %s)",
                     kp_cpu_fault_describe(f), f->addr, kp_cpu_fault_gpu_equivalent(f));
    if (n > 0 && (size_t)n < size) kp_cpu_describe_address(msg + n, size - (size_t)n, f->addr);
  } else { /* the address of an instruction or nothing: not worth printing */
    snprintf(msg, size, "%s on the CPU backend (on a GPU: %s)", kp_cpu_fault_describe(f),
             kp_cpu_fault_gpu_equivalent(f));
  }
}

/* thread_known: kp_cpu_state.tid is the faulting thread. */
static void record_fault(cpu_grid *g, const kp_cpu_fault_guard *f, int thread_known,
                         int participant) {
  const kp_cpu_thread_state *st = &kp_cpu_state;
  char msg[1024];
  int n = thread_known
              ? snprintf(msg, sizeof msg, "kernel '%s', block (%u, %u, %u), thread (%u, %u, %u): ",
                         g->kernel->name, st->ctaid[0], st->ctaid[1], st->ctaid[2], st->tid[0],
                         st->tid[1], st->tid[2])
              : snprintf(msg, sizeof msg, "kernel '%s', block (%u, %u, %u), one of its threads: ",
                         g->kernel->name, st->ctaid[0], st->ctaid[1], st->ctaid[2]);
  if (n < 0 || (size_t)n >= sizeof msg) n = 0;
  kp_cpu_explain_fault(msg + n, sizeof msg - (size_t)n, f, participant);
  record_failure(g, msg);
}

/* The GPU threads of the current block, one after another. */
static void run_block_as_loop(const cpu_grid *g, kp_cpu_thread_state *st) {
  kp_cpu_entry_fn entry = g->kernel->cpu_entry;
  void **args = g->args;
  unsigned linear = 0;
  for (unsigned z = 0; z < g->block[2]; z++) {
    st->tid[2] = z;
    for (unsigned y = 0; y < g->block[1]; y++) {
      st->tid[1] = y;
      for (unsigned x = 0; x < g->block[0]; x++) {
        st->tid[0] = x;
        st->linear_tid = linear++;
        entry(args);
      }
    }
  }
}

/* Block b of the grid (linear, x fastest) into st->ctaid. */
static void set_block(const cpu_grid *g, kp_cpu_thread_state *st, unsigned long long b) {
  const unsigned long long gx = g->grid[0], gxy = gx * g->grid[1];
  st->ctaid[0] = (unsigned)(b % gx);
  st->ctaid[1] = (unsigned)((b / gx) % g->grid[1]);
  st->ctaid[2] = (unsigned)(b / gxy);
}

/* All the GPU threads of `count` blocks from st->ctaid on in one call of the block entry, so
 * that small blocks do not cost a call each (a split entry without KP_KERNEL_CPU_BLOCK_RUNS
 * runs one block: count is 1). */
static void run_block_entry(const cpu_grid *g, const kp_cpu_thread_state *st, unsigned count) {
  kp_cpu_thread_range run = {{0, 0, 0},
                             {g->block[0], g->block[1], g->block[2]},
                             {st->ctaid[0], st->ctaid[1], st->ctaid[2]},
                             count};
  g->block_entry(g->args, &run);
}

/* A block entry keeps the thread indices in registers, so after a fault kp_cpu_state does not
 * say which block and thread faulted. Replaying the run of blocks [first, end) one thread at a
 * time through the per-thread entry finds it (the first thread that faults). The launch has failed already and its
 * results are undefined, as on a GPU, so running the block's threads again changes nothing a
 * program may rely on (output from device printf before the fault appears twice). Returns 1
 * with `fault` updated when the replay faulted, 0 when it ran through. */
static int replay_to_find_thread(const cpu_grid *g, kp_cpu_thread_state *st,
                                 kp_cpu_block_runner *runner, kp_cpu_fault_guard *fault,
                                 unsigned long long first, unsigned long long end) {
  kp_cpu_fault_guard replay;
  replay.stacks = NULL;
  replay.launch = fault->launch;
  if (sigsetjmp(replay.env, 0)) {
    kp_cpu_fault_recovered(&replay);
    st->runner = NULL;
    /* Deep frames that fit the worker's stack may not fit a fiber's: keep the real fault. */
    if (g->split && replay.stack_overflow) return 0;
    fault->signo = replay.signo;
    fault->addr = replay.addr;
    fault->stack_overflow = replay.stack_overflow;
    fault->thread_stack_overflow = replay.thread_stack_overflow;
    return 1;
  }
  kp_cpu_fault_armed = &replay;
  if (!g->split) {
    for (unsigned long long b = first; b < end; b++) {
      set_block(g, st, b);
      run_block_as_loop(g, st);
    }
  } else if (runner) { /* the threads wait at barriers: replay them as the fibers they
                          * would have been, block by block */
    char msg[256];
    for (unsigned long long b = first; b < end; b++) {
      set_block(g, st, b);
      if (kp_cpu_block_run(runner, g->kernel, g->args, g->block, g_stack_bytes, &replay, msg,
                           sizeof msg) != 0)
        break;
    }
  }
  kp_cpu_fault_armed = NULL;
  return 0;
}

/* A grid of at most this many GPU threads that the caller runs alone goes to the block entry
 * in one call rather than chunk by chunk: the chunks were cut for participants that did not
 * come, and each call of an entry costs its set-up (the flat rows' pieces and checks: the
 * 10^3-float vector add, 4 blocks, ran as 2 chunks on 2 participants). Larger grids keep
 * their chunks, so that the replay after a fault (replay_to_find_thread) stays short. */
enum { KP_CPU_ONE_CALL_THREADS = 65536 };

/* Whether participant 0, alone, runs g in one call of its block entry. */
static int one_call(const cpu_grid *g, int alone) {
  return alone && g->block_entry && g->runs && !g->shuffled &&
         g->total_blocks <= KP_CPU_ONE_CALL_THREADS && /* no overflow below */
         g->total_blocks * g->block[0] * g->block[1] * g->block[2] <= KP_CPU_ONE_CALL_THREADS;
}

static void run_blocks(void *p, int participant, int alone) {
  cpu_grid *g = p;
  kp_cpu_thread_state *st = &kp_cpu_state;
  memcpy(st->ntid, g->block, sizeof st->ntid);
  memcpy(st->nctaid, g->grid, sizeof st->nctaid);
  st->kernel = g->kernel;
  st->dynamic_shared = g_shared_buffers[participant];
  /* Without KP_CHECK no thread ever enters a check: nothing to clear. */
  if (g->checking) kp_cpu_check_enter(g->check);
  kp_cpu_block_runner *runner = NULL;
  if (g->fibers || g->split) { /* split kernels need one only to replay a fault */
    if (!g_runners[participant]) g_runners[participant] = kp_cpu_block_runner_new();
    runner = g_runners[participant];
    if (!runner && g->fibers) {
      record_failure(g, "out of memory for the CPU backend's fiber scheduler");
      return;
    }
    /* Fibers' threads in a random order too; a split kernel's fault replay in index order,
     * as its entry ran them. */
    if (runner) kp_cpu_block_runner_shuffle(runner, g->fibers && g->shuffled, g->key);
  }
  char msg[1024];
  /* The blocks being run, for replay after a fault: volatile, since sigsetjmp returns here. */
  volatile unsigned long long run_first = 0, run_end = 0;

  kp_cpu_fault_guard guard;
  kp_cpu_fault_guard_begin(&guard, participant, &g->watch, g->kernel->name);
  if (sigsetjmp(guard.env, 0)) { /* a fault in kernel code (cpu_fault.c) */
    kp_cpu_fault_recovered(&guard);
    st->runner = NULL;
    /* A block entry hides which thread it was in; after a timeout, replaying would only run
     * the endless kernel again. */
    int thread_known = !g->block_entry ||
                       (guard.signo != KP_CPU_TIMEOUT_SIGNAL &&
                        replay_to_find_thread(g, st, runner, &guard, run_first, run_end));
    record_fault(g, &guard, thread_known, participant);
    goto out;
  }
  kp_cpu_fault_armed = &guard;
  if (one_call(g, alone)) { /* nobody else takes part: every block in one call */
    set_block(g, st, 0);
    run_first = 0, run_end = g->total_blocks;
    run_block_entry(g, st, (unsigned)g->total_blocks);
    goto done;
  }
  while (!atomic_load_explicit(&g->failed, memory_order_relaxed)) {
    unsigned long long start, end;
    if (!kp_cpu_lanes_take(&g->lanes, participant, &start, &end)) break;
    if (g->shuffled) { /* one block per chunk, in the launch's random order */
      start = kp_cpu_schedule_block(g->key, start, g->total_blocks), end = start + 1;
    }
    if (g->block_entry && g->runs) { /* the whole chunk in one call */
      set_block(g, st, start);
      run_first = start, run_end = end;
      run_block_entry(g, st, (unsigned)(end - start));
      continue;
    }
    for (unsigned long long b = start; b < end; b++) {
      set_block(g, st, b);
      run_first = b, run_end = b + 1;
      if (g->block_entry) {
        run_block_entry(g, st, 1);
      } else if (!g->fibers) {
        run_block_as_loop(g, st);
      } else if (kp_cpu_block_run(runner, g->kernel, g->args, g->block, g_stack_bytes, &guard,
                                  msg, sizeof msg) != 0) {
        record_failure(g, msg);
        break;
      }
    }
  }
done:
  kp_cpu_fault_armed = NULL;
out:
  st->kernel = NULL;
  st->dynamic_shared = NULL;
}

/* A kernel split at its barriers keeps the values live across them in per-thread arrays on
 * the stack of the thread running the block: up to ~260 KiB for 1024 threads. Workers have
 * 8 MiB stacks, but the launching thread is participant 0, and a host thread may have been
 * created with a small stack; it then runs the kernel as fibers, whose stacks are ours. */
enum { KP_CPU_SPLIT_STACK_NEED = 1 << 20 };

static int caller_stack_is_small(void) {
  const char *low; /* lowest usable address of this thread's stack */
  kp_cpu_thread_stack(&low);
  /* The frame, not a local's address: under ASan a local may live on its fake stack, on
   * the heap, which made this answer at random (finding 16). */
  const char *here = __builtin_frame_address(0);
  return low && here > low && (size_t)(here - low) < KP_CPU_SPLIT_STACK_NEED;
}

/* Blocks per chunk: ~16 chunks per participant balances load without hammering the counter.
 * With a block entry that runs a whole chunk in one call (coarse), a chunk of small blocks
 * gets at least KP_CPU_CHUNK_THREADS threads (a 4x4 block is 16) while every participant
 * still gets a chunk, so that a call of the block entry and a take from the counter are
 * spread over enough work, and an interchanged grid-stride entry gets long runs of
 * consecutive elements (seed 004's sum on 16 x 256 threads: 1.25x OpenMP with 4 chunks per
 * participant, 0.9x with one; 2026-11-24, 2-core EPYC, loaded). Split entries that run
 * runs of blocks (KP_KERNEL_CPU_BLOCK_RUNS) get them too: their per-thread arrays are set
 * up once per call. Kernels without such an entry (fibers, old split entries) keep the fine
 * chunks. At most 2^31 blocks (the range's count is 32-bit). */
enum { KP_CPU_CHUNKS_PER_PARTICIPANT = 16, KP_CPU_CHUNK_THREADS = 4096 };
static unsigned long long chunk_blocks(unsigned long long blocks, unsigned long long threads,
                                       unsigned long long participants, int coarse) {
  unsigned long long chunk = blocks / (participants * KP_CPU_CHUNKS_PER_PARTICIPANT);
  unsigned long long for_threads = (KP_CPU_CHUNK_THREADS + threads - 1) / threads;
  unsigned long long fair = blocks / participants;
  if (for_threads > fair) for_threads = fair;
  if (coarse && chunk < for_threads) chunk = for_threads;
  if (chunk < 1) chunk = 1;
  if (chunk > (1ull << 31)) chunk = 1ull << 31;
  return chunk;
}

static kp_error launch_grid(kp_kernel_desc *k, const kp_launch_config *cfg, void **args,
                            const kp_cpu_check_launch *check, int checking) {
  if (k->flags & KP_KERNEL_COOPERATIVE) /* grid_sync(): every block alive at once */
    return kp_cpu_launch_cooperative(k, cfg, args, check, g_stack_bytes);
  /* Not zero-initialised as a whole: message (1 KiB) and the lanes are written when used. */
  cpu_grid g;
  g.kernel = k, g.args = args, g.check = check, g.checking = checking;
  g.shuffled = 0, g.key = 0;
  atomic_init(&g.watch, 0);
  /* A kernel split at warp collectives runs warp by warp, each warp one row's 32 x. */
  int warp_rows = cfg->threads.x % 32 == 0 || (cfg->threads.y == 1 && cfg->threads.z == 1);
  g.split = ((k->flags & KP_KERNEL_CPU_BLOCK_BARRIERS) ||
             ((k->flags & KP_KERNEL_CPU_BLOCK_WARPS) && warp_rows)) &&
            k->cpu_block_entry && !caller_stack_is_small();
  g.fibers = !g.split && (k->flags & (KP_KERNEL_USES_BARRIER | KP_KERNEL_USES_WARP)) != 0;
  g.block_entry = g.fibers ? NULL : k->cpu_block_entry;
  g.runs = !g.split || (k->flags & KP_KERNEL_CPU_BLOCK_RUNS) != 0;
  g.grid[0] = (unsigned)cfg->blocks.x, g.grid[1] = (unsigned)cfg->blocks.y,
  g.grid[2] = (unsigned)cfg->blocks.z;
  g.block[0] = (unsigned)cfg->threads.x, g.block[1] = (unsigned)cfg->threads.y,
  g.block[2] = (unsigned)cfg->threads.z;
  g.total_blocks = (unsigned long long)g.grid[0] * g.grid[1] * g.grid[2];
  const unsigned long long participants = (unsigned long long)kp_pool_size();
  g.chunk = chunk_blocks(g.total_blocks, (unsigned long long)g.block[0] * g.block[1] * g.block[2],
                         participants, g.block_entry && g.runs);
  if (kp_cpu_schedule_random(NULL)) {
    g.shuffled = 1, g.chunk = 1;
    g.key = kp_cpu_schedule_launch_key();
  }
  g.chunks = (g.total_blocks + g.chunk - 1) / g.chunk;
  kp_cpu_lanes_init(&g.lanes, g.total_blocks, g.chunk, participants, g.shuffled);
  atomic_init(&g.failed, 0);
  kp_note_launched_kernel(k->name);
  /* The chunks are what can be shared: a grid of one chunk runs on the caller alone. */
  kp_pool_run(run_blocks, &g, g.chunks, g.chunk * g.block[0] * g.block[1] * g.block[2]);
  if (kp_cpu_timeout_ms) kp_cpu_watchdog_end(atomic_load(&g.watch));
  if (atomic_load(&g.failed)) return kp_fail(KP_ERROR_LAUNCH, "%s", g.message);
  return KP_SUCCESS;
}

/* KP_CHECK (cpu_check.c): the kernel's checked entry, one thread after another or as fibers. */
static kp_error cpu_launch(kp_kernel_desc *k, const kp_launch_config *cfg, void **args) {
  if (!kp_cpu_check_mode()) return launch_grid(k, cfg, args, NULL, 0);
  kp_cpu_check_launch check;
  kp_kernel_desc *run;
  kp_error rc = kp_cpu_check_prepare(&check, k, cfg->shared_bytes, args, &run);
  if (rc == KP_SUCCESS) rc = launch_grid(run, cfg, check.args, run == k ? NULL : &check, 1);
  kp_cpu_check_finish(&check);
  return rc;
}

/* Memory: every kind is host memory here, each allocation a guarded mapping of its own
 * (cpu_memory.c). Device arrays are separate allocations and every transfer a real copy
 * (transfers.c copies pinned and registered arrays into a temporary device array around a
 * launch, as on a GPU), so that a program behaves as it does there. */
static kp_error cpu_alloc(size_t bytes, void **out, const char *what) {
  return kp_cpu_map(bytes, out, what);
}

static kp_error cpu_release(void *p, size_t bytes, const char *what) {
  (void)what;
  kp_cpu_unmap(p, bytes);
  return KP_SUCCESS;
}

static kp_error cpu_alloc_kind(kp_memory_kind kind, size_t bytes, void **out, int *device,
                               const char *what) {
  (void)kind; /* device, managed and pinned are all guarded host memory */
  *device = 0;
  return kp_cpu_map(bytes, out, what);
}

static kp_error cpu_release_kind(kp_memory_kind kind, int device, void *p, size_t bytes,
                                 const char *what) {
  (void)kind, (void)device;
  return cpu_release(p, bytes, what);
}

/* Nothing to lock: the table entry memory.c makes is what registration means here. */
static kp_error cpu_register_host(void *p, size_t bytes, const char *what) {
  (void)p, (void)bytes, (void)what;
  return KP_SUCCESS;
}
static kp_error cpu_unregister_host(void *p, const char *what) {
  (void)p, (void)what;
  return KP_SUCCESS;
}

/* Kernels run on this process's threads: any host range is usable in place. */
static int cpu_host_range_needs_copy(const void *host, size_t bytes) {
  (void)host, (void)bytes;
  return 0;
}

static kp_error cpu_copy(void *dst, const void *src, size_t bytes, const char *what) {
  (void)what;
  memmove(dst, src, bytes);
  return KP_SUCCESS;
}

static kp_error cpu_synchronize(const char *what) {
  (void)what; /* launches are synchronous on the CPU */
  return KP_SUCCESS;
}

static void cpu_detect(void);
static int cpu_device_count(void) { return 0; /* GPUs usable by kernplug */ }

/* The CPU backend runs everything as device 0: selecting it is allowed (the same program runs
 * with and without a GPU), any other number is the mistake it would be on a one-GPU machine. */
static kp_error cpu_select_device(int device, const char *what) {
  if (device == 0) return KP_SUCCESS;
  return kp_fail(KP_ERROR_INVALID_VALUE,
                 "%s(%d): the CPU backend has no CUDA devices; it runs kernels on the CPU as "
                 "device 0, the only device that can be selected",
                 what, device);
}

static int cpu_current_device(void) { return 0; }

static kp_backend g_cpu; /* defined below; device 0's properties read its limits */

static kp_error cpu_device_properties(int device, kp_device_properties *p, const char *what) {
  if (device != 0)
    return kp_fail(KP_ERROR_INVALID_VALUE,
                   "%s(%d): the CPU backend has no CUDA devices; it runs kernels on the CPU as "
                   "device 0, the only device there is",
                   what, device);
  kp_cpu_describe_device(&g_cpu.limits, p);
  return KP_SUCCESS;
}

/* The child of fork() has only the thread that forked: the pool and the watchdog start their
 * threads again when next needed. */
static kp_error cpu_after_fork_child(char *why, size_t why_size) {
  (void)why, (void)why_size;
  kp_pool_after_fork_child();
  kp_cpu_watchdog_after_fork_child();
  kp_cpu_gpu_memory_after_fork_child();
  return KP_SUCCESS;
}

/* A block's threads run in order on one worker. For a grid-stride kernel over n items, 256
 * threads per block each handling KP_CPU_ITEMS_PER_THREAD items (blocks = n / 2048) was
 * fastest on a 2-core x86 machine when each GPU thread was one call of the per-thread entry:
 * 5x the one-item-per-thread grid at 5M floats, 3x at 50M (docs/ufuncs.md has the table).
 * With block entries (one loop per block) an add ufunc still takes 2.0 / 24 ms at 5M / 50M
 * floats with 8 items per thread against 2.8 / 32 ms with 1, but 108 ms against 84 ms at
 * 2^27 (2026-11-21). Reduce kernels write one partial result per block, so they get a grid
 * that just fills the workers. */
enum {
  KP_CPU_OCCUPANCY_BLOCK = 256,
  KP_CPU_ITEMS_PER_THREAD = 8,
  KP_CPU_BLOCKS_PER_WORKER = 16
};
static int cpu_occupancy(kp_kernel_desc *k, size_t dynamic_shared, int *min_grid, int *block) {
  (void)dynamic_shared;
  *block = KP_CPU_OCCUPANCY_BLOCK;
  *min_grid = (k->flags & KP_KERNEL_REDUCE) ? kp_pool_size() * KP_CPU_BLOCKS_PER_WORKER
                                            : 2147483647;
  return 0;
}

/* Each thread of a grid-stride kernel takes KP_CPU_ITEMS_PER_THREAD items (the grid is then
 * capped by cpu_occupancy's for reduce kernels only). */
static long long cpu_grid_stride_blocks(const kp_kernel_desc *k, long long items,
                                        long long threads) {
  (void)k;
  long long per_block = threads * KP_CPU_ITEMS_PER_THREAD;
  return (items + per_block - 1) / per_block;
}

static kp_error cpu_cooperative_blocks(kp_kernel_desc *k, long long threads,
                                       size_t dynamic_shared, long long *blocks) {
  (void)k;
  *blocks = kp_cpu_cooperative_limit(threads, dynamic_shared, g_stack_bytes);
  return KP_SUCCESS;
}

static kp_backend g_cpu = {
    .name = "cpu",
    .limits_owner = g_owner,
    /* CUDA's limits, so that a launch that works here also works on a GPU. */
    .limits = {.max_threads_per_block = 1024,
               .max_block = {1024, 1024, 64},
               .max_grid = {2147483647LL, 65535, 65535},
               .max_shared_bytes = KP_CPU_DEFAULT_SHARED,
               .shared_hint = "; set KP_CPU_SHARED_BYTES to raise it"},
    .launch_impl = cpu_launch,
    .launch_range = kp_cpu_launch_range,
    .alloc = cpu_alloc,
    .release = cpu_release,
    .alloc_kind = cpu_alloc_kind,
    .release_kind = cpu_release_kind,
    .register_host = cpu_register_host,
    .unregister_host = cpu_unregister_host,
    .host_range_needs_copy = cpu_host_range_needs_copy,
    .is_unreachable_gpu_memory = kp_cpu_is_gpu_memory,
    .to_device = cpu_copy,
    .to_host = cpu_copy,
    .device_to_device = cpu_copy,
    .fill = kp_cpu_fill,
    .synchronize = cpu_synchronize,
    .detect = cpu_detect,
    .device_count = cpu_device_count,
    .select_device = cpu_select_device,
    .current_device = cpu_current_device,
    .device_properties = cpu_device_properties,
    .occupancy = cpu_occupancy,
    .grid_stride_blocks = cpu_grid_stride_blocks,
    .cooperative_blocks = cpu_cooperative_blocks,
#define KP_CPU_STREAM_HOOK_INIT(Ret, Name, Params) .Name = kp_cpu_##Name,
    KP_BACKEND_STREAM_HOOKS(KP_CPU_STREAM_HOOK_INIT)
#undef KP_CPU_STREAM_HOOK_INIT
    .fork_locks = kp_cpu_memory_fork,
    .after_fork_child = cpu_after_fork_child,
    .before_abort = kp_cpu_fault_guard_drop,
};

static void cpu_detect(void) {
  printf("kernplug %d.%d.%d: kernels run on the CPU backend\n", KP_VERSION_MAJOR,
         KP_VERSION_MINOR, KP_VERSION_PATCH);
  printf("Reason: %s\n", kp_backend_reason());
  printf("Worker threads: %d (KP_NUM_THREADS sets it; default one per CPU this process may run on)\n", kp_pool_size());
  printf("Limits: %lld threads per block, %lld bytes of dynamic shared memory per block "
         "(KP_CPU_SHARED_BYTES sets it)\n",
         g_cpu.limits.max_threads_per_block, g_cpu.limits.max_shared_bytes);
  printf("Fiber stacks: %zu bytes per GPU thread of kernels with barriers or warp "
         "collectives (KP_CPU_STACK_SIZE sets it)\n",
         g_stack_bytes);
  printf("Worker stacks: %zu bytes per worker thread (KP_CPU_WORKER_STACK sets it)\n",
         g_worker_stack_bytes);
  if (kp_cpu_timeout_ms)
    printf("Watchdog: a launch fails after %lld ms (KP_CPU_TIMEOUT_MS)\n", kp_cpu_timeout_ms);
  else
    printf("Watchdog: off (KP_CPU_TIMEOUT_MS sets a time limit per launch)\n");
  unsigned long long seed = 0;
  if (kp_cpu_schedule_random(&seed))
    printf("Schedule: random, seed %llu: blocks in a new order each launch, a fiber block's "
           "threads in a new order each barrier interval (KP_CPU_SCHEDULE)\n",
           seed);
  else
    printf("Schedule: blocks and threads by index (KP_CPU_SCHEDULE=random:<seed> shuffles them)\n");
  printf("Checked mode: %s (KP_CHECK)\n", kp_cpu_check_describe());
  printf("Summary:\n\t0 CUDA devices in use; kernels run on %d CPU threads\n", kp_pool_size());
}

const kp_backend *kp_cpu_backend_init(char *why, size_t why_size) {
  long long n = kp_env_positive("KP_NUM_THREADS", kp_pool_default_size(), 1024, why, why_size);
  if (n < 0) return NULL;
  if (kp_cpu_schedule_init(why, why_size) != 0) return NULL;
  if (kp_cpu_check_init(why, why_size) != 0) return NULL;
  long long shared = kp_env_positive("KP_CPU_SHARED_BYTES", KP_CPU_DEFAULT_SHARED,
                                     KP_CPU_MAX_SHARED, why, why_size);
  if (shared < 0) return NULL;
  g_cpu.limits.max_shared_bytes = shared;
  long long stack = kp_env_positive("KP_CPU_STACK_SIZE", KP_CPU_DEFAULT_STACK, KP_CPU_MAX_STACK,
                                    why, why_size);
  if (stack < 0) return NULL;
  if (stack < KP_CPU_MIN_STACK) {
    snprintf(why, why_size, "KP_CPU_STACK_SIZE=%lld is below the minimum of %d bytes", stack,
             KP_CPU_MIN_STACK);
    return NULL;
  }
  g_stack_bytes = (size_t)stack;
  long long worker_stack = kp_env_positive("KP_CPU_WORKER_STACK", KP_CPU_DEFAULT_WORKER_STACK,
                                           KP_CPU_MAX_STACK, why, why_size);
  if (worker_stack < 0) return NULL;
  if (worker_stack < KP_CPU_MIN_WORKER_STACK) {
    snprintf(why, why_size, "KP_CPU_WORKER_STACK=%lld is below the minimum of %d bytes",
             worker_stack, KP_CPU_MIN_WORKER_STACK);
    return NULL;
  }
  g_worker_stack_bytes = (size_t)worker_stack;
  int started = kp_pool_start((int)n, g_worker_stack_bytes, why, why_size);
  if (started < 1) return NULL;
  if (kp_cpu_watchdog_init(started + KP_CPU_COOP_MAX_BLOCKS, why, why_size) != 0) return NULL;
  g_shared_buffers = calloc((size_t)started, sizeof *g_shared_buffers);
  g_runners = calloc((size_t)started, sizeof *g_runners);
  if (!g_shared_buffers || !g_runners) {
    snprintf(why, why_size, "out of memory for shared-memory buffers");
    return NULL;
  }
  /* Guarded like device arrays, so that a kernel overrunning its dynamic shared memory
   * faults instead of overwriting the heap. */
  for (int i = 0; i < started; i++) {
    if (kp_cpu_map_quiet((size_t)shared, &g_shared_buffers[i]) != 0) {
      snprintf(why, why_size, "out of memory for %d x %lld bytes of shared memory", started,
               shared);
      return NULL;
    }
  }
  snprintf(g_owner, sizeof g_owner, "the CPU backend");
  return &g_cpu;
}
