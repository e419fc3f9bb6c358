// shared arrays live in .shared; barriers and atomics are single instructions.
#include <kernplug.h>
__attribute__((kernel)) void k(const float *in, float *out, int *ci, unsigned *cu,
                               double *dd, unsigned long long *ull) {
  static __attribute__((shared)) float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = in[grid(1)];
  syncthreads();
  atomic_add(out, tile[threadIdx.x][threadIdx.y]);
  atomic_max(ci, 3);
  atomic_inc(cu, 100u);
  atomic_add(dd, 1.0);
  atomic_or(ull, 4ull);
  atomic_cas(ci, 1, 2);
  int n = syncthreads_count(in[0] > 0);
  out[1] = shfl_down_sync(0xffffffffu, out[0], 1u) + n;
}
// PTX-LABEL: .visible .entry k(
// PTX: .shared .align {{[0-9]+}} .b8 k_$_tile[1024];
// PTX-DAG: st.shared.{{f32|b32}}
// PTX-DAG: bar.sync 0;
// PTX-DAG: atom.global.add.f32
// PTX-DAG: atom.global.max.s32
// PTX-DAG: atom{{(.global)?}}.inc.u32
// PTX-DAG: atom.global.add.f64
// PTX-DAG: atom.global.or.b64
// PTX-DAG: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-DAG: bar.red.popc.u32
// PTX-DAG: shfl.sync.down.b32
// PTX-NOT: call
// PTX: ret;
