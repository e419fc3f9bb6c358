/* Block- and warp-level barriers (bar.sync, bar.red.*, bar.warp.sync). */
#include "kp_device.h"

KP_CONVERGENT void kp_dev_syncthreads(void) { __syncthreads(); }

/* bar.red: every thread of the block contributes its predicate and all get the reduction. */
KP_CONVERGENT int kp_dev_syncthreads_count(int predicate) { return __nvvm_bar0_popc(predicate); }
KP_CONVERGENT int kp_dev_syncthreads_and(int predicate) { return __nvvm_bar0_and(predicate); }
KP_CONVERGENT int kp_dev_syncthreads_or(int predicate) { return __nvvm_bar0_or(predicate); }

/* Independent thread scheduling (sm_70+) makes warp lanes diverge; bar.warp.sync
 * reconverges the lanes named in mask. */
KP_CONVERGENT void kp_dev_syncwarp(unsigned mask) { __nvvm_bar_warp_sync(mask); }
