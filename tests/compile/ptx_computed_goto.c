// Computed goto in device code (NVPTX has no indirect branch; LLVM 19 died selecting brind):
// label addresses become small integers and `goto *p` a switch over them.
#include <kernplug.h>

__attribute__((kernel)) void by_table(int *out) {
  static void *const tbl[] = {&&a, &&b, &&c};
  int i = grid(1);
  goto *tbl[i % 3];
a: out[i] = 10; return;
b: out[i] = 20; return;
c: out[i] = 30; return;
}
// PTX-LABEL: .visible .entry by_table(
// PTX-NOT: brx.idx
// PTX: ret;

__attribute__((device)) int pick(int k) {
  void *labels[] = {&&one, &&two};
  goto *labels[k & 1];
one: return 1;
two: return 2;
}

__attribute__((kernel)) void by_local_table(int *out) { out[grid(1)] = pick(grid(1)); }
// PTX-LABEL: .visible .entry by_local_table(
// PTX-NOT: brx.idx
// PTX: ret;
