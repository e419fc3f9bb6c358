; kernplug-barrier-fission: a warp's first lane (x, y, z) in the warps' loop. In the block's
; first row (32w < blockDim.x: every warp of a one-row block) it is (32w, 0, 0), taken without
; dividing 32w by blockDim.x and .y; the other rows divide (kp.warp.rows). 'first_warp' runs
; its shuffle's region warp by warp.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -S %s | FileCheck %s

; CHECK-LABEL: define internal void @first_warp.kp.cpu_block(
; CHECK: kp.warp:
; CHECK: %[[FIRST:.*]] = mul nuw i32 %kp.w, 32
; CHECK: kp.warp.go:
; CHECK-NEXT: %[[IN0:.*]] = icmp ult i32 %[[FIRST]], %[[NX:.*]]
; CHECK-NEXT: br i1 %[[IN0]], label %kp.warp.start, label %kp.warp.rows
; CHECK: kp.warp.rows:
; CHECK-NEXT: %[[ROW:.*]] = udiv i32 %[[FIRST]], %[[NX]]
; CHECK-NEXT: %[[RX:.*]] = mul i32 %[[ROW]], %[[NX]]
; CHECK-NEXT: %[[X:.*]] = sub i32 %[[FIRST]], %[[RX]]
; CHECK-NEXT: %[[Y:.*]] = urem i32 %[[ROW]], %[[NY:.*]]
; CHECK-NEXT: %[[Z:.*]] = udiv i32 %[[ROW]], %[[NY]]
; CHECK-NEXT: br label %kp.warp.start
; CHECK: kp.warp.start:
; CHECK-NEXT: %kp.warp.x0 = phi i32 [ %[[FIRST]], %kp.warp.go ], [ %[[X]], %kp.warp.rows ]
; CHECK-NEXT: %kp.warp.y = phi i32 [ 0, %kp.warp.go ], [ %[[Y]], %kp.warp.rows ]
; CHECK-NEXT: %kp.warp.z = phi i32 [ 0, %kp.warp.go ], [ %[[Z]], %kp.warp.rows ]
; CHECK-NOT: {{udiv|urem}}
; CHECK: br label %kp.dispatch

define void @first_warp(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  call void @kp_dev_syncthreads()
  %w0 = icmp ult i32 %t, 32
  br i1 %w0, label %warp, label %done
warp:
  %v = load i32, ptr %p, align 4
  %d = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 16)
  %sum = add i32 %v, %d
  store i32 %sum, ptr %out, align 4
  br label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0}
!0 = !{!"first_warp", ptr @first_warp, ptr @first_warp, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
