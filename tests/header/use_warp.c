// The warp functions with kernplug/warp.h alone.
#include "kernplug/warp.h"

double use_warp(int i, unsigned u, long l, long long ll, float f, double d, short s) {
  unsigned all = 0xffffffffu;
  int votes = (int)kp_ballot_sync(all, i > 0) + kp_all_sync(all, i) + kp_any_sync(all, i);
  return kp_shfl_sync(all, i, 0) + kp_shfl_up_sync(all, u, 1u) + kp_shfl_down_sync(all, l, 1u) +
         kp_shfl_xor_sync(all, ll, 1) + kp_shfl_sync(all, f, 2) + kp_shfl_down_sync(all, d, 4u) +
         kp_shfl_sync(all, s, 0) + votes + (int)kp_activemask();
}
