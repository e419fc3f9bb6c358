// Which kernels with barriers the CPU backend runs split at their barriers and which keep
// fibers, and why (verbose remarks).
#include <kernplug.h>

// REMARK-DAG: remark: kernplug: kernel 'uniform_loop': barriers split into 3 regions on the CPU
__attribute__((kernel)) void uniform_loop(float *x, int n) {
  static __attribute__((shared)) float s[256];
  for (int i = 0; i < n; i++) {
    s[threadIdx.x] = x[threadIdx.x] + (float)i;
    syncthreads();
    x[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
    syncthreads();
  }
}

// A trip count read from memory: the same in every thread, as nothing between the barriers
// writes that array.
// REMARK-DAG: remark: kernplug: kernel 'loaded_loop': barriers split into 3 regions on the CPU
__attribute__((kernel)) void loaded_loop(float *x, const int *n) {
  static __attribute__((shared)) float s[256];
  for (int i = 0; i < n[blockIdx.x]; i++) {
    s[threadIdx.x] = x[threadIdx.x] + (float)i;
    syncthreads();
    x[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
    syncthreads();
  }
}

// The same with the bound's array written between the barriers: it stays thread-dependent.
// REMARK-DAG: remark: kernplug: kernel 'written_bound': barriers kept on fibers on the CPU: syncthreads() under a branch that depends on the thread
__attribute__((kernel)) void written_bound(int *n) {
  for (int i = 0; i < n[0]; i++) {
    syncthreads();
    n[threadIdx.x] = i; /* thread 0 writes the bound */
  }
}

// A barrier only some threads reach.
// REMARK-DAG: remark: kernplug: kernel 'divergent': barriers kept on fibers on the CPU: syncthreads() under a branch that depends on the thread
__attribute__((kernel)) void divergent(float *x) {
  if (threadIdx.x < 16) {
    x[threadIdx.x] = 1;
    syncthreads();
  }
}

// A loop whose trip count depends on the thread, with a barrier inside.
// REMARK-DAG: remark: kernplug: kernel 'divergent_loop': barriers kept on fibers on the CPU: syncthreads() under a branch that depends on the thread
__attribute__((kernel)) void divergent_loop(float *x) {
  for (unsigned i = 0; i < threadIdx.x; i++) {
    x[threadIdx.x] += 1;
    syncthreads();
  }
}

// A barrier that combines values: split like syncthreads(), the vote counted between.
// REMARK-DAG: remark: kernplug: kernel 'votes': barriers split into 2 regions on the CPU
__attribute__((kernel)) void votes(int *x) { x[threadIdx.x] = syncthreads_or(x[threadIdx.x]); }

// REMARK-DAG: remark: kernplug: kernel 'shuffles': barriers and warp collectives split into 3 regions run warp by warp on the CPU
__attribute__((kernel)) void shuffles(int *x) {
  syncthreads();
  x[threadIdx.x] = shfl_down_sync(0xffffffffu, x[threadIdx.x], 1);
}

// 512 bytes per thread live across the barrier: more than the split keeps per thread.
// REMARK-DAG: remark: kernplug: kernel 'big_locals': barriers kept on fibers on the CPU: {{[0-9]+}} bytes per thread live across barriers (more than 256)
__attribute__((kernel)) void big_locals(int *x, int k) {
  int local[128];
  for (int i = 0; i < 128; i++) local[i] = x[i] + (int)threadIdx.x;
  syncthreads();
  x[threadIdx.x] = local[k];
}

// A barrier in a recursive device function.
// REMARK-DAG: remark: kernplug: kernel 'recursive': barriers kept on fibers on the CPU: recursion
__attribute__((device)) int down(int d) {
  syncthreads();
  return d > 0 ? down(d - 1) + 1 : 0;
}
__attribute__((kernel)) void recursive(int *x) { x[threadIdx.x] = down(x[0]); }

// Mutual recursion: the barrier after the call is reached again through pong.
// REMARK-DAG: remark: kernplug: kernel 'mutual': barriers kept on fibers on the CPU: recursion
__attribute__((device)) int ping(int d);
__attribute__((device)) int pong(int d) { return d > 0 ? ping(d - 1) : 0; }
__attribute__((device)) int ping(int d) {
  int r = pong(d);
  syncthreads();
  return r + 1;
}
__attribute__((kernel)) void mutual(int *x) { x[threadIdx.x] = ping(x[0]); }
