// launch_bounds with values a GPU cannot honour, or on a function that is not a kernel: errors
// at the value or the attribute.
#include <kernplug.h>

__attribute__((kernel, launch_bounds(2048))) void too_many(int *a) { a[0] = 1; }
// DIAG-DAG: diag_launch_bounds.c:[[@LINE-1]]:38: error: the maximum threads per block of 'launch_bounds' must be an integer constant from 1 to 1024

__attribute__((kernel, launch_bounds(0))) void zero(int *a) { a[0] = 1; }
// DIAG-DAG: diag_launch_bounds.c:[[@LINE-1]]:38: error: the maximum threads per block of 'launch_bounds' must be an integer constant from 1 to 1024

__attribute__((kernel, launch_bounds(256, 64))) void too_resident(int *a) { a[0] = 1; }
// DIAG-DAG: diag_launch_bounds.c:[[@LINE-1]]:43: error: the minimum blocks per multiprocessor of 'launch_bounds' must be an integer constant from 0 to 32

__attribute__((device, launch_bounds(256))) int helper(int x) { return x; }
// DIAG-DAG: diag_launch_bounds.c:[[@LINE-1]]:24: error: 'launch_bounds' applies to kernels, and 'helper' is not one (mark it __attribute__((kernel)))

__attribute__((kernel)) void calls(int *a) { a[0] = helper(1); }

__attribute__((kernel, launch_bounds(128, 4))) void fine(int *a) { a[0] = 1; }
