; kernplug-thread-loop-versioning checks the conditions of a split part's thread loop once per
; block over the block's hull of threadIdx.x (ThreadHull.h), not once per row: the entry
; builder records `x >= begin` and `x < end` as tagged assumes in the part's loop; the check of
; the edge comparison `gx == 0` over [begin, end) goes before the row loop (its inputs are the
; same in every row), and each row runs its own check only where that fails. The facts are
; erased afterwards.
; - hull: the part [min(y, end), end) of each row y; the edge check leaves the row loop.
; - row_offset: the edge depends on the row (gx = x + y): checked per row as before.
; - no_facts: no hull recorded: checked per row as before.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='function(kernplug-thread-loop-versioning)' -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: 'hull.kp.cpu_block': 1 thread loops check their guard-free copy's conditions once per block over the block's range of threadIdx.x
; REMARK-NOT: 'row_offset.kp.cpu_block': {{.*}} once per block
; REMARK-NOT: 'no_facts.kp.cpu_block': {{.*}} once per block

; The hull's check in the entry block, before the row loop: the edge's comparison at the
; hull's ends (umin/umax of the first and last gx), no wrap, and a nonempty hull.
; CHECK-LABEL: define internal void @hull.kp.cpu_block(
; CHECK: entry:
; CHECK: call i32 @llvm.umin.i32(
; CHECK: call i32 @llvm.umax.i32(
; CHECK: %kp.hull.ok = and i1
; CHECK-NEXT: br label %loop.y
; CHECK: loop.y:
; The row's preheader: its own check only where the hull's failed.
; CHECK: ph.x:
; CHECK: [[NOTHULL:%.*]] = xor i1 %kp.hull.ok, true
; CHECK-NEXT: br i1 [[NOTHULL]], label %[[ROW:.*]], label %[[JOIN:.*]]
; CHECK: [[ROW]]:
; CHECK: call i32 @llvm.umin.i32(
; CHECK: call i32 @llvm.umax.i32(
; CHECK: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK-NEXT: %kp.hull.or.row = phi i1 [ true, %ph.x ], [ %{{.*}}, %[[ROW]] ]
; CHECK: br i1 %{{.*}}, label %kp.guarded.ph.kp.fast, label %kp.guarded.ph
; CHECK: body.x.kp.fast:
; CHECK-NOT: icmp eq
; CHECK: %we.kp.fast = select i1 false,
; CHECK: body.x:
; CHECK-NOT: llvm.assume
; CHECK: %c = icmp eq i32 %gx, 0
; CHECK-LABEL: define internal void @row_offset.kp.cpu_block(
; CHECK-NOT: kp.hull
; CHECK: ph.x:
; CHECK: call i32 @llvm.umin.i32(
; CHECK: br i1 %{{.*}}, label %kp.guarded.ph.kp.fast, label %kp.guarded.ph
; CHECK-LABEL: define internal void @no_facts.kp.cpu_block(
; CHECK-NOT: kp.hull
; CHECK: ph.x:
; CHECK: call i32 @llvm.umin.i32(
; CHECK: br i1 %{{.*}}, label %kp.guarded.ph.kp.fast, label %kp.guarded.ph
; CHECK-NOT: llvm.assume
; CHECK: ret void

@t = internal global [64 x float] zeroinitializer

define internal void @hull.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %0 = load ptr, ptr %args, align 8
  %out = load ptr, ptr %0, align 8
  %1 = getelementptr i8, ptr %args, i64 8
  %2 = load ptr, ptr %1, align 8
  %base = load i32, ptr %2, align 4
  %begin = load i32, ptr %range, align 4
  %3 = getelementptr inbounds i8, ptr %range, i64 12
  %end = load i32, ptr %3, align 4
  %4 = getelementptr inbounds i8, ptr %range, i64 4
  %ybegin = load i32, ptr %4, align 4
  %5 = getelementptr inbounds i8, ptr %range, i64 16
  %yend = load i32, ptr %5, align 4
  br label %loop.y

loop.y:
  %y = phi i32 [ %ybegin, %entry ], [ %ynext, %done.x ]
  %ymore = icmp ult i32 %y, %yend
  br i1 %ymore, label %body.y, label %exit

body.y:
  %lo = call i32 @llvm.umin.i32(i32 %y, i32 %end)
  %any = icmp ult i32 %lo, %end
  br i1 %any, label %ph.x, label %done.x

ph.x:
  br label %body.x

body.x:
  %x = phi i32 [ %lo, %ph.x ], [ %next, %body.x ]
  %hlo = icmp uge i32 %x, %begin
  call void @llvm.assume(i1 %hlo), !kernplug.thread_hull !3
  %hhi = icmp ult i32 %x, %end
  call void @llvm.assume(i1 %hhi), !kernplug.thread_hull !3
  %gx = add nsw i32 %x, %base
  %c = icmp eq i32 %gx, 0
  %m1 = add nsw i32 %x, -1
  %we = select i1 %c, i32 %x, i32 %m1
  %wi = sext i32 %we to i64
  %p = getelementptr inbounds [64 x float], ptr @t, i64 0, i64 %wi
  %v = load float, ptr %p, align 4
  %xi = zext i32 %x to i64
  %q = getelementptr inbounds float, ptr %out, i64 %xi
  store float %v, ptr %q, align 4
  %next = add nuw nsw i32 %x, 1
  %more = icmp ult i32 %next, %end
  br i1 %more, label %body.x, label %done.x, !llvm.loop !0

done.x:
  %ynext = add nuw nsw i32 %y, 1
  br label %loop.y

exit:
  ret void
}

define internal void @row_offset.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %0 = load ptr, ptr %args, align 8
  %out = load ptr, ptr %0, align 8
  %begin = load i32, ptr %range, align 4
  %3 = getelementptr inbounds i8, ptr %range, i64 12
  %end = load i32, ptr %3, align 4
  %4 = getelementptr inbounds i8, ptr %range, i64 4
  %ybegin = load i32, ptr %4, align 4
  %5 = getelementptr inbounds i8, ptr %range, i64 16
  %yend = load i32, ptr %5, align 4
  br label %loop.y

loop.y:
  %y = phi i32 [ %ybegin, %entry ], [ %ynext, %done.x ]
  %ymore = icmp ult i32 %y, %yend
  br i1 %ymore, label %body.y, label %exit

body.y:
  %lo = call i32 @llvm.umin.i32(i32 %y, i32 %end)
  %any = icmp ult i32 %lo, %end
  br i1 %any, label %ph.x, label %done.x

ph.x:
  br label %body.x

body.x:
  %x = phi i32 [ %lo, %ph.x ], [ %next, %body.x ]
  %hlo = icmp uge i32 %x, %begin
  call void @llvm.assume(i1 %hlo), !kernplug.thread_hull !3
  %hhi = icmp ult i32 %x, %end
  call void @llvm.assume(i1 %hhi), !kernplug.thread_hull !3
  %gx = add nsw i32 %x, %y
  %c = icmp eq i32 %gx, 7
  %m1 = add nsw i32 %x, -1
  %we = select i1 %c, i32 %x, i32 %m1
  %wi = sext i32 %we to i64
  %p = getelementptr inbounds [64 x float], ptr @t, i64 0, i64 %wi
  %v = load float, ptr %p, align 4
  %xi = zext i32 %x to i64
  %q = getelementptr inbounds float, ptr %out, i64 %xi
  store float %v, ptr %q, align 4
  %next = add nuw nsw i32 %x, 1
  %more = icmp ult i32 %next, %end
  br i1 %more, label %body.x, label %done.x, !llvm.loop !2

done.x:
  %ynext = add nuw nsw i32 %y, 1
  br label %loop.y

exit:
  ret void
}

define internal void @no_facts.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %0 = load ptr, ptr %args, align 8
  %out = load ptr, ptr %0, align 8
  %1 = getelementptr i8, ptr %args, i64 8
  %2 = load ptr, ptr %1, align 8
  %base = load i32, ptr %2, align 4
  %3 = getelementptr inbounds i8, ptr %range, i64 12
  %end = load i32, ptr %3, align 4
  %4 = getelementptr inbounds i8, ptr %range, i64 4
  %ybegin = load i32, ptr %4, align 4
  %5 = getelementptr inbounds i8, ptr %range, i64 16
  %yend = load i32, ptr %5, align 4
  br label %loop.y

loop.y:
  %y = phi i32 [ %ybegin, %entry ], [ %ynext, %done.x ]
  %ymore = icmp ult i32 %y, %yend
  br i1 %ymore, label %body.y, label %exit

body.y:
  %lo = call i32 @llvm.umin.i32(i32 %y, i32 %end)
  %any = icmp ult i32 %lo, %end
  br i1 %any, label %ph.x, label %done.x

ph.x:
  br label %body.x

body.x:
  %x = phi i32 [ %lo, %ph.x ], [ %next, %body.x ]
  %gx = add nsw i32 %x, %base
  %c = icmp eq i32 %gx, 0
  %m1 = add nsw i32 %x, -1
  %we = select i1 %c, i32 %x, i32 %m1
  %wi = sext i32 %we to i64
  %p = getelementptr inbounds [64 x float], ptr @t, i64 0, i64 %wi
  %v = load float, ptr %p, align 4
  %xi = zext i32 %x to i64
  %q = getelementptr inbounds float, ptr %out, i64 %xi
  store float %v, ptr %q, align 4
  %next = add nuw nsw i32 %x, 1
  %more = icmp ult i32 %next, %end
  br i1 %more, label %body.x, label %done.x, !llvm.loop !4

done.x:
  %ynext = add nuw nsw i32 %y, 1
  br label %loop.y

exit:
  ret void
}

declare i32 @llvm.umin.i32(i32, i32)
declare void @llvm.assume(i1)

attributes #0 = { "kernplug-block-entry" }

!0 = distinct !{!0, !1}
!1 = !{!"kernplug.thread_loop"}
!2 = distinct !{!2, !1}
!3 = !{}
!4 = distinct !{!4, !1}
