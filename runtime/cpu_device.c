/* cpu_device.c — the kp_dev_* primitives of kernplug.h for kernels running on the CPU.
 *
 * The plugin keeps a host copy of each kernel body; its calls to kp_dev_* resolve here. The
 * CPU backend sets kp_cpu_state on the worker before each simulated GPU thread runs, so the
 * index primitives are plain thread-local reads. initial-exec TLS keeps them to one load
 * (no __tls_get_addr call) since libkernplug_rt is linked, not dlopen'd, by programs. */
#include <stdatomic.h>

#include "kp_internal.h"

_Thread_local kp_cpu_thread_state kp_cpu_state __attribute__((tls_model("initial-exec"))) = {
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

/* Barriers and warp collectives need the threads of a block to run interleaved (fibers, a
 * later issue). The CPU backend refuses kernels the plugin flags as using them, so reaching
 * one of these means a descriptor without the flag: stop rather than compute garbage. */
KP_NORETURN static void unsupported(const char *primitive) {
  const kp_kernel_desc *k = kp_cpu_state.kernel;
  kp_fatal("kernel '%s' called %s on the CPU backend, which cannot run barriers or warp "
           "collectives yet (its descriptor did not declare KP_KERNEL_USES_BARRIER/"
           "KP_KERNEL_USES_WARP)",
           k ? k->name : "?", primitive);
}

KP_EXPORT void kp_dev_syncthreads(void) { unsupported("syncthreads()"); }
KP_EXPORT int kp_dev_syncthreads_count(int predicate) {
  (void)predicate;
  unsupported("syncthreads_count()");
}
KP_EXPORT int kp_dev_syncthreads_and(int predicate) {
  (void)predicate;
  unsupported("syncthreads_and()");
}
KP_EXPORT int kp_dev_syncthreads_or(int predicate) {
  (void)predicate;
  unsupported("syncthreads_or()");
}
KP_EXPORT void kp_dev_syncwarp(unsigned mask) {
  (void)mask;
  unsupported("syncwarp()");
}
KP_EXPORT int kp_dev_shfl_idx(unsigned mask, int value, int src_lane) {
  (void)mask, (void)value, (void)src_lane;
  unsupported("shfl_sync()");
}
KP_EXPORT int kp_dev_shfl_up(unsigned mask, int value, unsigned delta) {
  (void)mask, (void)value, (void)delta;
  unsupported("shfl_up_sync()");
}
KP_EXPORT int kp_dev_shfl_down(unsigned mask, int value, unsigned delta) {
  (void)mask, (void)value, (void)delta;
  unsupported("shfl_down_sync()");
}
KP_EXPORT int kp_dev_shfl_xor(unsigned mask, int value, int lane_mask) {
  (void)mask, (void)value, (void)lane_mask;
  unsupported("shfl_xor_sync()");
}
KP_EXPORT unsigned kp_dev_ballot(unsigned mask, int predicate) {
  (void)mask, (void)predicate;
  unsupported("ballot_sync()");
}
KP_EXPORT int kp_dev_all(unsigned mask, int predicate) {
  (void)mask, (void)predicate;
  unsupported("all_sync()");
}
KP_EXPORT int kp_dev_any(unsigned mask, int predicate) {
  (void)mask, (void)predicate;
  unsupported("any_sync()");
}
KP_EXPORT unsigned kp_dev_activemask(void) { unsupported("activemask()"); }

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
