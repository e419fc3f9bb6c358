// Warp intrinsics are single instructions: shfl.sync.{idx,up,down,bfly}.b32 (two of them for
// a 64-bit value), vote.sync.{ballot,all,any}, activemask and %laneid. The c operand of
// shfl.sync is 31 (clamp at the top lane) except for up (0); the mask passes through.
#include <kernplug.h>

#define KERNEL __attribute__((kernel)) void
#define SHFL_ALL(name, T)                                                                      \
  KERNEL name(T *p, unsigned mask, int lane, unsigned delta) {                                 \
    T v = p[grid(1)];                                                                          \
    p[grid(1)] = shfl_sync(mask, v, lane) + shfl_up_sync(mask, v, delta) +                     \
                 shfl_down_sync(mask, v, delta) + shfl_xor_sync(mask, v, lane);                \
  }

SHFL_ALL(shfl_int, int)
// PTX-LABEL: .visible .entry shfl_int(
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 31, {{%r[0-9]+}};
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.up.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 0, {{%r[0-9]+}};
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 31, {{%r[0-9]+}};
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 31, {{%r[0-9]+}};
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: ret;
SHFL_ALL(shfl_unsigned, unsigned)
// PTX-LABEL: .visible .entry shfl_unsigned(
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.idx.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.up.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.down.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.bfly.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: ret;
SHFL_ALL(shfl_float, float)
// PTX-LABEL: .visible .entry shfl_float(
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.idx.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.up.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.down.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: shfl.sync.bfly.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: ret;

// 64-bit values: the two halves, each one shuffle.
SHFL_ALL(shfl_llong, long long)
// PTX-LABEL: .visible .entry shfl_llong(
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.idx.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.up.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.down.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.bfly.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: ret;
SHFL_ALL(shfl_double, double)
// PTX-LABEL: .visible .entry shfl_double(
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.idx.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.up.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.down.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX-COUNT-2: shfl.sync.bfly.b32
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: ret;

// Constant operands become immediates: a partial mask, a lane, a delta.
KERNEL shfl_partial(int *p) {
  int v = p[grid(1)];
  p[grid(1)] = shfl_sync(0xffffu, v, 5) + shfl_down_sync(0xffffu, v, 3u);
}
// PTX-LABEL: .visible .entry shfl_partial(
// PTX: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 5, 31, 65535;
// PTX-NEXT: shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 3, 31, 65535;
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: ret;

KERNEL votes(unsigned *out, const int *in, unsigned mask) {
  int x = in[grid(1)];
  out[grid(1)] = ballot_sync(mask, x > 3) + (unsigned)all_sync(mask, x) +
                 (unsigned)any_sync(0xffffffffu, x & 1) + activemask();
}
// PTX-LABEL: .visible .entry votes(
// PTX-NOT: {{vote.sync|bra|call}}
// PTX: vote.sync.ballot.b32 {{%r[0-9]+}}, {{%p[0-9]+}}, {{%r[0-9]+}};
// PTX-NOT: {{vote.sync|bra|call}}
// PTX: vote.sync.all.pred {{%p[0-9]+}}, {{%p[0-9]+}}, {{%r[0-9]+}};
// PTX-NOT: {{vote.sync|bra|call}}
// PTX: vote.sync.any.pred {{%p[0-9]+}}, {{%p[0-9]+}}, -1;
// PTX-NOT: {{vote.sync|bra|call}}
// PTX: activemask.b32
// PTX-NOT: {{vote.sync|bra|call}}
// PTX: ret;

// laneid() reads %laneid; warpsize is the constant 32.
KERNEL lanes(int *out) { out[grid(1)] = laneid() * warpsize; }
// PTX-LABEL: .visible .entry lanes(
// PTX-NOT: {{WARP_SZ|call}}
// PTX: mov.u32 [[LANE:%r[0-9]+]], %laneid;
// PTX-NOT: {{WARP_SZ|call}}
// PTX: shl.b32 {{%r[0-9]+}}, [[LANE]], 5;
// PTX-NOT: {{WARP_SZ|call}}
// PTX: ret;

// A warp reduction: five butterfly shuffles, unrolled, no loop left.
KERNEL warp_sum(float *p) {
  float v = p[grid(1)];
  for (int offset = 16; offset > 0; offset /= 2)
    v += shfl_xor_sync(0xffffffffu, v, offset);
  p[grid(1)] = v;
}
// PTX-LABEL: .visible .entry warp_sum(
// PTX-NOT: {{bra|call}}
// PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 8, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 4, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 31, -1;
// PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
// PTX-NOT: {{shfl.sync|bra|call}}
// PTX: ret;
