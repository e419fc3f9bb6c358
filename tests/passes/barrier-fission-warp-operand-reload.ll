; kernplug-barrier-fission: a value live across a shuffle whose operand it was (the tree
; reduction's `v += shfl_down_sync(mask, v, offset)`) is read back after the shuffle from the
; shuffle's value slot, where the lane stored it (its bits, for a float) right before the
; shuffle and nothing overwrites the lane's element until the lane runs again: no second
; per-thread array for it, and no second store. 'float_sum': the float's bits. 'int_sum': the
; int itself. 'other_value' (w is live across the shuffle but is not its operand) keeps its
; saved copy.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK-DAG: remark: {{.*}}kernplug: kernel 'float_sum': 1 values read back from the shuffle they were the operand of, not saved again
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'int_sum': 1 values read back from the shuffle they were the operand of, not saved again
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'other_value': 1 values read back from the shuffle they were the operand of, not saved again

; CHECK-LABEL: define internal void @float_sum.kp.cpu_block(
; CHECK-NOT: .saved.threads = alloca
; CHECK: kp.region1:
; CHECK: %[[OWN:.*]] = getelementptr inbounds i32, ptr %kp.warp.value.threads, i64
; CHECK: %v.restored = load i32, ptr %[[OWN]]
; CHECK-NEXT: %v.restored.bits = bitcast i32 %v.restored to float
; CHECK: fadd float %v.restored.bits,

; CHECK-LABEL: define internal void @int_sum.kp.cpu_block(
; CHECK-NOT: .saved.threads = alloca
; CHECK: kp.region1:
; CHECK: %[[OWN2:.*]] = getelementptr inbounds i32, ptr %kp.warp.value.threads, i64
; CHECK: %v.restored = load i32, ptr %[[OWN2]]
; CHECK: add i32 %v.restored,

; CHECK-LABEL: define internal void @other_value.kp.cpu_block(
; CHECK: %w.saved.threads = alloca i32
; CHECK-NOT: %v.saved.threads = alloca

define void @float_sum(ptr %in, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %in, i64 %i
  %v = load float, ptr %p, align 4
  %bits = bitcast float %v to i32
  %s = call i32 @kp_dev_shfl_down(i32 -1, i32 %bits, i32 1)
  %sf = bitcast i32 %s to float
  %r = fadd float %v, %sf
  %q = getelementptr inbounds float, ptr %out, i64 %i
  store float %r, ptr %q, align 4
  ret void
}

define void @int_sum(ptr %in, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %p, align 4
  %s = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 2)
  %r = add i32 %v, %s
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %r, ptr %q, align 4
  ret void
}

define void @other_value(ptr %in, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %p, align 4
  %w = mul i32 %v, 3
  %s = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 2)
  %r = add i32 %v, %s
  %r2 = add i32 %r, %w
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %r2, ptr %q, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"float_sum", ptr @float_sum, ptr @float_sum, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"int_sum", ptr @int_sum, ptr @int_sum, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"other_value", ptr @other_value, ptr @other_value, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
