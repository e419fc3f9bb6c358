/* gcc -fplugin=kernplug_gcc.so: launch_bounds with values a GPU cannot honour, with a third
 * value, or on a function that is not a kernel (as a prototype, a definition, before or after
 * `kernel`): GCC errors, at the declaration, with the clang plugin's messages
 * (tests/compile/diag_launch_bounds.c); clang's half does not run. Valid bounds give no
 * warning (-Wall -Wextra: no "attribute directive ignored"). */
#include <kernplug.h>

__attribute__((kernel, launch_bounds(2048))) void too_many(int *a) { a[0] = 1; }
// DIAG: diag_launch_bounds.c:[[@LINE-1]]:{{[0-9]+}}: error: the maximum threads per block of 'launch_bounds' must be an integer constant from 1 to 1024

__attribute__((kernel, launch_bounds(0))) void zero(int *a) { a[0] = 1; }
// DIAG: diag_launch_bounds.c:[[@LINE-1]]:{{[0-9]+}}: error: the maximum threads per block of 'launch_bounds' must be an integer constant from 1 to 1024

__attribute__((kernel, launch_bounds(256, 64))) void too_resident(int *a) { a[0] = 1; }
// DIAG: diag_launch_bounds.c:[[@LINE-1]]:{{[0-9]+}}: error: the minimum blocks per multiprocessor of 'launch_bounds' must be an integer constant from 0 to 32

__attribute__((kernel, launch_bounds(256, 2, 4))) void three(int *a) { a[0] = 1; }
// DIAG: diag_launch_bounds.c:[[@LINE-1]]:{{[0-9]+}}: error: 'launch_bounds' takes at most two values (maximum threads per block, minimum blocks per multiprocessor)

__attribute__((device, launch_bounds(256))) int helper(int x) { return x; }
// DIAG: diag_launch_bounds.c:[[@LINE-1]]:{{[0-9]+}}: error: 'launch_bounds' applies to kernels, and 'helper' is not one (mark it __attribute__((kernel)))

__attribute__((launch_bounds(128))) void prototype(int *a);
// DIAG: diag_launch_bounds.c:[[@LINE-1]]:{{[0-9]+}}: error: 'launch_bounds' applies to kernels, and 'prototype' is not one (mark it __attribute__((kernel)))

__attribute__((kernel)) void calls(int *a) { a[0] = helper(1); }

enum { BLOCK = 128 };
__attribute__((kernel, launch_bounds(BLOCK, 4))) void fine(int *a) { a[0] = 1; }
__attribute__((launch_bounds(2 * BLOCK), kernel)) void fine_after(int *a) { a[0] = 1; }
__attribute__((kernel)) void declared(int *a);
__attribute__((launch_bounds(64))) void declared(int *a) { a[0] = 1; }
// DIAG-NOT: warning
// DIAG-NOT: kernel side
