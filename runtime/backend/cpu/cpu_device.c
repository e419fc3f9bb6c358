/* cpu_device.c — the kp_dev_* primitives of kernplug.h for kernels running on the CPU.
 *
 * The plugin keeps a host copy of each kernel body; its calls to kp_dev_* resolve here. The
 * CPU backend sets kp_cpu_state on the worker before each simulated GPU thread runs (the
 * fiber scheduler at every switch), so the index primitives are plain thread-local reads.
 * Not initial-exec: the runtime must load with dlopen() too (a library with kernels loaded by
 * Python's ctypes), and one initial-exec variable asks for the runtime's whole TLS block in
 * the small static surplus glibc keeps for dlopen (docs/runtime.md "Thread-local storage"). */
#include <stdatomic.h>
#include <time.h>

#include "backend/cpu/cpu_backend.h"

_Thread_local kp_cpu_thread_state kp_cpu_state = {
    .ntid = {1, 1, 1}, .nctaid = {1, 1, 1}};

KP_EXPORT unsigned kp_dev_tid_x(void) { return kp_cpu_state.tid[0]; }
KP_EXPORT unsigned kp_dev_tid_y(void) { return kp_cpu_state.tid[1]; }
KP_EXPORT unsigned kp_dev_tid_z(void) { return kp_cpu_state.tid[2]; }
KP_EXPORT unsigned kp_dev_ctaid_x(void) { return kp_cpu_state.ctaid[0]; }
KP_EXPORT unsigned kp_dev_ctaid_y(void) { return kp_cpu_state.ctaid[1]; }
KP_EXPORT unsigned kp_dev_ctaid_z(void) { return kp_cpu_state.ctaid[2]; }
KP_EXPORT unsigned kp_dev_ntid_x(void) { return kp_cpu_state.ntid[0]; }
KP_EXPORT unsigned kp_dev_ntid_y(void) { return kp_cpu_state.ntid[1]; }
KP_EXPORT unsigned kp_dev_ntid_z(void) { return kp_cpu_state.ntid[2]; }
KP_EXPORT unsigned kp_dev_nctaid_x(void) { return kp_cpu_state.nctaid[0]; }
KP_EXPORT unsigned kp_dev_nctaid_y(void) { return kp_cpu_state.nctaid[1]; }
KP_EXPORT unsigned kp_dev_nctaid_z(void) { return kp_cpu_state.nctaid[2]; }
/* Warps are 32 consecutive linear thread ids, as on the GPU. */
KP_EXPORT unsigned kp_dev_laneid(void) { return kp_cpu_state.linear_tid % 32u; }

/* Barriers and warp collectives suspend the calling fiber until the block's scheduler
 * (cpu_block.c) completes them. The CPU backend runs a block as fibers when the plugin flags
 * the kernel as using them, so reaching one without a runner means a descriptor without the
 * flag: stop rather than compute garbage. */
static kp_cpu_block_runner *runner_for(const char *primitive) {
  kp_cpu_block_runner *r = kp_cpu_state.runner;
  if (r) return r;
  const kp_kernel_desc *k = kp_cpu_state.kernel;
  kp_fatal("kernel '%s' called %s on the CPU backend, but its descriptor does not declare "
           "KP_KERNEL_USES_BARRIER/KP_KERNEL_USES_WARP, so its threads do not run as fibers "
           "(was it built by another version of kernplug?)",
           k ? k->name : "?", primitive);
}

KP_EXPORT void kp_dev_syncthreads(void) {
  kp_cpu_block_barrier(runner_for("syncthreads()"), KP_CPU_SYNC, 0);
}
KP_EXPORT int kp_dev_syncthreads_count(int predicate) {
  return kp_cpu_block_barrier(runner_for("syncthreads_count()"), KP_CPU_SYNC_COUNT, predicate);
}
KP_EXPORT int kp_dev_syncthreads_and(int predicate) {
  return kp_cpu_block_barrier(runner_for("syncthreads_and()"), KP_CPU_SYNC_AND, predicate);
}
KP_EXPORT int kp_dev_syncthreads_or(int predicate) {
  return kp_cpu_block_barrier(runner_for("syncthreads_or()"), KP_CPU_SYNC_OR, predicate);
}
KP_EXPORT void kp_dev_grid_sync(void) { kp_cpu_block_grid_sync(runner_for("grid_sync()")); }
KP_EXPORT void kp_dev_syncwarp(unsigned mask) {
  kp_cpu_block_warp(runner_for("syncwarp()"), KP_CPU_SYNCWARP, mask, 0, 0);
}
KP_EXPORT int kp_dev_shfl_idx(unsigned mask, int value, int src_lane) {
  return kp_cpu_block_warp(runner_for("shfl_sync()"), KP_CPU_SHFL_IDX, mask, value, src_lane);
}
KP_EXPORT int kp_dev_shfl_up(unsigned mask, int value, unsigned delta) {
  return kp_cpu_block_warp(runner_for("shfl_up_sync()"), KP_CPU_SHFL_UP, mask, value,
                           (int)delta);
}
KP_EXPORT int kp_dev_shfl_down(unsigned mask, int value, unsigned delta) {
  return kp_cpu_block_warp(runner_for("shfl_down_sync()"), KP_CPU_SHFL_DOWN, mask, value,
                           (int)delta);
}
KP_EXPORT int kp_dev_shfl_xor(unsigned mask, int value, int lane_mask) {
  return kp_cpu_block_warp(runner_for("shfl_xor_sync()"), KP_CPU_SHFL_XOR, mask, value,
                           lane_mask);
}
KP_EXPORT unsigned kp_dev_ballot(unsigned mask, int predicate) {
  return (unsigned)kp_cpu_block_warp(runner_for("ballot_sync()"), KP_CPU_BALLOT, mask,
                                     predicate != 0, 0);
}
KP_EXPORT int kp_dev_all(unsigned mask, int predicate) {
  return kp_cpu_block_warp(runner_for("all_sync()"), KP_CPU_ALL, mask, predicate != 0, 0);
}
KP_EXPORT int kp_dev_any(unsigned mask, int predicate) {
  return kp_cpu_block_warp(runner_for("any_sync()"), KP_CPU_ANY, mask, predicate != 0, 0);
}
/* activemask: the lanes of the warp that reach this call together. The CPU cannot track
 * divergence, so that is every lane of the warp that has not exited and is not waiting
 * elsewhere once all of them have run as far as they can. */
KP_EXPORT unsigned kp_dev_activemask(void) {
  return (unsigned)kp_cpu_block_warp(runner_for("activemask()"), KP_CPU_ACTIVEMASK, 0, 0, 0);
}

/* Fences: CUDA's threadfence orders this thread's memory accesses for all observers; a
 * sequentially consistent fence is the closest (and strongest) C equivalent. */
KP_EXPORT void kp_dev_threadfence(void) { atomic_thread_fence(memory_order_seq_cst); }
KP_EXPORT void kp_dev_threadfence_block(void) { atomic_thread_fence(memory_order_seq_cst); }
KP_EXPORT void kp_dev_threadfence_system(void) { atomic_thread_fence(memory_order_seq_cst); }

/* CUDA's wrapping increment/decrement (atomicInc/atomicDec), as compare-and-swap loops. */
KP_EXPORT unsigned kp_dev_atomic_inc_u32(unsigned *p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
  unsigned next;
  do {
    next = old >= limit ? 0u : old + 1u;
  } while (!__atomic_compare_exchange_n(p, &old, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return old;
}
KP_EXPORT unsigned kp_dev_atomic_dec_u32(unsigned *p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED);
  unsigned next;
  do {
    next = (old == 0u || old > limit) ? limit : old - 1u;
  } while (!__atomic_compare_exchange_n(p, &old, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return old;
}

KP_EXPORT void *kp_dev_dynamic_shared(void) { return kp_cpu_state.dynamic_shared; }

/* clock64(): CLOCK_MONOTONIC in nanoseconds, a counter that only grows, as the GPU's does
 * (whose unit is the SM's clock cycle). */
KP_EXPORT unsigned long long kp_dev_clock64(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* nanosleep(ns): CUDA sleeps between 0 and 2 ns nanoseconds, at most a millisecond; the
 * worker sleeps ns (capped the same way). */
KP_EXPORT void kp_dev_nanosleep(unsigned ns) {
  struct timespec ts = {0, ns > 1000000u ? 1000000 : (long)ns};
  nanosleep(&ts, NULL);
}
