/* backend_cpu.c — kernels on all CPU cores.
 *
 * Blocks are spread over the pool's participants in chunks taken from an atomic counter
 * (dynamic scheduling: blocks that take longer do not hold up a static partition). Inside a
 * block the GPU threads run one after another as a loop calling the kernel's CPU entry, which
 * is only correct for kernels without barriers or warp collectives; the plugin flags those
 * and they are refused here until fibers arrive. Launches complete before they return, so
 * kp_synchronize() has nothing to wait for. "Device" memory is ordinary host memory, but
 * every transfer is a real copy so that programs behave as they do on a GPU. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kp_internal.h"

enum {
  KP_CPU_DEFAULT_SHARED = 48 * 1024, /* CUDA's default per-block dynamic shared limit */
  KP_CPU_MAX_SHARED = 1 << 30,
  KP_CPU_ALLOC_ALIGN = 256 /* cuMemAlloc's alignment: keep alignment behaviour identical */
};

static void **g_shared_buffers; /* one per participant, g_limits.max_shared_bytes each */
static char g_owner[128];

typedef struct cpu_grid {
  kp_kernel_desc *kernel;
  void **args;
  unsigned grid[3], block[3];
  unsigned long long total_blocks, chunk;
  atomic_ullong next_block;
} cpu_grid;

static void run_blocks(void *p, int participant) {
  cpu_grid *g = p;
  kp_cpu_thread_state *st = &kp_cpu_state;
  memcpy(st->ntid, g->block, sizeof st->ntid);
  memcpy(st->nctaid, g->grid, sizeof st->nctaid);
  st->kernel = g->kernel;
  st->dynamic_shared = g_shared_buffers[participant];
  kp_cpu_entry_fn entry = g->kernel->cpu_entry;
  void **args = g->args;
  const unsigned long long gx = g->grid[0], gxy = gx * g->grid[1];
  for (;;) {
    unsigned long long start = atomic_fetch_add_explicit(&g->next_block, g->chunk,
                                                         memory_order_relaxed);
    if (start >= g->total_blocks) break;
    unsigned long long end = start + g->chunk;
    if (end > g->total_blocks) end = g->total_blocks;
    for (unsigned long long b = start; b < end; b++) {
      st->ctaid[0] = (unsigned)(b % gx);
      st->ctaid[1] = (unsigned)((b / gx) % g->grid[1]);
      st->ctaid[2] = (unsigned)(b / gxy);
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
  }
  st->kernel = NULL;
  st->dynamic_shared = NULL;
}

static kp_error cpu_launch(kp_kernel_desc *k, const kp_launch_config *cfg, void **args) {
  if (k->flags & KP_KERNEL_USES_BARRIER)
    return kp_fail(KP_ERROR_UNSUPPORTED,
                   "launch(%s, ...): kernel '%s' uses syncthreads() (a block barrier), which the "
                   "CPU backend cannot run yet; run it on a GPU (KP_BACKEND=cuda)",
                   k->name, k->name);
  if (k->flags & KP_KERNEL_USES_WARP)
    return kp_fail(KP_ERROR_UNSUPPORTED,
                   "launch(%s, ...): kernel '%s' uses warp collectives (shfl/ballot/all/any/"
                   "syncwarp), which the CPU backend cannot run yet; run it on a GPU "
                   "(KP_BACKEND=cuda)",
                   k->name, k->name);
  cpu_grid g = {.kernel = k, .args = args};
  g.grid[0] = (unsigned)cfg->blocks.x, g.grid[1] = (unsigned)cfg->blocks.y,
  g.grid[2] = (unsigned)cfg->blocks.z;
  g.block[0] = (unsigned)cfg->threads.x, g.block[1] = (unsigned)cfg->threads.y,
  g.block[2] = (unsigned)cfg->threads.z;
  g.total_blocks = (unsigned long long)g.grid[0] * g.grid[1] * g.grid[2];
  /* ~16 chunks per participant balances load without hammering the counter. */
  unsigned long long per = (unsigned long long)kp_pool_size() * 16;
  g.chunk = g.total_blocks / per ? g.total_blocks / per : 1;
  atomic_init(&g.next_block, 0);
  kp_note_launched_kernel(k->name);
  kp_pool_run(run_blocks, &g);
  return KP_SUCCESS;
}

static kp_error cpu_alloc(size_t bytes, void **out, const char *what) {
  size_t rounded = (bytes + KP_CPU_ALLOC_ALIGN - 1) / KP_CPU_ALLOC_ALIGN * KP_CPU_ALLOC_ALIGN;
  if (rounded == 0) rounded = KP_CPU_ALLOC_ALIGN; /* a unique pointer even for 0 bytes */
  void *p = rounded >= bytes ? aligned_alloc(KP_CPU_ALLOC_ALIGN, rounded) : NULL;
  if (!p)
    return kp_fail(KP_ERROR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes on the CPU backend",
                   what, bytes);
  *out = p;
  return KP_SUCCESS;
}

static kp_error cpu_release(void *p, const char *what) {
  (void)what;
  free(p);
  return KP_SUCCESS;
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

static kp_backend g_cpu = {
    .name = "cpu",
    .limits_owner = g_owner,
    /* CUDA's limits, so that a launch that works here also works on a GPU. */
    .limits = {.max_threads_per_block = 1024,
               .max_block = {1024, 1024, 64},
               .max_grid = {2147483647LL, 65535, 65535},
               .max_shared_bytes = KP_CPU_DEFAULT_SHARED},
    .launch = cpu_launch,
    .alloc = cpu_alloc,
    .release = cpu_release,
    .to_device = cpu_copy,
    .to_host = cpu_copy,
    .synchronize = cpu_synchronize,
    .detect = cpu_detect,
    .device_count = cpu_device_count,
};

static void cpu_detect(void) {
  printf("kernplug %d.%d.%d: kernels run on the CPU backend\n", KP_VERSION_MAJOR,
         KP_VERSION_MINOR, KP_VERSION_PATCH);
  printf("Reason: %s\n", kp_backend_reason());
  printf("Worker threads: %d (KP_NUM_THREADS sets it; default one per core)\n", kp_pool_size());
  printf("Limits: %lld threads per block, %lld bytes of dynamic shared memory per block "
         "(KP_CPU_SHARED_BYTES sets it)\n",
         g_cpu.limits.max_threads_per_block, g_cpu.limits.max_shared_bytes);
  printf("Not yet on the CPU backend: kernels with syncthreads() or warp collectives\n");
  printf("Summary:\n\t0 CUDA devices in use; kernels run on %d CPU threads\n", kp_pool_size());
}

const kp_backend *kp_cpu_backend_init(char *why, size_t why_size) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 1;
  long long n = kp_env_positive("KP_NUM_THREADS", cores, 1024, why, why_size);
  if (n < 0) return NULL;
  long long shared = kp_env_positive("KP_CPU_SHARED_BYTES", KP_CPU_DEFAULT_SHARED,
                                     KP_CPU_MAX_SHARED, why, why_size);
  if (shared < 0) return NULL;
  g_cpu.limits.max_shared_bytes = shared;
  int started = kp_pool_start((int)n, why, why_size);
  if (started < 1) return NULL;
  g_shared_buffers = calloc((size_t)started, sizeof *g_shared_buffers);
  if (!g_shared_buffers) {
    snprintf(why, why_size, "out of memory for shared-memory buffers");
    return NULL;
  }
  size_t bytes = ((size_t)shared + 63) / 64 * 64;
  for (int i = 0; i < started; i++) {
    g_shared_buffers[i] = aligned_alloc(64, bytes);
    if (!g_shared_buffers[i]) {
      snprintf(why, why_size, "out of memory for %d x %lld bytes of shared memory", started,
               shared);
      return NULL;
    }
  }
  snprintf(g_owner, sizeof g_owner, "the CPU backend");
  return &g_cpu;
}
