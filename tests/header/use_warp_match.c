// Lane masks, match and reduce with kernplug/warp_match.h alone.
#include "kernplug/warp_match.h"

unsigned use_warp_match(int i, unsigned u, long l, long long ll, float f, double d) {
  unsigned all = 0xffffffffu;
  int pred = 0;
  return kp_lanemask_lt() + kp_lanemask_le() + kp_lanemask_gt() + kp_lanemask_ge() +
         kp_lanemask_eq() + kp_match_any_sync(all, i) + kp_match_any_sync(all, u) +
         kp_match_any_sync(all, l) + kp_match_any_sync(all, ll) + kp_match_any_sync(all, f) +
         kp_match_all_sync(all, d, &pred) + kp_match_all_sync(all, i, (int *)0) + (unsigned)pred +
         (unsigned)kp_reduce_add_sync(all, i) + kp_reduce_add_sync(all, u) +
         (unsigned)kp_reduce_min_sync(all, i) + kp_reduce_max_sync(all, u) +
         kp_reduce_and_sync(all, u) + kp_reduce_or_sync(all, u) + kp_reduce_xor_sync(all, u);
}
