// launch_bounds with a third value (CUDA's maximum cluster size, which kernplug does not take):
// an error at the attribute, not clang's warning that drops the whole attribute.
#include <kernplug.h>

__attribute__((kernel, launch_bounds(256, 2, 4))) void three(int *a) { a[0] = 1; }
// DIAG: diag_launch_bounds_args.c:[[@LINE-1]]:24: error: 'launch_bounds' takes at most two values (maximum threads per block, minimum blocks per multiprocessor)

