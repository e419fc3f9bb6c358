// Static shared arrays, in kernels and device functions, of several types and shapes, are
// .shared in PTX and accessed with shared-space instructions; dynamic shared memory is the
// device runtime's .extern .shared array.
#include <kernplug.h>
typedef struct pair { int a; double b; } pair;
// static: a non-static device function is also exported to other files' device code, and its
// array is then declared at module scope, before the kernel (docs/compiling.md).
static __attribute__((device)) double from_device_function(int t) {
  static __attribute__((shared)) double ring[64];
  ring[t] = t;
  syncthreads();
  return ring[(t + 1) % 64];
}
__attribute__((kernel)) void statics(char *oc, short *os, long long *ol, float *of, pair *op,
                                     double *od) {
  static __attribute__((shared)) char c[128];
  static __attribute__((shared)) short s[8][16];
  static __attribute__((shared)) long long l[2][4][8];
  static __attribute__((shared)) float f[32];
  static __attribute__((shared)) pair p[16];
  unsigned t = threadIdx.x;
  c[t] = (char)t;
  s[t / 16][t % 16] = (short)t;
  l[t / 32][(t / 8) % 4][t % 8] = t;
  f[t % 32] = (float)t;
  p[t % 16].a = (int)t;
  syncthreads();
  oc[t] = c[127 - t];
  os[t] = s[7 - t / 16][t % 16];
  ol[t] = l[1 - t / 32][(t / 8) % 4][7 - t % 8];
  of[t] = f[(t + 1) % 32];
  op[t] = p[(t + 3) % 16];
  od[t] = from_device_function((int)t % 64);
}
__attribute__((kernel)) void dynamic(float *out) {
  float *buf = kp_dynamic_shared(float);
  buf[threadIdx.x] = out[threadIdx.x];
  syncthreads();
  out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
// No shared array may end up in global memory.
// PTX-NOT: .global {{.*}}_$_
// PTX: .extern .shared .align 16 .b8 kp_dynamic_shared_mem[];
// PTX-LABEL: .visible .entry statics(
// PTX-DAG: .shared .align {{[0-9]+}} .b8 from_device_function_$_ring[512];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 statics_$_c[128];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 statics_$_s[256];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 statics_$_l[512];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 statics_$_f[128];
// PTX-DAG: .shared .align {{[0-9]+}} .b8 statics_$_p[256];
// PTX-DAG: st.shared.{{u8|b8}}
// PTX-DAG: st.shared.{{u16|b16}}
// PTX-DAG: st.shared.{{u32|b32}}
// PTX-DAG: st.shared.{{u64|b64}}
// PTX-DAG: st.shared.{{f32|b32}}
// PTX-DAG: st.shared.{{f64|b64}}
// PTX-DAG: ld.shared.{{u8|b8}}
// PTX-DAG: ld.shared.{{u16|b16}}
// PTX-DAG: ld.shared.{{f32|b32}}
// PTX-DAG: ld.shared.{{f64|b64}}
// PTX-DAG: bar.sync 0;
// PTX-NOT: .global {{.*}}_$_
// PTX-LABEL: .visible .entry dynamic(
// PTX: kp_dynamic_shared_mem
// PTX: st.shared.{{f32|b32}}
// PTX: bar.sync 0;
// PTX: ld.shared.{{f32|b32}}
