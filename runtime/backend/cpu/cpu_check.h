/* cpu_check.h — the CPU backend's checked mode, KP_CHECK (cpu_check.c; docs/debugging.md
 * "Checked mode"). Only runtime/backend/cpu includes it. */
#ifndef KP_CPU_CHECK_H
#define KP_CPU_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "backend/cpu/cpu_backend.h"

/* What KP_CHECK asks for. */
enum {
  KP_CHECK_BOUNDS = 1u << 0,  /* accesses through pointer parameters and shared memory */
  KP_CHECK_SHUFFLE = 1u << 1  /* shuffles reading a lane outside the mask or inactive */
};

/* The signo a failed check leaves in the fault guard (kp_cpu_fault_guard); no signal has it. */
#define KP_CPU_CHECK_FAILED (-1)

/* Reads KP_CHECK; 0, or -1 with the reason in why. */
int kp_cpu_check_init(char *why, size_t why_size);
/* The KP_CHECK_* bits in effect (0: off, the default). */
unsigned kp_cpu_check_mode(void);
/* "bounds, shuffle" or "off", for kp_detect(). */
const char *kp_cpu_check_describe(void);

typedef struct kp_cpu_check_param {
  uintptr_t arg;    /* the argument's value */
  uintptr_t lo, hi; /* the allocation it lies in, [lo, hi); hi == 0: not checked */
} kp_cpu_check_param;

/* A launch in checked mode: the kernel's descriptor with the checked per-thread entry and no
 * block entry (so it runs one thread after another, or as fibers), and what its checks read. */
typedef struct kp_cpu_check_launch {
  kp_kernel_desc desc;
  const kp_kernel_desc *original;
  size_t dynamic_shared; /* the bytes the launch asked for */
  unsigned num_params;
  kp_cpu_check_param *params;
  /* What the checked entry reads: the launch's arguments, then, as args[num_params], an array
   * of {lo, hi} per parameter ({0, UINTPTR_MAX}: not checked) that its inline checks compare
   * with (plugin/cpu/CheckedAccess.cpp). */
  void **args;
  uintptr_t (*bounds)[2];
  void **own_args; /* args when this launch made it */
} kp_cpu_check_launch;

/* Called for every CPU launch. Checked mode off, or a generated kernel (the runtime builds
 * its arguments): KP_SUCCESS with *run = k. Else *run = &c->desc, ready to run with c->args,
 * or the error (kp_fail) when k was built without -fplugin-arg-kernplug-check. */
kp_error kp_cpu_check_prepare(kp_cpu_check_launch *c, const kp_kernel_desc *k,
                              size_t dynamic_shared, void **args, kp_kernel_desc **run);
/* After the launch (any outcome). */
void kp_cpu_check_finish(kp_cpu_check_launch *c);
/* Each participant, before running blocks: the launch its checks read (NULL: none). */
void kp_cpu_check_enter(const kp_cpu_check_launch *c);
/* After a jump with KP_CPU_CHECK_FAILED: what failed (the part after "kernel …, thread …: "). */
const char *kp_cpu_check_message(void);
/* KP_CHECK=shuffle: the lane a shuffle of `op` by `lane` with operand `arg` reads, when that is
 * a lane of the warp outside `group` (the lanes of the mask that are active), else -1. Reads
 * outside the warp (shfl_up/down/xor past its ends) return the caller's value, as PTX defines. */
int kp_cpu_check_shuffle_source(unsigned op, unsigned lane, int arg, unsigned group);

#endif /* KP_CPU_CHECK_H */
