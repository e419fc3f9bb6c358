// Split mode (-fplugin-arg-kernplug-split=<id>, what kernplug-gcc.so runs): the assembly holds
// the kernel side only. The stub of an external kernel and the user's vectorize function stay
// global; a static kernel is global but hidden as __kp.<id>.<name>; main, the user's
// constructor and host-only code are gone; every local symbol is prefixed kp.<id>.
// RUN: %clang -fplugin=%kernplug -I%include -fplugin-arg-kernplug-split=t1 -fno-addrsig -O2 -S -o - %s | FileCheck %s --implicit-check-not=main --implicit-check-not=user_init --implicit-check-not=host_counter
// RUN: %clang -fplugin=%kernplug -I%include -fplugin-arg-kernplug-split=t1 -fno-addrsig -O0 -S -o - %s | FileCheck %s --implicit-check-not=main --implicit-check-not=user_init --implicit-check-not=host_counter
// RUN: not %clang -fplugin=%kernplug -I%include -fplugin-arg-kernplug-split=a.b -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=BADID
#include <kernplug.h>
#include <stdio.h>

// BADID: split= takes an id of letters, digits and '_' (got 'a.b')

// CHECK-DAG: .globl k_ext
// CHECK-DAG: .globl __kp.t1.k_static
// CHECK-DAG: .hidden __kp.t1.k_static
// CHECK-DAG: .globl square
// CHECK-DAG: kp.t1.__kp_register:
// CHECK-DAG: .section .kp_ptx
// CHECK-DAG: .section .init_array

int host_counter;
__attribute__((constructor)) static void user_init(void) { host_counter = 1; }

static float twice(float x) { return 2 * x; }

__attribute__((kernel)) void k_ext(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] = twice(x[i]);
}

__attribute__((kernel)) static void k_static(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] += 1;
}

__attribute__((vectorize("f32(f32)"))) float square(float x) { return x * x; }

void run(float *x, int n) { launch(k_static, 1, n)(x, n); }

int main(void) {
  printf("%d\n", host_counter);
  return 0;
}
