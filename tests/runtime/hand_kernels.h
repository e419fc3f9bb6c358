/* hand_kernels.h — kernels whose plugin output is written by hand (hand_kernels.c).
 *
 * Each kernel below is what a user would write as `__attribute__((kernel)) void name(...)`;
 * hand_kernels.c contains, spelled out, what the plugin generates for it: the host stub that
 * fills args[] and calls __kp_launch, the CPU trampoline, the descriptor tables, the embedded
 * images and the registering constructor. The runtime tests use these, so the runtime is
 * tested against the ABI itself, independently of the plugin. */
#ifndef HAND_KERNELS_H
#define HAND_KERNELS_H

#include "kernplug.h"
#include "kp_abi.h"

/* out[i] = i: the seeds' hello world (in is unused, as in the seed). */
void foo(const float *in, float *out);
/* x[i] *= a for i < n */
void scale(float *x, float a, int n);
/* Every thread writes its 13 index values at slot (global linear thread id) * 13. */
enum { RECORD_FIELDS = 13 };
void record_indices(unsigned *out);
/* olds[i] = atomic_inc(counter, limit) / atomic_dec(counter, limit) for i < n */
void count_inc(unsigned *counter, unsigned limit, unsigned *olds, int n);
void count_dec(unsigned *counter, unsigned limit, unsigned *olds, int n);
/* Writes i*3 to dynamic shared memory slot threadIdx.x, reads it back into out[i]. */
void dyn_shared(int *out);
/* `static __attribute__((shared)) int tile[1024]` (4 KiB of static shared memory, which the
 * descriptor's shared_bytes says): out[i] = i + 1 through the tile. */
enum { STATIC_SHARED_INTS = 1024 };
void static_shared(int *out);
/* The same, but the descriptor claims 16 KiB, as the plugin's count can before optimisation
 * drops an unused array; the PTX has 4 KiB (what the driver reports). */
void shrunk_shared(int *out);
/* A struct passed by value (byval in the IR): out[i] = s.a + s.b * i + s.n */
typedef struct big_arg {
  double a, b, c;
  int n;
} big_arg;
void byval_kernel(big_arg s, double *out);
/* Flagged KP_KERNEL_USES_BARRIER / KP_KERNEL_USES_WARP: refused on the CPU. */
void with_barrier(float *x);
void with_warp(int *x);
/* Calls syncthreads() without the flag (a broken descriptor): must stop, not run. */
void unflagged_barrier(float *x);
/* A kernel whose PTX has no .entry (the fake driver reports CUDA_ERROR_NOT_FOUND). */
void missing_entry(int *x);

/* A plain host function, for "launch() of something that is not a kernel". */
void not_a_kernel(int *x);

/* The descriptor tables, for tests that look at runtime_data and images. */
extern kp_module_desc hand_module;
extern kp_kernel_desc hand_kernels[];
enum {
  HK_FOO,
  HK_SCALE,
  HK_RECORD,
  HK_COUNT_INC,
  HK_COUNT_DEC,
  HK_DYN_SHARED,
  HK_BYVAL,
  HK_WITH_BARRIER,
  HK_WITH_WARP,
  HK_UNFLAGGED_BARRIER,
  HK_MISSING_ENTRY,
  HK_STATIC_SHARED,
  HK_SHRUNK_SHARED,
  HK_NUM_KERNELS
};

#endif
