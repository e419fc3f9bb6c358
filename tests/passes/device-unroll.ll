; kernplug-device-unroll (device module): as ptxas does for nvcc, an innermost loop with a
; trip count known only at run time gets `llvm.loop.unroll.count` (16 for a small body, less
; for a larger one). A constant trip count is LoopUnroll's own business, and a loop the
; user marked keeps the user's choice.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-device-unroll -S %s | FileCheck %s

; CHECK-LABEL: define void @runtime_count(
; CHECK: br i1 %d, label %loop, label %exit, !llvm.loop ![[RUNTIME:[0-9]+]]
; CHECK-LABEL: define void @constant_count(
; CHECK: br i1 %d, label %loop, label %exit{{$}}
; CHECK-LABEL: define void @user_nounroll(
; CHECK: br i1 %d, label %loop, label %exit, !llvm.loop ![[USER:[0-9]+]]
; CHECK: ![[RUNTIME]] = distinct !{![[RUNTIME]], ![[COUNT:[0-9]+]]}
; CHECK: ![[COUNT]] = !{!"llvm.loop.unroll.count", i32 16}
; CHECK: ![[USER]] = distinct !{![[USER]], ![[DISABLE:[0-9]+]]}
; CHECK: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
; CHECK-NOT: llvm.loop.unroll.count

target triple = "nvptx64-nvidia-cuda"

define void @runtime_count(ptr %x, ptr %y, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr float, ptr %x, i32 %i
  %py = getelementptr float, ptr %y, i32 %i
  %a = load float, ptr %px
  %b = load float, ptr %py
  %s = fadd float %a, %b
  store float %s, ptr %py
  %i.next = add nsw i32 %i, 1
  %d = icmp slt i32 %i.next, %n
  br i1 %d, label %loop, label %exit
exit:
  ret void
}

define void @constant_count(ptr %y) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %py = getelementptr float, ptr %y, i32 %i
  store float 0.0, ptr %py
  %i.next = add nsw i32 %i, 1
  %d = icmp slt i32 %i.next, 100
  br i1 %d, label %loop, label %exit
exit:
  ret void
}

define void @user_nounroll(ptr %y, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %py = getelementptr float, ptr %y, i32 %i
  store float 0.0, ptr %py
  %i.next = add nsw i32 %i, 1
  %d = icmp slt i32 %i.next, %n
  br i1 %d, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}
