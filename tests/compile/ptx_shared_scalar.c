// Scalar and struct shared variables are .shared in PTX, like arrays, and accessed with
// shared-space instructions (atomics included).
#include <kernplug.h>
typedef struct range { int lo, hi; } range;
__attribute__((kernel)) void scalars(const int *in, int *out, double *od) {
  static __attribute__((shared)) int count;
  static __attribute__((shared)) double total;
  static __attribute__((shared)) range r;
  if (threadIdx.x == 0) count = 0, total = 0, r.lo = 1 << 30, r.hi = -1;
  syncthreads();
  atomic_add(&count, 1);
  atomic_add(&total, (double)in[threadIdx.x]);
  atomic_min(&r.lo, in[threadIdx.x]);
  syncthreads();
  if (threadIdx.x == 0) out[0] = count, out[1] = r.lo, od[0] = total;
}
// PTX: .shared .align 4 .u32 scalars_$_count;
// PTX: .shared .align 8 .f64 scalars_$_total;
// PTX: .shared .align 4 .b8 scalars_$_r[8];
// PTX: atom.shared.add.u32
// PTX: atom.shared.add.f64
// PTX: atom.shared.min.s32
