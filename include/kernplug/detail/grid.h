/* kernplug/detail/grid.h — kp_grid(n) and kp_gridsize(n) per dimension count. */
#ifndef KERNPLUG_DETAIL_GRID_H
#define KERNPLUG_DETAIL_GRID_H

#include "config.h"
#include "primitives.h"
#include "../types.h"

/* Absolute thread index along one axis, as cuda.grid computes it. */
#define KP_GRID_AXIS(a) ((int)(kp_dev_ctaid_##a() * kp_dev_ntid_##a() + kp_dev_tid_##a()))
#define KP_GRIDSIZE_AXIS(a) ((int)(kp_dev_nctaid_##a() * kp_dev_ntid_##a()))

KP_ALWAYS_INLINE int kp_grid_1(void) { return KP_GRID_AXIS(x); }
KP_ALWAYS_INLINE kp_int2 kp_grid_2(void) {
  kp_int2 r = {KP_GRID_AXIS(x), KP_GRID_AXIS(y)};
  return r;
}
KP_ALWAYS_INLINE kp_int3 kp_grid_3(void) {
  kp_int3 r = {KP_GRID_AXIS(x), KP_GRID_AXIS(y), KP_GRID_AXIS(z)};
  return r;
}
KP_ALWAYS_INLINE int kp_gridsize_1(void) { return KP_GRIDSIZE_AXIS(x); }
KP_ALWAYS_INLINE kp_int2 kp_gridsize_2(void) {
  kp_int2 r = {KP_GRIDSIZE_AXIS(x), KP_GRIDSIZE_AXIS(y)};
  return r;
}
KP_ALWAYS_INLINE kp_int3 kp_gridsize_3(void) {
  kp_int3 r = {KP_GRIDSIZE_AXIS(x), KP_GRIDSIZE_AXIS(y), KP_GRIDSIZE_AXIS(z)};
  return r;
}

#endif /* KERNPLUG_DETAIL_GRID_H */
