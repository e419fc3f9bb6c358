; kernplug-thread-loop-versioning on a guard whose index is a 32-bit sum sign-extended to 64
; bits without a no-wrap flag: a grid-stride loop in rounds (GridStrideRounds.cpp) tests
; sext(blockIdx.x * blockDim.x + threadIdx.x) + k * step < n, and grid(1) adds in unsigned
; arithmetic. The index is an add recurrence of the thread loop only while the 32-bit sum does
; not wrap: the pass takes it as one under that condition, which the preheader checks at run
; time beside the guard's values at the first and the last thread; the fast copy has no guard.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='function(kernplug-thread-loop-versioning)' -S %s | FileCheck %s

; CHECK-LABEL: define internal void @round.kp.cpu_block(
; CHECK: entry:
; The no-wrap condition of the 32-bit sum: its value at the last thread is not below the first's.
; CHECK: %[[FIRST:[0-9]+]] = add i32 %base, %x0
; CHECK: %[[LAST:[0-9]+]] = add i32 %[[FIRST]],
; CHECK: %[[WRAPS:[0-9]+]] = icmp slt i32 %[[LAST]], %[[FIRST]]
; CHECK: %[[NOWRAP:[0-9]+]] = xor i1 %[[WRAPS]], true
; Then the guard at both ends, and all of it decides.
; CHECK: icmp slt i64 %{{[0-9]+}}, %n64
; CHECK: and i1 %[[NOWRAP]],
; CHECK: br i1 %{{[0-9]+}}, label %kp.guarded.ph.kp.fast, label %kp.guarded.ph
; CHECK: body.x.kp.fast:
; CHECK-NOT: br i1
; CHECK: br label %body.i.kp.fast
; CHECK: body.x:
; CHECK: %c = icmp slt i64 %i, %n64
; CHECK-NEXT: br i1 %c, label %body.i, label %latch

define internal void @round.kp.cpu_block(ptr %args, ptr %range) #1 {
entry:
  %0 = load ptr, ptr %args, align 8
  %bins = load ptr, ptr %0, align 8
  %2 = getelementptr i8, ptr %args, i64 8
  %3 = load ptr, ptr %2, align 8
  %base = load i32, ptr %3, align 4
  %5 = getelementptr i8, ptr %args, i64 16
  %6 = load ptr, ptr %5, align 8
  %n = load i32, ptr %6, align 4
  %n64 = sext i32 %n to i64
  %kp = getelementptr i8, ptr %args, i64 24
  %kptr = load ptr, ptr %kp, align 8
  %kstep = load i64, ptr %kptr, align 8
  %x0 = load i32, ptr %range, align 4
  %9 = getelementptr inbounds i8, ptr %range, i64 12
  %x1 = load i32, ptr %9, align 4
  br label %loop.x

loop.x:
  %x = phi i32 [ %x.next, %latch ], [ %x0, %entry ]
  %more = icmp ult i32 %x, %x1
  br i1 %more, label %body.x, label %done.x

done.x:
  ret void

body.x:
  %g = add i32 %base, %x
  %w = sext i32 %g to i64
  %i = add nsw i64 %w, %kstep
  %c = icmp slt i64 %i, %n64
  br i1 %c, label %body.i, label %latch

body.i:
  %p = getelementptr inbounds i8, ptr %bins, i64 %i
  %v = load i8, ptr %p, align 1
  %v2 = add i8 %v, 1
  store i8 %v2, ptr %p, align 1
  br label %latch

latch:
  %x.next = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !3
}

attributes #1 = { noinline nounwind "kernplug-block-entry" }

!3 = distinct !{!3, !4}
!4 = !{!"kernplug.thread_loop"}
