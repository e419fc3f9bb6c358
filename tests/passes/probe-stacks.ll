; kernplug-probe-stacks: every host function a kernel reaches gets stack probes (fibers'
; stacks are separated by a guard page a large frame must not step over); the others do not.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-probe-stacks -S %s | FileCheck %s

; CHECK: define void @k() #[[PROBE:[0-9]+]]
; CHECK: define internal void @helper() #[[PROBE]]
; CHECK: define void @unrelated() {
; CHECK: attributes #[[PROBE]] = { "probe-stack"="inline-asm" }

define void @k() {
  call void @helper()
  ret void
}

define internal void @helper() {
  ret void
}

define void @unrelated() {
  ret void
}

!kernplug.kernels = !{!0}
!0 = !{!"k", ptr @k, ptr @k, i1 false, !"", i64 0, !"in.c", i32 1, !{}}
