// Every call the plugin makes to a user function carries the callee's calling convention: a
// call whose convention is not its callee's is undefined, and the optimiser dropped it (the
// kernel did nothing, the launch reported success). A regcall kernel is registered under the
// name clang gives it, __regcall3__r.
#include <kernplug.h>
__attribute__((ms_abi)) static int helper(int a) { return a + 1; }
__attribute__((kernel, ms_abi)) void k(int *a) { a[grid(1)] = helper(grid(1)); }
__attribute__((kernel, preserve_most)) void with_barrier(int *a) {
  a[threadIdx.x] = 1;
  syncthreads();
  a[threadIdx.x] += 1;
}
__attribute__((vectorize("f32(f32)"), vectorcall)) float twice(float x) { return 2 * x; }
__attribute__((kernel, regcall)) void r(int *a) { a[grid(1)] = 1; }
// HOST-DAG: ptr @k, ptr @k.kp.cpu,
// HOST-DAG: ptr @__regcall3__r, ptr @__regcall3__r.kp.cpu,
// HOST-DAG: define internal preserve_mostcc void @with_barrier.kp.body(
// HOST-DAG: call preserve_mostcc void @with_barrier.kp.body(
// HOST-DAG: call win64cc i32 @helper(
// HOST-DAG: call x86_vectorcallcc float @twice(
