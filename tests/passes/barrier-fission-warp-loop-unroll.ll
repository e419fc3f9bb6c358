; kernplug-barrier-fission: a loop of warp collectives with a constant trip count and no block
; barrier is fully unrolled before the split (WarpLoopUnroll.cpp), so that each shuffle is a
; region of its own with a constant offset: no slot for the offset, and the in-place read at
; lane + 16, + 8, ... + 1. 'down_unrolled' (5 trips, the loop's value used after it): 6
; regions, the offsets as constant globals, the last region storing the fifth shuffle's sum.
; 'down_param' (the start from a parameter) keeps its loop and says so. 'down_barrier' (a
; syncthreads() in the loop) is left alone (no unrolling, no remark about it).
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK-DAG: remark: {{.*}}kernplug: kernel 'down_unrolled': 1 loops of warp collectives unrolled (a constant trip count); {{.*}}5 warp shuffles read the lanes' values in place
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'down_unrolled': barriers and warp collectives split into 6 regions
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'down_param': {{.*}}1 loops of warp collectives kept (trip count not a small constant); {{.*}}1 warp shuffles read the lanes' values in place
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'down_barrier': barriers and warp collectives split into 3 regions

; CHECK-DAG: @kp.warp.const.16 = private unnamed_addr constant i32 16
; CHECK-DAG: @kp.warp.const.8 = private unnamed_addr constant i32 8
; CHECK-DAG: @kp.warp.const.4 = private unnamed_addr constant i32 4
; CHECK-DAG: @kp.warp.const.2 = private unnamed_addr constant i32 2
; CHECK-DAG: @kp.warp.const.1 = private unnamed_addr constant i32 1

; CHECK-LABEL: define internal void @down_unrolled.kp.cpu_block(
; CHECK-NOT: kp.warp.arg
; CHECK: kp.region5:
; CHECK: %kp.warp.source{{[0-9]*}} = load i32
; CHECK: %kp.shuffled{{[0-9]*}} = select i1
; CHECK: %[[SUM:v.next.4]] = add i32 %{{.*}}, %kp.shuffled
; CHECK: store i32 %[[SUM]], ptr %{{.*}}
; CHECK-LABEL: define internal void @down_param.kp.cpu_block(
; CHECK: kp.warp.arg.threads
; CHECK-LABEL: define internal void @down_barrier.kp.cpu_block(
; CHECK: kp.warp.arg.threads

define void @down_unrolled(ptr %in, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %i
  %v0 = load i32, ptr %p, align 4
  br label %loop
loop:
  %v = phi i32 [ %v0, %entry ], [ %v.next, %loop ]
  %d = phi i32 [ 16, %entry ], [ %d.next, %loop ]
  %s = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 %d)
  %v2 = shl i32 %v, 1
  %v.next = add i32 %v2, %s
  %d.next = lshr i32 %d, 1
  %more = icmp ugt i32 %d, 1
  br i1 %more, label %loop, label %exit
exit:
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v.next, ptr %q, align 4
  ret void
}

define void @down_param(ptr %in, ptr %out, i32 %d0) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %i
  %v0 = load i32, ptr %p, align 4
  %none = icmp eq i32 %d0, 0
  br i1 %none, label %exit, label %loop
loop:
  %v = phi i32 [ %v0, %entry ], [ %v.next, %loop ]
  %d = phi i32 [ %d0, %entry ], [ %d.next, %loop ]
  %s = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 %d)
  %v.next = add i32 %v, %s
  %d.next = lshr i32 %d, 1
  %more = icmp ugt i32 %d, 1
  br i1 %more, label %loop, label %exit
exit:
  %r = phi i32 [ %v0, %entry ], [ %v.next, %loop ]
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %r, ptr %q, align 4
  ret void
}

define void @down_barrier(ptr %in, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %i
  %v0 = load i32, ptr %p, align 4
  br label %loop
loop:
  %v = phi i32 [ %v0, %entry ], [ %v.next, %loop ]
  %d = phi i32 [ 16, %entry ], [ %d.next, %loop ]
  %s = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 %d)
  call void @kp_dev_syncthreads()
  %v.next = add i32 %v, %s
  %d.next = lshr i32 %d, 1
  %more = icmp ugt i32 %d, 1
  br i1 %more, label %loop, label %exit
exit:
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v.next, ptr %q, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"down_unrolled", ptr @down_unrolled, ptr @down_unrolled, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"down_param", ptr @down_param, ptr @down_param, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"down_barrier", ptr @down_barrier, ptr @down_barrier, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
