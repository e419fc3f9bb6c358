// A kernel split at its barriers runs whole blocks through its block entry; its per-thread
// entry only replays a failed block on fibers (or runs from a small stack), so it is not
// optimised at all (optnone), which keeps the host compile shorter. A kernel split at warp
// collectives runs the blocks its split does not cover (warps that are not 32 x of one row)
// through its per-thread entry: that one is compiled for size. Kernels without barriers
// keep theirs as is. At -O0 (optnone, which excludes minsize) the attributes are left off.
#include <kernplug.h>
__attribute__((kernel)) void tiled(const float *A, float *C, int n) {
  static __attribute__((shared)) float tile[16][16];
  kp_int2 g = grid(2);
  float acc = 0.0f;
  for (int t = 0; t < (n + 15) / 16; t++) {
    int c = (int)threadIdx.x + t * 16;
    tile[threadIdx.y][threadIdx.x] = g.y < n && c < n ? A[g.y * n + c] : 0.0f;
    syncthreads();
    for (int j = 0; j < 16; j++) acc += tile[threadIdx.y][j];
    syncthreads();
  }
  if (g.y < n && g.x < n) C[g.y * n + g.x] = acc;
}
__attribute__((kernel)) void plain(const float *x, float *y, int n) {
  int i = grid(1);
  if (i < n) y[i] += x[i];
}
__attribute__((kernel)) void warp_sum(const float *x, float *out, int n) {
  int i = grid(1);
  float v = i < n ? x[i] : 0.0f;
  for (int d = 16; d > 0; d /= 2) v += shfl_down_sync(0xffffffffu, v, d);
  if (laneid() == 0) atomic_add(out, v);
}
// HOST-DAG: define internal void @tiled.kp.cpu(ptr {{.*}}) [[RARE:#[0-9]+]]
// HOST-DAG: define internal {{.*}}void @tiled.kp.body({{.*}}) {{.*}}[[RAREBODY:#[0-9]+]]
// HOST-DAG: define internal void @warp_sum.kp.cpu(ptr {{.*}}) [[SMALL:#[0-9]+]]
// HOST-DAG: define internal void @plain.kp.cpu(ptr {{.*}}) [[PLAIN:#[0-9]+]]
// HOST-DAG: attributes [[RARE]] = { noinline nounwind optnone }
// HOST-DAG: attributes [[RAREBODY]] = { noinline nounwind optnone {{.*}} }
// HOST-DAG: attributes [[SMALL]] = { {{.*}}minsize{{.*}}optsize{{.*}} }
// HOST-NOT: attributes [[PLAIN]] = { {{.*}}minsize
// HOST-NOT: attributes [[PLAIN]] = { {{.*}}optnone
