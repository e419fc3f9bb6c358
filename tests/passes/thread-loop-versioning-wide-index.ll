; kernplug-thread-loop-versioning computes, in the guard-free copy only, a 32-bit index sum
; that its run-time check proves not to wrap as a 64-bit induction variable: the copy's
; sign extension of the sum becomes a 64-bit phi {sext(start),+,step}, so the vectoriser sees
; a consecutive 64-bit index instead of a 32-bit sum sign-extended per element. The proof is
; either the no-wrap predicate the check took the index under (a grid-stride round's
; sext(blockIdx.x * blockDim.x + threadIdx.x) + k * step) or a signed guard on the 32-bit sum
; itself (the check evaluates it at both ends and tests that it does not wrap in between).
; The guarded copy keeps its sign extensions, and an index proved only not to wrap unsigned
; (an unsigned guard) is left as it is.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='function(kernplug-thread-loop-versioning)' -S %s | FileCheck %s

; The round: the copy's index is a 64-bit phi stepping by one thread.
; CHECK-LABEL: define internal void @round.kp.cpu_block(
; CHECK: loop.x.kp.fast:
; CHECK: %w.kp.wide = phi i64 [ %{{.+}}, %kp.guarded.ph.kp.fast ], [ %w.kp.wide.next, %latch.kp.fast ]
; CHECK: body.x.kp.fast:
; CHECK-NOT: sext
; CHECK: %i.kp.fast = add nsw i64 %w.kp.wide, %kstep
; CHECK: latch.kp.fast:
; CHECK: %w.kp.wide.next = add i64 %w.kp.wide, 1
; The guarded copy is unchanged.
; CHECK: body.x:
; CHECK-NEXT: %g = add i32 %base, %x
; CHECK-NEXT: %w = sext i32 %g to i64

; A signed guard on the 32-bit sum (in[i + blockDim.x] of the tree reduction).
; CHECK-LABEL: define internal void @signed.kp.cpu_block(
; CHECK: loop.x.kp.fast:
; CHECK: %w.kp.wide = phi i64
; CHECK: body.i.kp.fast:
; CHECK-NEXT: %p.kp.fast = getelementptr inbounds float, ptr %in, i64 %w.kp.wide
; CHECK: body.i:
; CHECK-NEXT: %w = sext i32 %j to i64

; An unsigned guard proves nothing about signed wrap: the sign extension stays.
; CHECK-LABEL: define internal void @unsigned.kp.cpu_block(
; CHECK-NOT: kp.wide
; CHECK: body.i.kp.fast:
; CHECK-NEXT: %w.kp.fast = sext i32 %j.kp.fast to i64

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

define internal void @signed.kp.cpu_block(ptr %args, ptr %range) #1 {
entry:
  %0 = load ptr, ptr %args, align 8
  %in = load ptr, ptr %0, align 8
  %2 = getelementptr i8, ptr %args, i64 8
  %3 = load ptr, ptr %2, align 8
  %base = load i32, ptr %3, align 4
  %5 = getelementptr i8, ptr %args, i64 16
  %6 = load ptr, ptr %5, align 8
  %n = load i32, ptr %6, align 4
  %bd = load i32, ptr %args, align 4
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
  %i = add i32 %base, %x
  %j = add nsw i32 %i, %bd
  %c = icmp slt i32 %j, %n
  br i1 %c, label %body.i, label %latch

body.i:
  %w = sext i32 %j to i64
  %p = getelementptr inbounds float, ptr %in, i64 %w
  %v = load float, ptr %p, align 4
  %v2 = fadd float %v, 1.0
  store float %v2, ptr %p, align 4
  br label %latch

latch:
  %x.next = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !5
}

define internal void @unsigned.kp.cpu_block(ptr %args, ptr %range) #1 {
entry:
  %0 = load ptr, ptr %args, align 8
  %in = load ptr, ptr %0, align 8
  %2 = getelementptr i8, ptr %args, i64 8
  %3 = load ptr, ptr %2, align 8
  %base = load i32, ptr %3, align 4
  %5 = getelementptr i8, ptr %args, i64 16
  %6 = load ptr, ptr %5, align 8
  %n = load i32, ptr %6, align 4
  %bd = load i32, ptr %args, align 4
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
  %i = add i32 %base, %x
  %j = add i32 %i, %bd
  %c = icmp ult i32 %j, %n
  br i1 %c, label %body.i, label %latch

body.i:
  %w = sext i32 %j to i64
  %p = getelementptr inbounds float, ptr %in, i64 %w
  %v = load float, ptr %p, align 4
  %v2 = fadd float %v, 1.0
  store float %v2, ptr %p, align 4
  br label %latch

latch:
  %x.next = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !7
}

attributes #1 = { noinline nounwind "kernplug-block-entry" }

!3 = distinct !{!3, !4}
!4 = !{!"kernplug.thread_loop"}
!5 = distinct !{!5, !4}
!7 = distinct !{!7, !4}
