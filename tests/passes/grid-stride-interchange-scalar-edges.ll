; kernplug-grid-stride-interchange: of an interchanged entry's phases only the loop that runs
; every round is vectorised and versioned (the untested step where the range check has a
; closed form, else the tested step); the phases that run once or twice a group of blocks
; (check, initial values, the tested step after the untested rounds, finish) get thread loops
; marked to stay scalar: no vectorising, no unrolling, and no kernplug.thread_loop marker, so
; ThreadLoopVersioning does not copy them. Less code to compile; the hot loop is unchanged.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry,kernplug-grid-stride-interchange -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'sum': CPU entry = grid-stride loop interchanged (threads innermost), range checked at each block's first and last thread; the rounds every thread of a group runs go without the loop's test; the thread loops run once a group (check, start, last rounds, finish) are kept scalar
; REMARK: kernel 'rows': CPU entry = grid-stride loop interchanged (threads innermost), range checked thread by thread: start is not threadIdx.x plus a per-block value, or step or n differ between threads; the thread loops run once a group (check, start, last rounds, finish) are kept scalar

; Closed form (sum): initial values, tested step and finish scalar; the untested step hot.
; CHECK-LABEL: define internal void @sum.kp.gridstride.init.kp.cpu_block(
; CHECK: br label %loop.x, !llvm.loop ![[SUM_INIT:[0-9]+]]
; CHECK-LABEL: define internal void @sum.kp.gridstride.stepall.kp.cpu_block(
; CHECK: br label %loop.x, !llvm.loop ![[SUM_ALL:[0-9]+]]
; CHECK-LABEL: define internal i1 @sum.kp.gridstride.step.kp.cpu_block(
; CHECK: br label %loop.x, !llvm.loop ![[SUM_STEP:[0-9]+]]
; CHECK-LABEL: define internal void @sum.kp.gridstride.finish.kp.cpu_block(
; CHECK: br label %loop.x, !llvm.loop ![[SUM_FIN:[0-9]+]]
; No closed form (rows): the thread-by-thread check and finish scalar; the tested step hot.
; CHECK-LABEL: define internal i1 @rows.kp.gridstride.init.kp.cpu_block(
; CHECK: br label %loop.x, !llvm.loop ![[ROWS_INIT:[0-9]+]]
; CHECK-LABEL: define internal i1 @rows.kp.gridstride.step.kp.cpu_block(
; CHECK: br label %loop.x, !llvm.loop ![[ROWS_STEP:[0-9]+]]
; CHECK-LABEL: define internal void @rows.kp.gridstride.finish.kp.cpu_block(
; CHECK: br label %loop.x, !llvm.loop ![[ROWS_FIN:[0-9]+]]
; CHECK-DAG: ![[SUM_INIT]] = distinct !{![[SUM_INIT]], ![[NOVEC:[0-9]+]], ![[NOUNROLL:[0-9]+]]}
; CHECK-DAG: ![[SUM_ALL]] = distinct !{![[SUM_ALL]], ![[MARKER:[0-9]+]]}
; CHECK-DAG: ![[SUM_STEP]] = distinct !{![[SUM_STEP]], ![[NOVEC]], ![[NOUNROLL]]}
; CHECK-DAG: ![[SUM_FIN]] = distinct !{![[SUM_FIN]], ![[NOVEC]], ![[NOUNROLL]]}
; CHECK-DAG: ![[ROWS_INIT]] = distinct !{![[ROWS_INIT]], ![[NOVEC]], ![[NOUNROLL]]}
; CHECK-DAG: ![[ROWS_STEP]] = distinct !{![[ROWS_STEP]], ![[MARKER]]}
; CHECK-DAG: ![[ROWS_FIN]] = distinct !{![[ROWS_FIN]], ![[NOVEC]], ![[NOUNROLL]]}
; CHECK-DAG: ![[MARKER]] = !{!"kernplug.thread_loop"}
; CHECK-DAG: ![[NOVEC]] = !{!"llvm.loop.vectorize.enable", i1 false}
; CHECK-DAG: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}

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

!kernplug.kernels = !{!0, !2}
!0 = !{!"sum", ptr @sum, ptr @sum, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 1, !""}
!2 = !{!"rows", ptr @rows, ptr @rows, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 1, !""}
