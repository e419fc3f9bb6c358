// What the passes decide per kernel are optimisation remarks of the pass "kernplug", placed
// at the kernel: -Rpass=kernplug shows them, -fsave-optimization-record writes them,
// -fplugin-arg-kernplug-verbose turns them on; without any, nothing is printed.
// RUN: %clang -fplugin=%kernplug -I%include -c %s -o %t.o -Rpass=kernplug 2>&1 | FileCheck %s
// RUN: %clang -fplugin=%kernplug -I%include -c %s -o %t.o -fplugin-arg-kernplug-verbose 2>&1 | FileCheck %s --check-prefixes=CHECK,VERBOSE
// RUN: %clang -fplugin=%kernplug -I%include -c %s -o %t.o -fsave-optimization-record -foptimization-record-file=%t.yaml
// RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml
// RUN: %clang -fplugin=%kernplug -I%include -c %s -o %t.o 2>&1 | count 0
#include <kernplug.h>

// CHECK-DAG: remarks.c:[[@LINE+1]]:30: remark: kernplug: kernel 'split': barriers split into 2 regions on the CPU [-Rpass=kernplug]
__attribute__((kernel)) void split(float *x) {
  static __attribute__((shared)) float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  syncthreads();
  x[threadIdx.x] = s[63 - threadIdx.x];
}

// CHECK-DAG: remarks.c:[[@LINE+1]]:30: remark: kernplug: kernel 'votes': barriers kept on fibers on the CPU: syncthreads(){{( \(line 20\))?}} under a branch that depends on the thread{{( \(line 20\))?}} [-Rpass=kernplug]
__attribute__((kernel)) void votes(int *x) { if (x[threadIdx.x]) syncthreads(); }

// CHECK-DAG: remarks.c:[[@LINE+1]]:30: remark: kernplug: kernel 'plain': CPU entry = block loop [-Rpass=kernplug]
__attribute__((kernel)) void plain(float *x) { x[threadIdx.x] *= 2; }

// The device job's notes have no kernel to stand at: backend-plugin remarks, verbose only.
// VERBOSE: remark: kernplug: PTX for sm_75: {{[0-9]+}} bytes, 3 kernel(s)
// VERBOSE: remark: kernplug: device code: {{.*}} ms beside the host pipeline

// YAML:      --- !Passed
// YAML-NEXT: Pass: kernplug
// YAML-NEXT: Name: CpuEntry
// YAML-NEXT: Function: plain
// YAML:      Name: BarrierSplitLoops
// YAML-NEXT: Function: split
// YAML:      --- !Passed
// YAML-NEXT: Pass: kernplug
// YAML-NEXT: Name: BarrierSplit
// YAML-NEXT: Function: split
// YAML-NEXT: Args:
// YAML-NEXT:   - String: 'kernplug: kernel ''split'': barriers split into 2 regions on the CPU'
// YAML:      Name: BarrierFibers
// YAML-NEXT: Function: votes
