; kernplug-grid-stride-interchange: a block-loop kernel whose body is a grid-stride loop gets a
; new <k>.kp.cpu_block that runs the loop's iterations outside the loops over the threads
; (init, step k, finish: phases over the worker's blocks and threads), with the partial sum
; carried in a per-thread array and the block-loop entry as the fallback of groups that fail
; the run-time check; the entry goes into its !kernplug.kernels entry. Kernels with a fence,
; an ordered atomic, a volatile access, an early return before the loop, or no loop keep the
; block-loop entry, and a remark says why (nothing is said of kernels without a loop); so do
; loops that are legal to interchange but would walk memory the wrong way (a range per
; thread, or one start per block). Where start is threadIdx.x plus a per-block value and step
; and n are per block (sum), the range is checked at each block's first and last thread
; (the check phase) and the init phase only stores the initial values; otherwise (rows,
; whose start reads threadIdx.y) the init phase checks thread by thread, as before.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry,kernplug-grid-stride-interchange -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'sum': CPU entry = grid-stride loop interchanged (threads innermost), range checked at each block's first and last thread
; REMARK: kernel 'fenced': CPU entry = block loop (no grid-stride interchange: it has a fence)
; REMARK: kernel 'ordered': CPU entry = block loop (no grid-stride interchange: it has an atomic stronger than relaxed)
; REMARK: kernel 'vol': CPU entry = block loop (no grid-stride interchange: it has a volatile or ordered store)
; REMARK: kernel 'early': CPU entry = block loop (no grid-stride interchange: the code before its loop has other ways out (an early return))
; REMARK-NOT: kernel 'flat'
; REMARK: kernel 'neq': CPU entry = block loop (no grid-stride interchange: its loop condition is not i < n or i <= n)
; REMARK: kernel 'own_range': CPU entry = block loop (no grid-stride interchange: its step is a small constant (each thread walks a range of its own))
; REMARK: kernel 'by_block': CPU entry = block loop (no grid-stride interchange: consecutive threads do not start at consecutive elements)
; REMARK: kernel 'rows': CPU entry = grid-stride loop interchanged (threads innermost), range checked thread by thread: start is not threadIdx.x plus a per-block value, or step or n differ between threads

; The check phase checks start, step and n, and gives start.
; CHECK-LABEL: define internal void @sum.kp.gridstride.check(
; CHECK: gs.phase:
; CHECK-NOT: store float
; CHECK: icmp ult i32 %start, 536870912
; CHECK: icmp slt i32 %{{[0-9]+}}, 536870912
; CHECK: zext i32 %start to i64
; CHECK-NOT: atomicrmw
; CHECK: ret void
; Its entry runs it at each block's first and last thread, with no loop over the threads,
; and requires start(last) - start(first) = tid(last) - tid(first) < 2^15.
; CHECK-LABEL: define internal i1 @sum.kp.gridstride.check.kp.cpu_block(
; CHECK-NOT: loop.x:
; CHECK: call void @sum.kp.gridstride.check(
; CHECK-NOT: loop.x:
; CHECK: call void @sum.kp.gridstride.check(
; CHECK-NOT: loop.x:
; CHECK: icmp ult i64 %{{[0-9]+}}, 32768
; The init phase only stores the initial partial sum, thread by thread.
; CHECK-LABEL: define internal void @sum.kp.gridstride.init(
; CHECK: gs.phase:
; CHECK-NEXT: getelementptr inbounds float
; CHECK-NEXT: store float 0.000000e+00, ptr
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal void @sum.kp.gridstride.init.kp.cpu_block(
; CHECK: loop.x:
; CHECK: call void @sum.kp.gridstride.init(
; The step phase: i = start + k * step, the carried sum loaded and stored back.
; CHECK-LABEL: define internal void @sum.kp.gridstride.step(
; CHECK: icmp slt i32 %gs.i, %{{[0-9]+}}
; CHECK: fadd float %[[SUM:[0-9]+]], %v
; CHECK: gs.phase:
; CHECK: trunc i64 %{{.*}} to i32
; CHECK: mul nuw nsw i32
; CHECK: %gs.i = add nuw nsw i32 %start
; CHECK: %[[SUM]] = load float, ptr
; CHECK: gs.next:
; CHECK: store float %sum.next
; CHECK: store i8 1
; CHECK: gs.done:
; CHECK: store i8 0
; CHECK-NOT: atomicrmw
; The finish phase: the code after the loop, from the carried sum.
; CHECK-LABEL: define internal void @sum.kp.gridstride.finish(
; CHECK: atomicrmw fadd ptr %{{[0-9]+}}, float %[[S:[0-9]+]] monotonic
; CHECK: gs.phase:
; CHECK: %[[S]] = load float, ptr
; CHECK: define internal void @sum.kp.cpu_block.gridstride(ptr %args, ptr %range) #[[BLOCK:[0-9]+]]
; The carried sums: 16384 floats, 1 KiB past a page boundary (away from page-aligned arrays:
; no 4K aliasing between the loads of x and the stores of the sums).
; CHECK: %gs.state.page = alloca [69632 x i8], align 4096
; CHECK: %gs.state = getelementptr inbounds i8, ptr %gs.state.page, i32 1024
; CHECK: call i1 @sum.kp.gridstride.check.kp.cpu_block(
; CHECK: in_order:
; CHECK: call void @sum.kp.cpu_block(ptr %args, ptr %gs.range)
; CHECK: init_state:
; CHECK: call void @sum.kp.gridstride.init.kp.cpu_block(
; CHECK: strides:
; CHECK: call i1 @sum.kp.gridstride.step.kp.cpu_block(
; CHECK: finish:
; CHECK: call void @sum.kp.gridstride.finish.kp.cpu_block(
; rows: no closed form; the init phase checks every thread (a loop over them), and there is
; no check phase.
; CHECK-NOT: @rows.kp.gridstride.check
; CHECK-LABEL: define internal void @rows.kp.gridstride.init(
; CHECK: store i32 0, ptr
; CHECK: icmp ult i32 %start, 536870912
; CHECK-LABEL: define internal i1 @rows.kp.gridstride.init.kp.cpu_block(
; CHECK: loop.x:
; CHECK: call void @rows.kp.gridstride.init(
; CHECK-LABEL: define internal void @rows.kp.cpu_block.gridstride(
; CHECK-NOT: init_state:
; CHECK: call i1 @rows.kp.gridstride.init.kp.cpu_block(
; CHECK: attributes #[[BLOCK]] = { noinline nounwind "kernplug-block-entry" }
; CHECK: !{!"sum", ptr @sum, ptr @sum, i1 false, !"", i64 0, !"in.c", i32 2, !{{[0-9]+}}, i32 1, !"", ptr @sum.kp.cpu_block.gridstride, ptr @sum.kp.cpu}
; CHECK: !{!"fenced", {{.*}}, ptr @fenced.kp.cpu_block, ptr @fenced.kp.cpu}

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

define void @fenced(ptr %x, i32 %n) {
entry:
  %start = call i32 @kp_dev_tid_x()
  %step = call i32 @kp_dev_ntid_x()
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %x, i64 %ix
  store float 1.0, ptr %p, align 4
  fence release
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  ret void
}

define void @ordered(ptr %x, i32 %n) {
entry:
  %start = call i32 @kp_dev_tid_x()
  %step = call i32 @kp_dev_ntid_x()
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %o = atomicrmw add ptr %x, i32 1 seq_cst
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  ret void
}

define void @vol(ptr %x, i32 %n) {
entry:
  %start = call i32 @kp_dev_tid_x()
  %step = call i32 @kp_dev_ntid_x()
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  store volatile i32 %i, ptr %x, align 4
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  ret void
}

define void @early(ptr %x, i32 %n) {
entry:
  %start = call i32 @kp_dev_tid_x()
  %step = call i32 @kp_dev_ntid_x()
  %none = icmp slt i32 %n, 1
  br i1 %none, label %end, label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %ix
  store i32 %i, ptr %p, align 4
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  ret void
}

define void @flat(ptr %x) {
  %t = call i32 @kp_dev_tid_x()
  store i32 %t, ptr %x, align 4
  ret void
}

define void @neq(ptr %x, i32 %n) {
entry:
  %start = call i32 @kp_dev_tid_x()
  %step = call i32 @kp_dev_ntid_x()
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %c = icmp ne i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %ix
  store i32 %i, ptr %p, align 4
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  ret void
}

define void @own_range(ptr %x, i32 %n) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %start = mul i32 %t, 4096
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %ix
  store i32 %i, ptr %p, align 4
  %i.next = add nsw i32 %i, 1
  br label %cond
end:
  ret void
}

define void @by_block(ptr %x, i32 %n) {
entry:
  %b = call i32 @kp_dev_ctaid_x()
  %step = call i32 @kp_dev_nctaid_x()
  br label %cond
cond:
  %i = phi i32 [ %b, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %ix
  store i32 %i, ptr %p, align 4
  %i.next = add nsw i32 %i, %step
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

!kernplug.kernels = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9}
!0 = !{!"sum", ptr @sum, ptr @sum, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 1, !""}
!1 = !{!"fenced", ptr @fenced, ptr @fenced, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 1, !""}
!2 = !{!"ordered", ptr @ordered, ptr @ordered, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 1, !""}
!3 = !{!"vol", ptr @vol, ptr @vol, i1 false, !"", i64 0, !"in.c", i32 5, !{}, i32 1, !""}
!4 = !{!"early", ptr @early, ptr @early, i1 false, !"", i64 0, !"in.c", i32 6, !{}, i32 1, !""}
!5 = !{!"flat", ptr @flat, ptr @flat, i1 false, !"", i64 0, !"in.c", i32 7, !{}, i32 1, !""}
!6 = !{!"neq", ptr @neq, ptr @neq, i1 false, !"", i64 0, !"in.c", i32 8, !{}, i32 1, !""}
!7 = !{!"own_range", ptr @own_range, ptr @own_range, i1 false, !"", i64 0, !"in.c", i32 9, !{}, i32 1, !""}
!8 = !{!"by_block", ptr @by_block, ptr @by_block, i1 false, !"", i64 0, !"in.c", i32 10, !{}, i32 1, !""}
!9 = !{!"rows", ptr @rows, ptr @rows, i1 false, !"", i64 0, !"in.c", i32 11, !{}, i32 1, !""}
