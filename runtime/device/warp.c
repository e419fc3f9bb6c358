/* Warp shuffles and votes, all in their *.sync forms (the only ones valid on sm_70+).
 * Values move as 32-bit words; kernplug.h splits wider types into halves. */
#include "kp_device.h"

KP_CONVERGENT int kp_dev_shfl_idx(unsigned mask, int value, int src_lane) {
  return __nvvm_shfl_sync_idx_i32(mask, value, src_lane, KP_WARP_CLAMP_TOP);
}
KP_CONVERGENT int kp_dev_shfl_up(unsigned mask, int value, unsigned delta) {
  return __nvvm_shfl_sync_up_i32(mask, value, (int)delta, KP_WARP_CLAMP_BOTTOM);
}
KP_CONVERGENT int kp_dev_shfl_down(unsigned mask, int value, unsigned delta) {
  return __nvvm_shfl_sync_down_i32(mask, value, (int)delta, KP_WARP_CLAMP_TOP);
}
KP_CONVERGENT int kp_dev_shfl_xor(unsigned mask, int value, int lane_mask) {
  return __nvvm_shfl_sync_bfly_i32(mask, value, lane_mask, KP_WARP_CLAMP_TOP);
}

KP_CONVERGENT unsigned kp_dev_ballot(unsigned mask, int predicate) {
  return __nvvm_vote_ballot_sync(mask, predicate != 0);
}
/* CUDA's __all_sync/__any_sync return int 0 or 1: normalise the i1 result explicitly. */
KP_CONVERGENT int kp_dev_all(unsigned mask, int predicate) {
  return __nvvm_vote_all_sync(mask, predicate != 0) ? 1 : 0;
}
KP_CONVERGENT int kp_dev_any(unsigned mask, int predicate) {
  return __nvvm_vote_any_sync(mask, predicate != 0) ? 1 : 0;
}

KP_CONVERGENT unsigned kp_dev_activemask(void) { return __nvvm_activemask(); }
