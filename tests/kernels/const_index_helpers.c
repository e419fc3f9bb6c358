/* const_index_helpers.c — helpers declared `const` or `pure` that read thread indices, as
 * kernplug.h's own kp_dev_tid_x() is: an index is constant for one GPU thread. On the CPU a
 * loop runs many threads through the same code, and such a call was hoisted out of it:
 * every thread got thread 0's index. Per-block entries, guard-free (versioned) loops, the
 * barrier split and fibers (the .fibers build) must all give each thread its own. */
#include "kernel_test.h"

__attribute__((const, noinline)) static int my_tid(void) { return (int)threadIdx.x; }
__attribute__((const)) static int my_tid_inlined(void) { return (int)threadIdx.x; }
/* const through another const function, in two dimensions. */
__attribute__((const, noinline)) static int linear(void) {
  return my_tid() + (int)blockDim.x * (int)threadIdx.y;
}
__attribute__((pure, noinline)) static int offset_of(const int *base) {
  return base[0] + (int)(blockIdx.x * blockDim.x * blockDim.y);
}

__attribute__((kernel)) void plain(int *out) { out[grid(1)] = my_tid() * 1000 + my_tid_inlined(); }

/* A guard on the helper's value: ThreadLoopVersioning must not take it as loop-invariant. */
__attribute__((kernel)) void guarded(int *out, int n) {
  if (my_tid() < n) out[grid(1)] = my_tid();
  else out[grid(1)] = -1;
}

__attribute__((kernel)) void two_d(int *out, const int *base) {
  out[offset_of(base) + linear()] = linear();
}

/* A loop in each thread: hoisting the call out of it is right, out of the thread loop not. */
__attribute__((kernel)) void looped(int *out, int reps) {
  int s = 0;
  for (int r = 0; r < reps; r++) s += my_tid();
  out[grid(1)] = s;
}

/* The barrier split (or fibers): the helper's value crosses the barrier. */
__attribute__((kernel)) void across_barrier(int *out) {
  static __attribute__((shared)) int tile[64];
  int t = my_tid();
  tile[t] = linear();
  syncthreads();
  out[blockIdx.x * 64 + t] = tile[63 - t] + t * 1000;
}

enum { B = 4, T = 64 };

int main(void) {
  kt_start("const_index_helpers");
  int h[B * T], *d = device_array(int, B * T);
  launch(plain, B, T)(d);
  copy_to_host(h, d, B * T);
  for (int i = 0; i < B * T; i++)
    KT_CHECK(h[i] == i % T * 1001, "plain: out[%d] = %d, expected %d", i, h[i], i % T * 1001);

  launch(guarded, B, T)(d, 40);
  copy_to_host(h, d, B * T);
  for (int i = 0; i < B * T; i++) {
    int want = i % T < 40 ? i % T : -1;
    KT_CHECK(h[i] == want, "guarded: out[%d] = %d, expected %d", i, h[i], want);
  }

  int zero = 0, *dzero = to_device(&zero, 1);
  launch(two_d, B, dim3(16, 4))(d, dzero);
  copy_to_host(h, d, B * T);
  for (int i = 0; i < B * T; i++)
    KT_CHECK(h[i] == i % T, "two_d: out[%d] = %d, expected %d", i, h[i], i % T);
  kp_free(dzero);

  launch(looped, B, T)(d, 3);
  copy_to_host(h, d, B * T);
  for (int i = 0; i < B * T; i++)
    KT_CHECK(h[i] == 3 * (i % T), "looped: out[%d] = %d, expected %d", i, h[i], 3 * (i % T));

  launch(across_barrier, B, T)(d);
  copy_to_host(h, d, B * T);
  for (int i = 0; i < B * T; i++) {
    int want = 63 - i % T + i % T * 1000;
    KT_CHECK(h[i] == want, "across_barrier: out[%d] = %d, expected %d", i, h[i], want);
  }
  kp_free(d);
  puts("const_index_helpers: OK");
  return 0;
}
