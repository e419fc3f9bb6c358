/* kernplug/detail/primitives.h — the kp_dev_* primitives the device API is built from.
 *
 * Defined twice: runtime/device/ for NVPTX (the plugin links them into the GPU code, where
 * they inline away) and libkernplug_rt for the host copy of each kernel on the CPU. User code
 * calls the kp_ and short names of device.h, warp.h and atomics.h, never these.
 *
 * abi/primitives.def is the table of these functions: one row each, with whether it is
 * convergent (KP_DEV_CONVERGENT here) and const (KP_PURE_INDEX here).
 * tests/header/check_primitives.cmake fails when a row has no declaration here or one with
 * other attributes. Keep one declaration per line: that test also hashes these lines with the
 * table into the digest that KP_ABI_VERSION (abi/kp_abi.h) records, so that changing a
 * primitive (its name, signature, attributes) forces an ABI version bump, and the runtime
 * then refuses objects built with the old set (it compares every module's version with its
 * own).
 */
#ifndef KERNPLUG_DETAIL_PRIMITIVES_H
#define KERNPLUG_DETAIL_PRIMITIVES_H

#include "config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Indices are constant for the duration of one thread's run of a kernel. */
KP_PURE_INDEX unsigned kp_dev_tid_x(void);
KP_PURE_INDEX unsigned kp_dev_tid_y(void);
KP_PURE_INDEX unsigned kp_dev_tid_z(void);
KP_PURE_INDEX unsigned kp_dev_ctaid_x(void);
KP_PURE_INDEX unsigned kp_dev_ctaid_y(void);
KP_PURE_INDEX unsigned kp_dev_ctaid_z(void);
KP_PURE_INDEX unsigned kp_dev_ntid_x(void);
KP_PURE_INDEX unsigned kp_dev_ntid_y(void);
KP_PURE_INDEX unsigned kp_dev_ntid_z(void);
KP_PURE_INDEX unsigned kp_dev_nctaid_x(void);
KP_PURE_INDEX unsigned kp_dev_nctaid_y(void);
KP_PURE_INDEX unsigned kp_dev_nctaid_z(void);
KP_PURE_INDEX unsigned kp_dev_laneid(void);

KP_DEV_CONVERGENT void kp_dev_syncthreads(void);
KP_DEV_CONVERGENT int kp_dev_syncthreads_count(int predicate);
KP_DEV_CONVERGENT int kp_dev_syncthreads_and(int predicate);
KP_DEV_CONVERGENT int kp_dev_syncthreads_or(int predicate);
KP_DEV_CONVERGENT void kp_dev_syncwarp(unsigned mask);
void kp_dev_threadfence(void);
void kp_dev_threadfence_block(void);
void kp_dev_threadfence_system(void);

KP_DEV_CONVERGENT int kp_dev_shfl_idx(unsigned mask, int value, int src_lane);
KP_DEV_CONVERGENT int kp_dev_shfl_up(unsigned mask, int value, unsigned delta);
KP_DEV_CONVERGENT int kp_dev_shfl_down(unsigned mask, int value, unsigned delta);
KP_DEV_CONVERGENT int kp_dev_shfl_xor(unsigned mask, int value, int lane_mask);
KP_DEV_CONVERGENT unsigned kp_dev_ballot(unsigned mask, int predicate);
KP_DEV_CONVERGENT int kp_dev_all(unsigned mask, int predicate);
KP_DEV_CONVERGENT int kp_dev_any(unsigned mask, int predicate);
KP_DEV_CONVERGENT unsigned kp_dev_activemask(void);

unsigned kp_dev_atomic_inc_u32(unsigned *p, unsigned limit);
unsigned kp_dev_atomic_dec_u32(unsigned *p, unsigned limit);

/* Start of the dynamic shared memory sized by launch(k, blocks, threads, bytes). */
void *kp_dev_dynamic_shared(void);

/* A 64-bit counter that only grows (GPU: the SM's clock; CPU: nanoseconds), and a sleep of
 * about ns nanoseconds (at most 1 ms, as CUDA's __nanosleep). */
unsigned long long kp_dev_clock64(void);
void kp_dev_nanosleep(unsigned ns);

/* Every thread of the grid waits here until all have arrived, and sees every write made
 * before it by any thread of the grid (CUDA's this_grid().sync()). The plugin launches a
 * kernel that reaches it cooperatively (KP_KERNEL_COOPERATIVE). */
KP_DEV_CONVERGENT void kp_dev_grid_sync(void);

#ifdef __cplusplus
}
#endif

#endif /* KERNPLUG_DETAIL_PRIMITIVES_H */
