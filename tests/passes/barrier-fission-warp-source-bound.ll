; kernplug-barrier-fission: whether a shfl_down's source lane (lane + offset) is in the warp,
; tested on the lane loop's counter x as it is: x < x0 + lanes - offset, signed (nothing
; wraps: x, x0 + lanes <= blockDim.x <= 1024 and the offset is clamped to 32), instead of
; lane = x - x0, lane + offset and an unsigned compare with lanes. The vectorised lane loop
; then compares its vector of x with one bound fixed for the loop (the tree reduction's
; shuffle rounds). The same lanes take the source: x - x0 + offset < lanes.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -S %s | FileCheck %s

; CHECK-LABEL: define internal void @down16.kp.cpu_block(
; CHECK: kp.warp.start:
; CHECK: %kp.warp.lanes{{[0-9]*}} = call i32 @llvm.umin.i32(i32 32,
; CHECK: loop.x{{[0-9]*}}:
; CHECK: %[[X:x[0-9]*]] = phi i32 [ %kp.warp.x0,
; CHECK: %kp.lane = sub i32 %[[X]], %kp.warp.x0
; CHECK: %[[D:.*]] = call i32 @llvm.umin.i32(i32 16, i32 32)
; CHECK-NOT: icmp ult i32 %{{.*}}, %kp.warp.lanes
; CHECK: %kp.warp.source = load i32
; CHECK-NEXT: %[[END:.*]] = add nuw i32 %kp.warp.x0, %kp.warp.lanes{{[0-9]*}}
; CHECK-NEXT: %kp.warp.source.end = sub i32 %[[END]], %[[D]]
; CHECK-NEXT: %kp.warp.source.in = icmp slt i32 %[[X]], %kp.warp.source.end
; CHECK-NEXT: %kp.shuffled = select i1 %kp.warp.source.in, i32 %kp.warp.source, i32 %kp.warp.own

define void @down16(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  %v = load i32, ptr %p, align 4
  %d = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 16)
  %sum = add i32 %v, %d
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %sum, ptr %q, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0}
!0 = !{!"down16", ptr @down16, ptr @down16, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
