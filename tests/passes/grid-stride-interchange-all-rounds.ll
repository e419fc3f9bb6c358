; kernplug-grid-stride-interchange: where the range check has a closed form (start is
; threadIdx.x plus a per-block value), the check phase also gives where the loop stops (n, or
; n + 1 for i <= n, never below 0), and its entry counts the rounds every thread of the group
; has: ceil((end - start(last)) / step) per block, the fewest over the blocks. Those rounds run
; through a step phase without the loop's test (stepall: no compare, nothing stored to say
; whether the thread had an iteration), the rest through the tested step as before. Loops
; without the closed form (rows) get no stepall. The remark says which.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry,kernplug-grid-stride-interchange -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'sum': CPU entry = grid-stride loop interchanged (threads innermost), range checked at each block's first and last thread; the rounds every thread of a group runs go without the loop's test
; REMARK: kernel 'upto': CPU entry = grid-stride loop interchanged (threads innermost), range checked at each block's first and last thread; the rounds every thread of a group runs go without the loop's test
; REMARK: kernel 'rows': CPU entry = grid-stride loop interchanged (threads innermost), range checked thread by thread

; The check phase: step (or 0), start, then max(sext n, 0) for a signed i < n.
; CHECK-LABEL: define internal void @sum.kp.gridstride.check(
; CHECK: store i64 %{{[0-9]+}}, ptr %[[OUT:[0-9]+]]
; CHECK: %[[START:[0-9]+]] = zext i32 %start to i64
; CHECK: store i64 %[[START]], ptr
; CHECK: %[[N:[0-9]+]] = sext i32 %{{[0-9]+}} to i64
; CHECK: %[[END:[0-9]+]] = call i64 @llvm.smax.i64(i64 %[[N]], i64 0)
; CHECK: %[[AT:[0-9]+]] = getelementptr inbounds i64, ptr %[[OUT]], i32 2
; CHECK: store i64 %[[END]], ptr %[[AT]]
; Its entry: after the block's last thread, ceil((end - start) / step), the fewest kept, and
; written through its last parameter.
; CHECK-LABEL: define internal i1 @sum.kp.gridstride.check.kp.cpu_block(ptr %args, ptr %range, ptr %0, i64 %1, ptr %2)
; CHECK: %gs.rounds = alloca i64
; CHECK: store i64 -1, ptr %gs.rounds
; CHECK: %[[R:[0-9]+]] = load i64, ptr %gs.rounds
; CHECK-NEXT: store i64 %[[R]], ptr %2
; CHECK: call void @sum.kp.gridstride.check(
; CHECK: call void @sum.kp.gridstride.check(
; CHECK: udiv i64
; CHECK: call i64 @llvm.umin.i64(
; CHECK: store i64 %{{[0-9]+}}, ptr %gs.rounds
; The untested step: i = start + k * step, the body, the sum stored back; no compare, no
; done block, nothing stored through out. The thread's slot w is an i64 (no sign extension
; per element in the vectorised loop).
; CHECK-LABEL: define internal void @sum.kp.gridstride.stepall(ptr %0, ptr %1, i32 %2, ptr {{.*}} %3, ptr %4, i64 %5, i64 %6, ptr %7)
; CHECK-NOT: gs.done:
; CHECK-NOT: br i1
; CHECK: fadd float
; CHECK: %gs.i = add nuw nsw i32 %start
; CHECK: gs.next:
; CHECK-NEXT: getelementptr inbounds float, ptr %4, i64 %5
; CHECK-NEXT: store float %sum.next
; CHECK-NEXT: ret void
; CHECK-NEXT: }
; CHECK-LABEL: define internal void @sum.kp.gridstride.stepall.kp.cpu_block(
; CHECK: loop.x:
; CHECK: call void @sum.kp.gridstride.stepall(
; The entry: the check writes the count, rounds below it run untested, the tested step
; starts at the count.
; CHECK-LABEL: define internal void @sum.kp.cpu_block.gridstride(
; CHECK: %gs.all_rounds = alloca i64
; CHECK: call i1 @sum.kp.gridstride.check.kp.cpu_block(ptr %args, ptr %gs.range, ptr %gs.state, i64 0, ptr %gs.all_rounds)
; CHECK: init_state:
; CHECK: %all_rounds = load i64, ptr %gs.all_rounds
; CHECK: all_strides:
; CHECK: %k_all = phi i64 [ 0, %init_state ], [ %{{[0-9]+}}, %all_stride ]
; CHECK: icmp ult i64 %k_all, %all_rounds
; CHECK: all_stride:
; CHECK: call void @sum.kp.gridstride.stepall.kp.cpu_block(ptr %args, ptr %gs.range, ptr %gs.state, i64 %k_all)
; CHECK: strides:
; CHECK: %k = phi i64 [ %all_rounds, %all_strides_done ]
; CHECK: call i1 @sum.kp.gridstride.step.kp.cpu_block(
; i <= n (unsigned): end is n + 1.
; CHECK-LABEL: define internal void @upto.kp.gridstride.check(
; CHECK: %[[N2:[0-9]+]] = zext i32 %{{[0-9]+}} to i64
; CHECK: %[[E2:[0-9]+]] = add i64 %[[N2]], 1
; CHECK: store i64 %[[E2]], ptr
; CHECK-LABEL: define internal void @upto.kp.gridstride.stepall(
; No closed form: no stepall.
; CHECK-NOT: @rows.kp.gridstride.stepall
; CHECK-LABEL: define internal void @rows.kp.cpu_block.gridstride(
; CHECK-NOT: all_strides

define void @sum(ptr %x, ptr %out, i32 %n) {
entry:
  %tid = call i32 @kp_dev_tid_x()
  %ctaid = call i32 @kp_dev_ctaid_x()
  %ntid = call i32 @kp_dev_ntid_x()
  %nctaid = call i32 @kp_dev_nctaid_x()
  %b = mul i32 %ctaid, %ntid
  %start = add i32 %b, %tid
  %step = mul i32 %nctaid, %ntid
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %x, i64 %ix
  %v = load float, ptr %p, align 4
  %sum.next = fadd float %sum, %v
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  %old = atomicrmw fadd ptr %out, float %sum monotonic
  ret void
}

define void @upto(ptr %x, i32 %n) {
entry:
  %tid = call i32 @kp_dev_tid_x()
  %ctaid = call i32 @kp_dev_ctaid_x()
  %ntid = call i32 @kp_dev_ntid_x()
  %nctaid = call i32 @kp_dev_nctaid_x()
  %b = mul i32 %ctaid, %ntid
  %start = add i32 %b, %tid
  %step = mul i32 %nctaid, %ntid
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %c = icmp ule i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr %x, i64 %ix
  store float 1.0, ptr %p, align 4
  %i.next = add nuw i32 %i, %step
  br label %cond
end:
  ret void
}

define void @rows(ptr %x, ptr %out, i32 %n) {
entry:
  %tx = call i32 @kp_dev_tid_x()
  %ty = call i32 @kp_dev_tid_y()
  %ntid = call i32 @kp_dev_ntid_x()
  %nctaid = call i32 @kp_dev_nctaid_x()
  %row = mul i32 %ty, %ntid
  %start = add i32 %tx, %row
  %step = mul i32 %nctaid, %ntid
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %cnt = phi i32 [ 0, %entry ], [ %cnt.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %ix
  store i32 %i, ptr %p, align 4
  %cnt.next = add i32 %cnt, 1
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  store i32 %cnt, ptr %out, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_tid_y() nounwind willreturn memory(none)
declare i32 @kp_dev_ctaid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_nctaid_x() nounwind willreturn memory(none)

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"sum", ptr @sum, ptr @sum, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 1, !""}
!1 = !{!"upto", ptr @upto, ptr @upto, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 1, !""}
!2 = !{!"rows", ptr @rows, ptr @rows, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 1, !""}
