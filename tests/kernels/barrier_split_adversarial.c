/* barrier_split_adversarial.c — kernels of awkward shapes around syncthreads(), each checked
 * against a plain C model of the block: values that cross barriers from branches, phis and
 * loops (uniform trip counts from arguments, blockIdx, blockDim; nested; a grid-stride loop),
 * uniform break/continue/return/switch, barriers in a device function called in a loop, local
 * arrays and structs (over-aligned too), dynamic shared memory with atomics, 64-bit and double
 * values, 3D blocks, state near the split's per-thread limit at 1024 threads, vectors, a
 * by-value struct, barriers first, last and back to back. Built twice like
 * barrier_split.c (split and cpu-barriers=fibers); tests/compile checks which kernels split
 * (the REMARK lines, compile.remark.barrier_split_adversarial). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_test.h"

enum { MAX_T = 1024 };

static unsigned lin(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
static unsigned nthreads(void) { return blockDim.x * blockDim.y * blockDim.z; }
#define GID (blockIdx.x * nthreads() + lin())

// REMARK-DAG: kernel 'branch_value': barriers split into 4 regions
/* A value defined in either arm of a uniform branch, used after barriers; a uniform return
 * between two barriers. */
__attribute__((kernel)) void branch_value(int *out, int mode) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int v;
  double d;
  if (mode > 1) {
    v = (int)t * 3;
    d = t * 0.25;
  } else {
    v = (int)t + 100;
    d = -1.5 * t;
  }
  buf[t] = v;
  syncthreads();
  if (mode == 3) {
    out[GID] = -1;
    return;
  }
  int w = buf[n - 1 - t];
  syncthreads();
  buf[t] = w + 1;
  syncthreads();
  out[GID] = v + (int)(d * 4) + buf[(t + 1) % n];
}

static void ref_branch_value(int *ref, unsigned n, int mode) {
  for (unsigned t = 0; t < n; t++) {
    int v = mode > 1 ? (int)t * 3 : (int)t + 100, u = (t + 1) % n;
    double d = mode > 1 ? t * 0.25 : -1.5 * t;
    int vu = mode > 1 ? (int)(n - 1 - u) * 3 : (int)(n - 1 - u) + 100;
    ref[t] = mode == 3 ? -1 : v + (int)(d * 4) + vu + 1;
  }
}

// REMARK-DAG: kernel 'phi_divergent': barriers split into 4 regions
/* Phis of thread-dependent values (a divergent if, a loop with a thread-dependent trip
 * count) and a 64-bit value, all live across barriers. */
__attribute__((kernel)) void phi_divergent(const int *in, int *out) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int v = in[GID];
  if (t & 1) v = v * 2;
  else v = v + 7;
  long long big = ((long long)v << 33) | t;
  buf[t] = v;
  syncthreads();
  int acc = 0;
  for (unsigned k = 0; k < t % 4; k++) acc += buf[(t + k) % n];
  syncthreads();
  buf[t] = acc;
  syncthreads();
  out[GID] = (int)(big >> 33) + (int)(big & 0xffff) * 3 + acc + buf[(t + 2) % n];
}

static void ref_phi_divergent(int *ref, const int *in, unsigned n) {
  int *v = malloc(n * sizeof *v), *acc = malloc(n * sizeof *acc);
  for (unsigned t = 0; t < n; t++) v[t] = t & 1 ? in[t] * 2 : in[t] + 7;
  for (unsigned t = 0; t < n; t++) {
    acc[t] = 0;
    for (unsigned k = 0; k < t % 4; k++) acc[t] += v[(t + k) % n];
  }
  for (unsigned t = 0; t < n; t++)
    ref[t] = v[t] + (int)(t & 0xffff) * 3 + acc[t] + acc[(t + 2) % n];
  free(v), free(acc);
}

// REMARK-DAG: kernel 'nested_loops': barriers split into 4 regions
/* Barriers at two loop depths; trip counts from an argument, blockIdx and blockDim. */
__attribute__((kernel)) void nested_loops(int *out, int outer) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int v = (int)t;
  for (int i = 0; i < outer; i++) {
    for (unsigned j = 0; j <= blockIdx.x % 3; j++) {
      buf[t] = v;
      syncthreads();
      v = (v + buf[(t + 1) % n] * (i + 1)) % 1009;
      syncthreads();
    }
    for (unsigned j = 0; j < blockDim.x; j += 16) v += (int)j;
    syncthreads();
  }
  out[GID] = v;
}

static void ref_nested_loops(int *ref, unsigned n, unsigned bx, unsigned b, int outer) {
  int *tmp = malloc(n * sizeof *tmp);
  for (unsigned t = 0; t < n; t++) ref[t] = (int)t;
  for (int i = 0; i < outer; i++) {
    for (unsigned j = 0; j <= b % 3; j++) {
      memcpy(tmp, ref, n * sizeof *tmp);
      for (unsigned t = 0; t < n; t++) ref[t] = (ref[t] + tmp[(t + 1) % n] * (i + 1)) % 1009;
    }
    for (unsigned t = 0; t < n; t++)
      for (unsigned j = 0; j < bx; j += 16) ref[t] += (int)j;
  }
  free(tmp);
}

// REMARK-DAG: kernel 'control_flow': barriers split into 3 regions
/* Uniform continue, break and (per block) return in a loop with barriers. */
__attribute__((kernel)) void control_flow(int *out, int limit, int skip_at) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int v = (int)t;
  for (int r = 0; r < 10; r++) {
    if (r == skip_at) continue;
    buf[t] = v;
    syncthreads();
    v = buf[(t + (unsigned)r) % n] + r;
    syncthreads();
    if (r >= limit) break;
    if (r == 6 && blockIdx.x == 1) {
      out[GID] = v * 2;
      return;
    }
  }
  out[GID] = v;
}

static void ref_control_flow(int *ref, unsigned n, unsigned b, int limit, int skip_at) {
  int *tmp = malloc(n * sizeof *tmp);
  for (unsigned t = 0; t < n; t++) ref[t] = (int)t;
  for (int r = 0; r < 10; r++) {
    if (r == skip_at) continue;
    memcpy(tmp, ref, n * sizeof *tmp);
    for (unsigned t = 0; t < n; t++) ref[t] = tmp[(t + (unsigned)r) % n] + r;
    if (r >= limit) break;
    if (r == 6 && b == 1) {
      for (unsigned t = 0; t < n; t++) ref[t] *= 2;
      break;
    }
  }
  free(tmp);
}

// REMARK-DAG: kernel 'uniform_switch': barriers split into 6 regions
__attribute__((kernel)) void uniform_switch(int *out, int sel) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int v;
  switch (sel + (int)(blockIdx.x % 2)) {
  case 0:
    buf[t] = (int)t;
    syncthreads();
    v = buf[n - 1 - t];
    break;
  case 1:
    buf[t] = 2 * (int)t;
    syncthreads();
    syncthreads();
    v = buf[(t + 1) % n];
    break;
  default:
    v = -(int)t;
    break;
  }
  syncthreads();
  buf[t] = v;
  syncthreads();
  out[GID] = buf[(t + 3) % n] * 10 + v;
}

static void ref_uniform_switch(int *ref, unsigned n, unsigned b, int sel) {
  int s = sel + (int)(b % 2);
  int *v = malloc(n * sizeof *v);
  for (unsigned t = 0; t < n; t++)
    v[t] = s == 0 ? (int)(n - 1 - t) : s == 1 ? 2 * (int)((t + 1) % n) : -(int)t;
  for (unsigned t = 0; t < n; t++) ref[t] = v[(t + 3) % n] * 10 + v[t];
  free(v);
}

/* Barriers in a device function that a loop calls. */
__attribute__((device)) int rotate_by(int v, unsigned shift) {
  static __attribute__((shared)) int ring[MAX_T];
  unsigned n = nthreads(), t = lin();
  ring[t] = v;
  syncthreads();
  int r = ring[(t + shift) % n];
  syncthreads();
  return r;
}

// REMARK-DAG: kernel 'device_fn_loop': barriers split into 3 regions
__attribute__((kernel)) void device_fn_loop(int *out, int rounds) {
  int v = (int)lin() * 5;
  for (int r = 0; r < rounds; r++) v = rotate_by(v, (unsigned)r + 1) + r;
  out[GID] = v;
}

static void ref_device_fn_loop(int *ref, unsigned n, int rounds) {
  int *tmp = malloc(n * sizeof *tmp);
  for (unsigned t = 0; t < n; t++) ref[t] = (int)t * 5;
  for (int r = 0; r < rounds; r++) {
    memcpy(tmp, ref, n * sizeof *tmp);
    for (unsigned t = 0; t < n; t++) ref[t] = tmp[(t + (unsigned)r + 1) % n] + r;
  }
  free(tmp);
}

struct rec {
  double d;
  int i;
  short s;
};

// REMARK-DAG: kernel 'local_arrays': barriers split into 2 regions
/* Local arrays indexed at run time (an odd size, structs, one over-aligned): each thread
 * must keep its own, laid out as the type says. */
__attribute__((kernel)) void local_arrays(int *out, int k) {
  unsigned t = lin();
  int loc[5];
  struct rec recs[3];
  _Alignas(64) int wide[3];
  for (int i = 0; i < 5; i++) loc[i] = (int)t * 10 + i;
  for (int i = 0; i < 3; i++) {
    recs[i].d = t * 0.5 + i;
    recs[i].i = (int)t - i;
    recs[i].s = (short)(i * 7);
    wide[i] = (int)t + i * 100;
  }
  syncthreads();
  unsigned j = (t + (unsigned)k) % 3;
  out[GID] = loc[(t + (unsigned)k) % 5] + (int)(recs[j].d * 2) + recs[j].i + recs[j].s +
             wide[j] + (int)((unsigned long)&wide[j] % 64) * 1000;
}

static void ref_local_arrays(int *ref, unsigned n, int k) {
  for (unsigned t = 0; t < n; t++) {
    unsigned j = (t + (unsigned)k) % 3;
    ref[t] = (int)t * 10 + (int)((t + (unsigned)k) % 5) + (int)((t * 0.5 + j) * 2) + (int)t -
             (int)j + (int)j * 7 + (int)t + (int)j * 100 + (int)j * 4 * 1000;
  }
}

// REMARK-DAG: kernel 'dynamic_atomics': barriers split into 3 regions
/* Dynamic shared memory; atomics on shared memory between barriers (the result of one is
 * different in each thread). */
__attribute__((kernel)) void dynamic_atomics(int *out) {
  static __attribute__((shared)) unsigned ticket[1];
  int *dyn = kp_dynamic_shared(int);
  unsigned n = nthreads(), t = lin();
  if (t == 0) dyn[n] = 0, ticket[0] = 0;
  dyn[t] = (int)t;
  syncthreads();
  atomic_add(&dyn[n], dyn[(t + 1) % n]);
  unsigned mine = atomic_add(&ticket[0], 1u);
  syncthreads();
  out[GID] = dyn[n] + (mine < n ? 1 : 0) + (int)(ticket[0] == n) * 2;
}

// REMARK-DAG: kernel 'wide_values': barriers split into 2 regions
__attribute__((kernel)) void wide_values(const int *in, long long *out) {
  unsigned t = lin();
  long long big = (long long)in[GID] * 1000003LL * (t + 1);
  double root = sqrt((double)t) + (double)big * 1e-9;
  float f = (float)t * 0.75f;
  _Bool odd = in[GID] % 2 != 0;
  syncthreads();
  out[GID] = big + (long long)(root * 1e6) + (long long)(f * 4) + odd * 7;
}

// REMARK-DAG: kernel 'grid_stride': barriers split into 3 regions
/* A grid-stride loop over tiles with barriers: its trip count depends on blockIdx and
 * gridDim only. */
__attribute__((kernel)) void grid_stride(const int *in, int *out, unsigned tiles) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  for (unsigned i = blockIdx.x; i < tiles; i += gridDim.x) {
    buf[t] = in[i * n + t];
    syncthreads();
    out[i * n + t] = buf[n - 1 - t] + (int)i;
    syncthreads();
  }
}

// REMARK-DAG: kernel 'blocks_3d': barriers split into 2 regions
/* threadIdx.y and .z in a 3D block: the block mirrored in all three axes. */
__attribute__((kernel)) void blocks_3d(int *out) {
  static __attribute__((shared)) int cube[MAX_T];
  unsigned x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  unsigned X = blockDim.x, Y = blockDim.y, Z = blockDim.z;
  cube[(z * Y + y) * X + x] = (int)(x * 10000 + y * 100 + z);
  syncthreads();
  unsigned mx = X - 1 - x, my = Y - 1 - y, mz = Z - 1 - z;
  out[GID] = cube[(mz * Y + my) * X + mx] + (int)(blockIdx.x * 1000000);
}

// REMARK-DAG: kernel 'loaded_count': barriers split into 3 regions
/* A trip count loaded from memory: the same in every thread, as nothing between the barriers
 * writes `counts` (another thread writing it there would be a race on the GPU too). */
__attribute__((kernel)) void loaded_count(const int *counts, int *out) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int v = (int)t;
  for (int r = 0; r < counts[blockIdx.x]; r++) {
    buf[t] = v;
    syncthreads();
    v = buf[(t + 1) % n] + 1;
    syncthreads();
  }
  out[GID] = v;
}

// REMARK-DAG: kernel 'guarded_store': barriers split into 3 regions
/* Thread-dependent conditions around stores, never around the barrier. */
__attribute__((kernel)) void guarded_store(int *out) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  if (t % 3 == 0) buf[t] = (int)t * 5;
  else buf[t] = 0;
  syncthreads();
  int got = buf[(t + 3) % n];
  syncthreads();
  if (t < n / 2) buf[t] = got;
  else out[GID] = -(int)t;
  if (t < n / 2) out[GID] = got + 1;
}

// REMARK-DAG: kernel 'later_iteration': barriers split into 3 regions
/* Values carried to the next iteration through barriers (loop-header phis). */
__attribute__((kernel)) void later_iteration(int *out, int rounds) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int prev = -1, acc = 0;
  for (int r = 0; r < rounds; r++) {
    syncthreads();
    acc += prev;
    buf[t] = (int)t * r + acc;
    syncthreads();
    prev = buf[(t + 1) % n];
  }
  out[GID] = acc * 3 + prev;
}

static void ref_later_iteration(int *ref, unsigned n, int rounds) {
  int *prev = malloc(n * sizeof *prev), *acc = calloc(n, sizeof *acc), *b = malloc(n * sizeof *b);
  for (unsigned t = 0; t < n; t++) prev[t] = -1;
  for (int r = 0; r < rounds; r++) {
    for (unsigned t = 0; t < n; t++) acc[t] += prev[t], b[t] = (int)t * r + acc[t];
    for (unsigned t = 0; t < n; t++) prev[t] = b[(t + 1) % n];
  }
  for (unsigned t = 0; t < n; t++) ref[t] = acc[t] * 3 + prev[t];
  free(prev), free(acc), free(b);
}

// REMARK-DAG: kernel 'first_thread_leaves': barriers split into 2 regions
/* Thread 0 (whose copy of uniform values the split reads) leaves after the last barrier. */
__attribute__((kernel)) void first_thread_leaves(int *out, int scale) {
  static __attribute__((shared)) int buf[MAX_T];
  unsigned n = nthreads(), t = lin();
  int u = scale * (int)blockIdx.x + 1;
  buf[t] = (int)t * u;
  syncthreads();
  if (t == 0) return;
  out[GID] = buf[n - t] + u;
}

// REMARK-DAG: kernel 'temporal': barriers split into 2 regions
/* Values leaving loops whose exit depends on the thread: each thread's own last value. */
__attribute__((kernel)) void temporal(const int *in, int *out) {
  unsigned t = lin();
  int u = 0;
  for (unsigned i = 0; i < blockIdx.x + 2; i++) u += (int)i * 3;
  int k = 0, last = 0;
  while (k < 10) {
    last = k * (int)(blockIdx.x + 1);
    if (in[GID] % 10 <= k) break;
    k++;
  }
  syncthreads();
  out[GID] = u * 1000 + last * 10 + (int)(t % 2);
}

// REMARK-DAG: kernel 'near_limit': barriers split into 2 regions
/* Close to the split's per-thread state limit, run with 1024 threads. */
__attribute__((kernel)) void near_limit(int *out, int k) {
  unsigned t = lin();
  int loc[56];
  for (int i = 0; i < 56; i++) loc[i] = (int)t * i;
  long long s = (long long)t * 3;
  syncthreads();
  out[GID] = loc[(t + (unsigned)k) % 56] + (int)s;
}

typedef float float4v __attribute__((ext_vector_type(4)));
struct cfg {
  int a;
  double b;
  char name[12];
};

/* A device function with barriers after a uniform early return. */
__attribute__((device)) int early(int v, int stop) {
  static __attribute__((shared)) int s[MAX_T];
  unsigned t = threadIdx.x;
  if (stop) return v;
  s[t] = v;
  syncthreads();
  v = s[(t + 1) % blockDim.x];
  syncthreads();
  return v;
}

// REMARK-DAG: kernel 'mixed_state': barriers split into 5 regions
/* A by-value struct argument, a vector, a bool array, a double array, a goto loop. */
__attribute__((kernel)) void mixed_state(int *out, struct cfg c, int stop) {
  static __attribute__((shared)) int s[MAX_T];
  unsigned t = threadIdx.x, n = blockDim.x;
  long gid = (long)blockIdx.x * (long)blockDim.x + (long)t;
  float4v vec = {(float)t, (float)t * 2, 3.0f, (float)c.a};
  double third = (double)t / 3.0;
  _Bool flags[7];
  for (int i = 0; i < 7; i++) flags[i] = (t >> i) & 1;
  double arr[16];
  for (int i = 0; i < 16; i++) arr[i] = t * 0.5 + i;
  int v = early((int)t, stop);
  int k = 0;
again:
  s[t] = v + k;
  syncthreads();
  v = s[(t + 2) % n];
  syncthreads();
  if (++k < 3) goto again;
  out[gid] = v + (int)(vec.y + vec.w) + (int)(third * 3.0 + 0.5) + flags[(t + 1) % 7] * 1000 +
             (int)arr[(t + (unsigned)c.a) % 16] + c.name[t % 12] + (int)c.b;
}

static void check_mixed_state(void) {
  unsigned n = 96, blocks = 3;
  int *d = device_array(int, n * blocks), *h = malloc(n * blocks * sizeof *h);
  struct cfg c = {5, 7.5, "hello world"};
  for (int stop = 0; stop < 2; stop++) {
    launch(mixed_state, blocks, n)(d, c, stop);
    copy_to_host(h, d, n * blocks);
    for (unsigned b = 0; b < blocks; b++)
      for (unsigned t = 0; t < n; t++) {
        int v = (int)((t + (stop ? 6 : 7)) % n) + 3; /* three rounds of +2, adding 0, 1, 2 */
        int expect = v + (int)((float)t * 2 + 5.0f) + (int)((double)t / 3.0 * 3.0 + 0.5) +
                     (int)((t >> ((t + 1) % 7)) & 1) * 1000 + (int)(t * 0.5 + (t + 5) % 16) +
                     "hello world"[t % 12] + 7;
        KT_CHECK(h[b * n + t] == expect, "mixed_state stop %d: out[%u] = %d, expected %d", stop,
                 b * n + t, h[b * n + t], expect);
      }
  }
  kp_free(d), free(h);
}

// REMARK-DAG: kernel 'edge_barriers': barriers split into 7 regions
/* Barriers first, last and back to back; a continue that differs between blocks; laneid,
 * gridDim and a division by blockDim live across barriers. */
__attribute__((kernel)) void edge_barriers(int *out, int rounds) {
  static __attribute__((shared)) int s[MAX_T];
  syncthreads();
  syncthreads();
  unsigned t = threadIdx.x + blockDim.x * threadIdx.y, n = blockDim.x * blockDim.y;
  unsigned lane = (unsigned)laneid();
  unsigned q = t / blockDim.x, g = gridDim.x * 7 + blockIdx.x;
  int v = (int)t;
  for (int r = 0; r < rounds; r++) {
    if ((unsigned)r % (blockIdx.x + 1) == 1) continue;
    s[t] = v;
    syncthreads();
    syncthreads();
    v = s[(t + 1) % n] + (int)q;
    syncthreads();
  }
  out[blockIdx.x * n + t] = v * 100 + (int)lane + (int)g * 10000;
  syncthreads();
}

static void check_edge_barriers(void) {
  unsigned bx = 8, by = 6, n = bx * by, blocks = 4;
  int rounds = 5;
  int *d = device_array(int, n * blocks), *h = malloc(n * blocks * sizeof *h);
  int *v = malloc(n * sizeof *v), *w = malloc(n * sizeof *w);
  launch(edge_barriers, blocks, dim3(bx, by))(d, rounds);
  copy_to_host(h, d, n * blocks);
  for (unsigned b = 0; b < blocks; b++) {
    for (unsigned t = 0; t < n; t++) v[t] = (int)t;
    for (int r = 0; r < rounds; r++) {
      if ((unsigned)r % (b + 1) == 1) continue;
      for (unsigned t = 0; t < n; t++) w[t] = v[(t + 1) % n] + (int)(t / bx);
      memcpy(v, w, n * sizeof *v);
    }
    for (unsigned t = 0; t < n; t++) {
      int e = v[t] * 100 + (int)(t % 32) + (int)(blocks * 7 + b) * 10000;
      KT_CHECK(h[b * n + t] == e, "edge_barriers: out[%u] = %d, expected %d", b * n + t,
               h[b * n + t], e);
    }
  }
  kp_free(d), free(h), free(v), free(w);
}

static int *device_copy(const int *h, size_t count) {
  int *d = device_array(int, count);
  copy_to_device(d, h, count);
  return d;
}

#define CHECK_ALL(name, got, ref, count)                                                         \
  for (unsigned i_ = 0; i_ < (count); i_++)                                                      \
    KT_CHECK((got)[i_] == (ref)[i_], "%s (%u, %u, %u) x %u: out[%u] = %lld, expected %lld", name, \
             bx, by, bz, blocks, i_, (long long)(got)[i_], (long long)(ref)[i_])

/* Every kernel on one block shape; blocks >= 3. */
static void check_shape(unsigned bx, unsigned by, unsigned bz, unsigned blocks) {
  unsigned n = bx * by * bz, total = n * blocks;
  int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
  int *ref = malloc(total * sizeof *ref);
  long long *out64 = malloc(total * sizeof *out64), *ref64 = malloc(total * sizeof *ref64);
  for (unsigned i = 0; i < total; i++) in[i] = (int)((i * 37 + 11) % 1000);
  int *d_in = device_copy(in, total), *d_out = device_array(int, total);
  long long *d_out64 = device_array(long long, total);
  kp_dim3 shape = dim3(bx, by, bz);

  for (int mode = 1; mode <= 3; mode++) {
    launch(branch_value, blocks, shape)(d_out, mode);
    copy_to_host(out, d_out, total);
    for (unsigned b = 0; b < blocks; b++) ref_branch_value(ref + b * n, n, mode);
    CHECK_ALL("branch_value", out, ref, total);
  }

  launch(phi_divergent, blocks, shape)(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) ref_phi_divergent(ref + b * n, in + b * n, n);
  CHECK_ALL("phi_divergent", out, ref, total);

  for (int outer = 0; outer <= 2; outer++) {
    launch(nested_loops, blocks, shape)(d_out, outer);
    copy_to_host(out, d_out, total);
    for (unsigned b = 0; b < blocks; b++) ref_nested_loops(ref + b * n, n, bx, b, outer);
    CHECK_ALL("nested_loops", out, ref, total);
  }

  static const int cf[][2] = {{10, -1}, {3, 1}, {8, 0}, {9, 6}};
  for (unsigned c = 0; c < sizeof cf / sizeof cf[0]; c++) {
    launch(control_flow, blocks, shape)(d_out, cf[c][0], cf[c][1]);
    copy_to_host(out, d_out, total);
    for (unsigned b = 0; b < blocks; b++) ref_control_flow(ref + b * n, n, b, cf[c][0], cf[c][1]);
    CHECK_ALL("control_flow", out, ref, total);
  }

  for (int sel = 0; sel <= 2; sel++) {
    launch(uniform_switch, blocks, shape)(d_out, sel);
    copy_to_host(out, d_out, total);
    for (unsigned b = 0; b < blocks; b++) ref_uniform_switch(ref + b * n, n, b, sel);
    CHECK_ALL("uniform_switch", out, ref, total);
  }

  launch(device_fn_loop, blocks, shape)(d_out, 4);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) ref_device_fn_loop(ref + b * n, n, 4);
  CHECK_ALL("device_fn_loop", out, ref, total);

  launch(local_arrays, blocks, shape)(d_out, 7);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) ref_local_arrays(ref + b * n, n, 7);
  CHECK_ALL("local_arrays", out, ref, total);

  launch(dynamic_atomics, blocks, shape, (n + 1) * sizeof(int))(d_out);
  copy_to_host(out, d_out, total);
  for (unsigned i = 0; i < total; i++) ref[i] = (int)(n * (n - 1) / 2) + 3;
  CHECK_ALL("dynamic_atomics", out, ref, total);

  launch(wide_values, blocks, shape)(d_in, d_out64);
  copy_to_host(out64, d_out64, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) {
      int x = in[b * n + t];
      long long big = (long long)x * 1000003LL * (t + 1);
      double root = sqrt((double)t) + (double)big * 1e-9;
      ref64[b * n + t] = big + (long long)(root * 1e6) + (long long)((float)t * 0.75f * 4) +
                         (x % 2 != 0) * 7;
    }
  CHECK_ALL("wide_values", out64, ref64, total);

  unsigned tiles = blocks * 2 + 1;
  int *tin = malloc(tiles * n * sizeof *tin), *tref = malloc(tiles * n * sizeof *tref);
  int *tout = malloc(tiles * n * sizeof *tout);
  for (unsigned i = 0; i < tiles * n; i++) tin[i] = (int)(i * 7 % 501);
  int *d_tin = device_copy(tin, tiles * n), *d_tout = device_array(int, tiles * n);
  launch(grid_stride, blocks, shape)(d_tin, d_tout, tiles);
  copy_to_host(tout, d_tout, tiles * n);
  for (unsigned i = 0; i < tiles; i++)
    for (unsigned t = 0; t < n; t++) tref[i * n + t] = tin[i * n + n - 1 - t] + (int)i;
  CHECK_ALL("grid_stride", tout, tref, tiles * n);
  kp_free(d_tin), kp_free(d_tout), free(tin), free(tref), free(tout);

  launch(blocks_3d, blocks, shape)(d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned z = 0; z < bz; z++)
      for (unsigned y = 0; y < by; y++)
        for (unsigned x = 0; x < bx; x++)
          ref[b * n + (z * by + y) * bx + x] =
              (int)((bx - 1 - x) * 10000 + (by - 1 - y) * 100 + (bz - 1 - z) + b * 1000000);
  CHECK_ALL("blocks_3d", out, ref, total);

  int *counts = malloc(blocks * sizeof *counts);
  for (unsigned b = 0; b < blocks; b++) counts[b] = (int)(b % 4);
  int *d_counts = device_copy(counts, blocks);
  launch(loaded_count, blocks, shape)(d_counts, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++)
      ref[b * n + t] = (int)((t + (unsigned)counts[b]) % n) + counts[b];
  CHECK_ALL("loaded_count", out, ref, total);
  kp_free(d_counts), free(counts);

  copy_to_device(d_out, in, total);
  launch(guarded_store, blocks, shape)(d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) {
      unsigned s = (t + 3) % n;
      ref[b * n + t] = t < n / 2 ? (s % 3 == 0 ? (int)s * 5 : 0) + 1 : -(int)t;
    }
  CHECK_ALL("guarded_store", out, ref, total);

  launch(later_iteration, blocks, shape)(d_out, 4);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++) ref_later_iteration(ref + b * n, n, 4);
  CHECK_ALL("later_iteration", out, ref, total);

  copy_to_device(d_out, in, total);
  launch(first_thread_leaves, blocks, shape)(d_out, 3);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) {
      int u = 3 * (int)b + 1;
      ref[b * n + t] = t == 0 ? in[b * n] : (int)(n - t) * u + u;
    }
  CHECK_ALL("first_thread_leaves", out, ref, total);

  launch(temporal, blocks, shape)(d_in, d_out);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) {
      int u = 0, k = 0, last = 0;
      for (unsigned i = 0; i < b + 2; i++) u += (int)i * 3;
      while (k < 10) {
        last = k * (int)(b + 1);
        if (in[b * n + t] % 10 <= k) break;
        k++;
      }
      ref[b * n + t] = u * 1000 + last * 10 + (int)(t % 2);
    }
  CHECK_ALL("temporal", out, ref, total);

  launch(near_limit, blocks, shape)(d_out, 5);
  copy_to_host(out, d_out, total);
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < n; t++) ref[b * n + t] = (int)(t * ((t + 5) % 56) + t * 3);
  CHECK_ALL("near_limit", out, ref, total);

  kp_free(d_in), kp_free(d_out), kp_free(d_out64);
  free(in), free(out), free(ref), free(out64), free(ref64);
}

int main(void) {
  kt_start("barrier_split_adversarial");
  check_shape(1, 1, 1, 3);
  check_shape(32, 1, 1, 4);
  check_shape(7, 5, 3, 3);
  check_shape(4, 3, 2, 5);
  check_shape(16, 16, 1, 3);
  check_shape(1024, 1, 1, 3);
  check_shape(8, 8, 16, 3);
  check_mixed_state();
  check_edge_barriers();
  printf("barrier_split_adversarial: OK\n");
  return 0;
}
