/* computed_goto.c — GNU computed goto (`&&label`, `goto *p`) in device code: a static table
 * of labels (the finding that crashed NVPTX instruction selection), a bytecode interpreter
 * with a local table in a device function, and a kernel with a barrier, whose CPU entry is
 * split at it (the body is cloned: label addresses must not name the original's blocks). */
#include "kernel_test.h"

enum { N = 256, BLOCK = 64 };

__attribute__((kernel)) void by_table(int *out, int n) {
  static void *const tbl[] = {&&a, &&b, &&c};
  int i = grid(1);
  if (i >= n) return;
  goto *tbl[i % 3];
a: out[i] = 10; return;
b: out[i] = 20; return;
c: out[i] = 30; return;
}

/* A tiny stack machine: PUSH k, ADD, MUL, HALT, dispatched through a local label table. */
enum { OP_PUSH, OP_ADD, OP_MUL, OP_HALT };

__attribute__((device)) int run(const int *code, int x) {
  void *ops[] = {&&push, &&add, &&mul, &&halt};
  int stack[8], sp = 0, pc = 0;
  stack[sp++] = x;
#define NEXT goto *ops[code[pc++]]
  NEXT;
push:
  stack[sp++] = code[pc++];
  NEXT;
add:
  sp--;
  stack[sp - 1] += stack[sp];
  NEXT;
mul:
  sp--;
  stack[sp - 1] *= stack[sp];
  NEXT;
halt:
  return stack[sp - 1];
#undef NEXT
}

__attribute__((kernel)) void interpret(const int *code, int *out, int n) {
  int i = grid(1);
  if (i < n) out[i] = run(code, i); /* (i + 3) * 2 + 1 */
}

/* Each thread picks a label by its index before and after a barrier. */
__attribute__((kernel)) void with_barrier(int *out) {
  static __attribute__((shared)) int tile[BLOCK];
  static void *const tbl[] = {&&even, &&odd};
  int t = threadIdx.x, i = grid(1);
  tile[t] = t;
  syncthreads();
  int v = tile[BLOCK - 1 - t];
  goto *tbl[t & 1];
even: out[i] = v * 2; return;
odd: out[i] = v * 3; return;
}

int main(void) {
  kt_start("computed_goto");
  int h[N];
  int *d = device_array(int, N);

  launch(by_table, N / BLOCK, BLOCK)(d, N);
  copy_to_host(h, d, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(h[i] == 10 * (i % 3 + 1), "by_table[%d] = %d", i, h[i]);

  const int program[] = {OP_PUSH, 3, OP_ADD, OP_PUSH, 2, OP_MUL, OP_PUSH, 1, OP_ADD, OP_HALT};
  int *code = to_device(program, (int)(sizeof program / sizeof program[0]));
  launch(interpret, N / BLOCK, BLOCK)(code, d, N);
  copy_to_host(h, d, N);
  for (int i = 0; i < N; i++)
    KT_CHECK(h[i] == (i + 3) * 2 + 1, "interpret[%d] = %d", i, h[i]);

  launch(with_barrier, N / BLOCK, BLOCK)(d);
  copy_to_host(h, d, N);
  for (int i = 0; i < N; i++) {
    int t = i % BLOCK, v = BLOCK - 1 - t;
    KT_CHECK(h[i] == v * (t & 1 ? 3 : 2), "with_barrier[%d] = %d", i, h[i]);
  }

  kp_free(code);
  kp_free(d);
  printf("computed_goto: ok\n");
  return 0;
}
