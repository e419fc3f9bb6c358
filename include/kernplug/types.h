/* kernplug/types.h — the index and extent types both sides use: kp_dim3 (threadIdx, blockDim,
 * dim3(...) for launch) and the results of grid(2), grid(3). */
#ifndef KERNPLUG_TYPES_H
#define KERNPLUG_TYPES_H

/* CUDA's dim3: what threadIdx, blockIdx, blockDim and gridDim return. */
typedef struct kp_dim3 {
  unsigned x, y, z;
} kp_dim3;

/* grid(2)/gridsize(2) and grid(3)/gridsize(3) results. */
typedef struct kp_int2 {
  int x, y;
} kp_int2;
typedef struct kp_int3 {
  int x, y, z;
} kp_int3;

#endif /* KERNPLUG_TYPES_H */
