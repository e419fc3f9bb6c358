// reduce functions whose type has no kp_reduce kernel: the plugin names them.
#include <kernplug.h>
__attribute__((reduce)) __int128 wide(__int128 a, __int128 b) { return a + b; }
// DIAG: error: kernplug: {{.*}}diag_reduce_types.c:3: reduce function 'wide': kp_reduce supports 8- to 64-bit integers, float and double as the element type
__attribute__((reduce)) _Float16 half(_Float16 a, _Float16 b) { return a + b; }
// DIAG: error: kernplug: {{.*}}diag_reduce_types.c:5: reduce function 'half': kp_reduce supports
