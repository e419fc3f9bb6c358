/* struct_odd_sizes.c — structs whose size is not a power of two, by value: x86-64 passes one
 * of 3, 5, 6 or 7 bytes as an i24, i40, i48 or i56 (and the last piece of one of 11 to 15
 * bytes likewise), which became `.param .u24`-style PTX that ptxas rejects. As kernel
 * parameters, and as parameters and results of device functions that are not inlined. */
#include "kernel_test.h"

typedef struct rgb { char r, g, b; } rgb;            /* i24 */
typedef struct five { char c[5]; } five;             /* i40 */
typedef struct six { char c[6]; } six;               /* i48 */
typedef struct seven { char c[7]; } seven;           /* i56 */
typedef struct eleven { char c[11]; } eleven;        /* i64, i24 */
typedef struct thirteen { char c[13]; } thirteen;    /* i64, i40 */

__attribute__((noinline)) static rgb brighter(rgb p, int by) {
  rgb q = {(char)(p.r + by), (char)(p.g + by), (char)(p.b + by)};
  return q;
}
__attribute__((noinline)) static seven shifted(seven v, six s) {
  for (int k = 0; k < 6; k++) v.c[k] = (char)(v.c[k + 1] + s.c[k]);
  return v;
}

__attribute__((kernel)) void k(rgb p, five f, six s, seven v, eleven e, thirteen x, int *out,
                               int n) {
  int i = grid(1);
  if (i >= n) return;
  rgb q = brighter(p, i % 4);
  seven w = shifted(v, s);
  out[i] = q.r + q.g + q.b + f.c[0] + f.c[4] + s.c[5] + v.c[6] + w.c[5] + e.c[0] + e.c[10] +
           x.c[0] + x.c[12] + i;
}

int main(void) {
  kt_start("struct_odd_sizes");
  enum { N = 100 };
  int h[N], *d = device_array(int, N);
  rgb p = {1, 2, 3};
  five f = {{100, 0, 0, 0, 7}};
  six s = {{0, 0, 0, 0, 0, 20}};
  seven v = {{0, 0, 0, 0, 0, 0, 30}};
  eleven e = {{90, 0, 0, 0, 0, 0, 0, 0, 0, 0, 40}};
  thirteen x = {{50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 60}};
  launch(k, (N + 31) / 32, 32)(p, f, s, v, e, x, d, N);
  copy_to_host(h, d, N);
  kp_free(d);
  for (int i = 0; i < N; i++) {
    /* w.c[5] = v.c[6] + s.c[5] = 50 */
    int want = 6 + 3 * (i % 4) + 100 + 7 + 20 + 30 + 50 + 90 + 40 + 50 + 60 + i;
    KT_CHECK(h[i] == want, "out[%d] = %d, expected %d", i, h[i], want);
  }
  puts("struct_odd_sizes: OK");
  return 0;
}

/* The device kernel (tests/compile: compile.ptx.struct_odd_sizes) takes them as .u32/.u64,
 * which ptxas accepts:
 * PTX-LABEL: .visible .entry k(
 * PTX-NEXT: .param .u32 k_param_0,
 * PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}k_param_1,
 * PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}k_param_2,
 * PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}k_param_3,
 * PTX-NEXT: .param .u64 {{(\.ptr \.align [0-9]+ )?}}k_param_4,
 * PTX-NEXT: .param .u32 k_param_5,
 * PTX-NEXT: .param .align 8 .b8 k_param_6[13],
 * PTX-NOT: .u24
 * PTX-NOT: .u40
 * PTX-NOT: .u48
 * PTX-NOT: .u56
 */
