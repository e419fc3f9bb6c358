// The integer intrinsics of kernplug/intrinsics.h are plain C; on the GPU they become the
// instructions CUDA's __popc, __brev, __clz, __umulhi use, and
// __builtin_ffs is accepted in device code.
#include <kernplug.h>
__attribute__((kernel)) void bits(unsigned *u, unsigned long long *w, int *i) {
  int t = grid(1);
  u[t] = __popc(u[t]) + __brev(u[t + 1]) + __umulhi(u[t], u[t + 2]) +
         __funnelshift_l(u[t], u[t + 3], u[t + 4]);
  w[t] = __brevll(w[t]) + (unsigned long long)__clzll((long long)w[t + 1]);
  i[t] = __clz(i[t]) + __builtin_ffs(i[t + 1]) + __ffsll(i[t + 2]);
}
// PTX-NOT: .extern
// PTX-LABEL: .visible .entry bits(
// PTX-DAG: popc.b32
// PTX-DAG: brev.b32
// PTX-DAG: brev.b64
// PTX-DAG: clz.b32
// PTX-DAG: clz.b64
// PTX-DAG: mul.hi.u32
// PTX: ret;
