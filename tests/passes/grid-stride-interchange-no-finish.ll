; kernplug-grid-stride-interchange: where the code after the grid-stride loop has no effect
; (no store, call with effects, or cycle: the Finish phase clone does nothing), no finish
; phase is built: no <k>.kp.gridstride.finish clone, no thread loop over the group calling
; it, and the remark says so. A kernel with a store after its loop keeps its finish phase.
; The old pass built a finish phase for every kernel (its thread loop then deleted by the
; optimiser, at a compile-time cost).
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry,kernplug-grid-stride-interchange -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'axpy': CPU entry = grid-stride loop interchanged (threads innermost), range checked at each block's first and last thread; the rounds every thread of a group runs go without the loop's test; the thread loops run once a group (check, start, last rounds, finish) are kept scalar; no finish phase (nothing after the loop has an effect)
; REMARK: kernel 'count': CPU entry = grid-stride loop interchanged (threads innermost), range checked at each block's first and last thread; the rounds every thread of a group runs go without the loop's test; the thread loops run once a group (check, start, last rounds, finish) are kept scalar{{$}}

; CHECK-NOT: @axpy.kp.gridstride.finish
; CHECK-LABEL: define internal void @axpy.kp.cpu_block.gridstride(
; CHECK: {{^}}strides:
; CHECK-NEXT: %k = phi i64
; CHECK: call i1 @axpy.kp.gridstride.step.kp.cpu_block(
; CHECK: br i1 %{{.*}}, label %strides, label %finish
; CHECK: {{^}}finish:
; CHECK-NEXT: br label %next_group
; CHECK-LABEL: define internal void @count.kp.gridstride.finish(
; CHECK-LABEL: define internal void @count.kp.cpu_block.gridstride(
; CHECK: {{^}}finish:
; CHECK-NEXT: call void @count.kp.gridstride.finish.kp.cpu_block(
; CHECK-NEXT: br label %next_group

define void @axpy(float %a, ptr %x, ptr %y, i32 %n) {
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
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ix
  %py = getelementptr inbounds float, ptr %y, i64 %ix
  %vx = load float, ptr %px, align 4
  %vy = load float, ptr %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr %py, align 4
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  ret void
}

define void @count(ptr %x, ptr %out, i32 %n) {
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
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %ix
  store i32 %i, ptr %p, align 4
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  %last = icmp eq i32 %tid, 0
  br i1 %last, label %write, label %done
write:
  store i32 %n, ptr %out, align 4
  br label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ctaid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_nctaid_x() nounwind willreturn memory(none)

!kernplug.kernels = !{!0, !2}
!0 = !{!"axpy", ptr @axpy, ptr @axpy, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 1, !""}
!2 = !{!"count", ptr @count, ptr @count, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 1, !""}
