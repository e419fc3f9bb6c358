/* kernplug/warp.h — warp intrinsics for device code (32 lanes): shuffles of any arithmetic
 * type (64-bit values move as two 32-bit halves; types narrower than int come back as an
 * int), votes and the active mask. laneid() and warpsize are in device.h. */
#ifndef KERNPLUG_WARP_H
#define KERNPLUG_WARP_H

#include "detail/primitives.h"
#include "detail/warp.h"

#define kp_shfl_sync(mask, v, src_lane) KP_SHFL(idx, v)((mask), (v), (src_lane))
#define kp_shfl_up_sync(mask, v, delta) KP_SHFL(up, v)((mask), (v), (delta))
#define kp_shfl_down_sync(mask, v, delta) KP_SHFL(down, v)((mask), (v), (delta))
#define kp_shfl_xor_sync(mask, v, lane_mask) KP_SHFL(xor, v)((mask), (v), (lane_mask))
#define kp_ballot_sync(mask, p) kp_dev_ballot((mask), (p) != 0)
#define kp_all_sync(mask, p) kp_dev_all((mask), (p) != 0)
#define kp_any_sync(mask, p) kp_dev_any((mask), (p) != 0)
#define kp_activemask() kp_dev_activemask()

#endif /* KERNPLUG_WARP_H */
