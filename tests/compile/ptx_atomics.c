// Every atomic op on every type: one atom.* instruction where the hardware has one (no loop,
// no second atomic), a correct compare-and-swap loop where it has none (float max/min,
// 64-bit inc/dec), and atom.shared.* on shared arrays.
#include <kernplug.h>

#define KERNEL __attribute__((kernel)) void
#define INT_OPS(name, T)                                                                       \
  KERNEL name(T *p, T v, T *out) {                                                             \
    T r = atomic_add(p, v);                                                                    \
    r += atomic_sub(p + 1, v);                                                                 \
    r += atomic_and(p + 2, v);                                                                 \
    r += atomic_or(p + 3, v);                                                                  \
    r += atomic_xor(p + 4, v);                                                                 \
    r += atomic_exch(p + 5, v);                                                                \
    r += atomic_max(p + 6, v);                                                                 \
    r += atomic_min(p + 7, v);                                                                 \
    r += atomic_nanmax(p + 8, v);                                                              \
    r += atomic_nanmin(p + 9, v);                                                              \
    *out = r + atomic_cas(p + 10, v, r);                                                       \
  }

INT_OPS(ops_i32, int)
// PTX-LABEL: .visible .entry ops_i32(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.u32
// PTX-NOT: {{bra|atom}}
// PTX: neg.s32
// PTX-NEXT: atom.global.add.u32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.and.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.or.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.xor.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.s32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.s32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.s32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.s32
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: {{bra|atom|call}}

INT_OPS(ops_u32, unsigned)
// PTX-LABEL: .visible .entry ops_u32(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.u32
// PTX-NOT: {{bra|atom}}
// PTX: neg.s32
// PTX-NEXT: atom.global.add.u32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.and.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.or.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.xor.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.u32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.u32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.u32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.u32
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: {{bra|atom|call}}

INT_OPS(ops_il, long)
// PTX-LABEL: .visible .entry ops_il(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: neg.s64
// PTX-NEXT: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.and.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.or.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.xor.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: {{bra|atom|call}}

INT_OPS(ops_ul, unsigned long)
// PTX-LABEL: .visible .entry ops_ul(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: neg.s64
// PTX-NEXT: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.and.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.or.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.xor.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: {{bra|atom|call}}

INT_OPS(ops_i64, long long)
// PTX-LABEL: .visible .entry ops_i64(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: neg.s64
// PTX-NEXT: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.and.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.or.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.xor.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.s64
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: {{bra|atom|call}}

INT_OPS(ops_u64, unsigned long long)
// PTX-LABEL: .visible .entry ops_u64(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: neg.s64
// PTX-NEXT: atom.global.add.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.and.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.or.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.xor.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.max.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.min.u64
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: {{bra|atom|call}}

// float and double: add, sub (an add of -v), exch and cas are single instructions.
#define FLOAT_OPS(name, T)                                                                     \
  KERNEL name(T *p, T v, T *out) {                                                             \
    T r = atomic_add(p, v);                                                                    \
    r += atomic_sub(p + 1, v);                                                                 \
    r += atomic_exch(p + 2, v);                                                                \
    *out = r + atomic_cas(p + 3, v, r);                                                        \
  }
FLOAT_OPS(ops_f32, float)
// PTX-LABEL: .visible .entry ops_f32(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.f32
// PTX-NOT: {{bra|atom}}
// PTX: neg.f32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.f32
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b32
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: {{bra|atom|call}}
FLOAT_OPS(ops_f64, double)
// PTX-LABEL: .visible .entry ops_f64(
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.f64
// PTX-NOT: {{bra|atom}}
// PTX: neg.f64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.add.f64
// PTX-NOT: {{bra|atom}}
// PTX: atom.global.exch.b64
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: {{bra|atom|call}}

// 32-bit inc/dec: the hardware's wrapping atom.inc/atom.dec.
KERNEL incdec_u32(unsigned *p, unsigned limit, unsigned *out) {
  *out = atomic_inc(p, limit) + atomic_dec(p + 1, limit);
}
// PTX-LABEL: .visible .entry incdec_u32(
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(.global)?}}.inc.u32
// PTX-NOT: {{bra|atom}}
// PTX: atom{{(.global)?}}.dec.u32
// PTX-NOT: {{bra|atom|call}}

// Compare-and-swap loops: one load, then a loop around one atom.cas that retries with the
// value the failed cas returned. max/min test NaN on the bits (0x7f800000 and
// 0x7ff0000000000000 are the infinities) and leave the loop without a cas when nothing
// needs to change.
#define LOOP_OP(name, T, op)                                                                   \
  KERNEL name(T *p, T v, T *out) { *out = op(p, v); }
LOOP_OP(max_f32, float, atomic_max)
// PTX-LABEL: .visible .entry max_f32(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u32|b32}} [[OLD:%r[0-9]+]], [
// PTX: 2139095040
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f32
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(min_f32, float, atomic_min)
// PTX-LABEL: .visible .entry min_f32(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u32|b32}}
// PTX: 2139095040
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f32
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(nanmax_f32, float, atomic_nanmax)
// PTX-LABEL: .visible .entry nanmax_f32(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u32|b32}}
// PTX: 2139095040
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f32
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(nanmin_f32, float, atomic_nanmin)
// PTX-LABEL: .visible .entry nanmin_f32(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u32|b32}}
// PTX: 2139095040
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f32
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b32
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(max_f64, double, atomic_max)
// PTX-LABEL: .visible .entry max_f64(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u64|b64}}
// PTX: 9218868437227405312
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f64
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(min_f64, double, atomic_min)
// PTX-LABEL: .visible .entry min_f64(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u64|b64}}
// PTX: 9218868437227405312
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f64
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(nanmax_f64, double, atomic_nanmax)
// PTX-LABEL: .visible .entry nanmax_f64(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u64|b64}}
// PTX: 9218868437227405312
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f64
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(nanmin_f64, double, atomic_nanmin)
// PTX-LABEL: .visible .entry nanmin_f64(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u64|b64}}
// PTX: 9218868437227405312
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: atom
// PTX: setp.{{(lt|gt|leu|geu)}}.f64
// PTX-NOT: atom
// PTX: bra
// PTX-NOT: atom
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}

// 64-bit inc/dec: every iteration stores something, so the loop is cas-and-retry only.
LOOP_OP(inc_u64, unsigned long long, atomic_inc)
// PTX-LABEL: .visible .entry inc_u64(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u64|b64}}
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: {{atom|bra}}
// PTX: setp.{{[a-z]+}}.u64
// PTX-NOT: {{atom|bra}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(dec_u64, unsigned long long, atomic_dec)
// PTX-LABEL: .visible .entry dec_u64(
// PTX-NOT: atom
// PTX: ld.{{volatile|relaxed.sys}}.global.{{u64|b64}}
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: {{atom|bra}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(inc_ul, unsigned long, atomic_inc)
// PTX-LABEL: .visible .entry inc_ul(
// PTX-NOT: atom
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: {{atom|bra}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}
LOOP_OP(dec_ul, unsigned long, atomic_dec)
// PTX-LABEL: .visible .entry dec_ul(
// PTX-NOT: atom
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: {{atom|bra}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.global.cas.b64
// PTX-NOT: atom
// PTX: bra {{.*}}[[LOOP]];
// PTX-NOT: {{atom|call}}

// Shared arrays: .shared storage and atom.shared.* (inc goes through a generic address).
KERNEL shared_ops(int *out) {
  static __attribute__((shared)) int s_i[32];
  static __attribute__((shared)) unsigned s_u[32];
  static __attribute__((shared)) unsigned long long s_ull[32];
  static __attribute__((shared)) float s_f[32];
  static __attribute__((shared)) double s_d[32];
  unsigned t = threadIdx.x % 32;
  int r = atomic_add(&s_i[t], 1) + atomic_xor(&s_i[t], 5) + atomic_min(&s_i[t], 7);
  r += (int)atomic_max(&s_u[t], 3u) + (int)atomic_inc(&s_u[t], 9u);
  r += (int)atomic_or(&s_ull[t], 4ull) + (int)atomic_cas(&s_ull[t], 4ull, 8ull);
  r += (int)atomic_add(&s_f[t], 1.5f) + (int)atomic_exch(&s_f[t], 2.0f);
  r += (int)atomic_add(&s_d[t], 2.5) + (int)atomic_sub(&s_d[t], 0.5);
  out[grid(1)] = r;
}
// PTX-LABEL: .visible .entry shared_ops(
// PTX-DAG: .shared .align {{[0-9]+}} .b8 shared_ops_$_s_i[128];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 shared_ops_$_s_u[128];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 shared_ops_$_s_ull[256];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 shared_ops_$_s_f[128];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 shared_ops_$_s_d[256];
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.add.u32
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.xor.b32
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.min.s32
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.max.u32
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom{{(.shared)?}}.inc.u32
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.or.b64
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom{{(\.relaxed\.[a-z]+)?}}.shared.cas.b64
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.add.f32
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.exch.b32
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.add.f64
// PTX-NOT: {{bra|atom.global|call}}
// PTX: atom.shared.add.f64 {{.*}}, 0dBFE0000000000000;
// PTX-NOT: {{bra|atom|call}}
