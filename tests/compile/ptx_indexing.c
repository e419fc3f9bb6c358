// Indexing, 2D/3D grids and the kernel calling convention.
#include <kernplug.h>
__attribute__((kernel)) void one(int *out) { out[grid(1)] = gridsize(1); }
// PTX-LABEL: .visible .entry one(
// PTX-DAG: mov.u32 {{.*}}%tid.x;
// PTX-DAG: mov.u32 {{.*}}%ctaid.x;
// PTX-DAG: mov.u32 {{.*}}%ntid.x;
// PTX-DAG: mov.u32 {{.*}}%nctaid.x;
// PTX-NOT: call
// PTX: ret;
__attribute__((kernel)) void two(int *out, int w) {
  kp_int2 g = grid(2);
  out[g.y * w + g.x] = threadIdx.y + blockIdx.y * blockDim.y;
}
// PTX-LABEL: .visible .entry two(
// PTX-DAG: %tid.y;
// PTX-DAG: %ctaid.y;
// PTX-NOT: call
// PTX: ret;
__attribute__((kernel)) void three(int *out) {
  kp_int3 g = grid(3);
  out[g.x + g.y + g.z] = gridDim.z + laneid();
}
// PTX-LABEL: .visible .entry three(
// PTX-DAG: %tid.z;
// PTX-DAG: %nctaid.z;
// PTX-DAG: %laneid;
// PTX-NOT: call
// PTX: ret;
