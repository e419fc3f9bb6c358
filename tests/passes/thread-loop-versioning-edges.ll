; kernplug-thread-loop-versioning folds equality comparisons of the thread index with a
; loop-invariant value (the domain's edge) that feed addresses, such as a stencil's
; `we = gx == 0 ? tx : tx - 1`: the fast copy assumes the sides unequal on every
; iteration, checked at run time at the loop's ends (the edge below the smaller end or
; above the larger, no wrap in between), so its loads are consecutive, not gathers. The
; loop is versioned for them alone (no guard branch).
; - edge: `t[gx == 0 ? x : x - 1]`: versioned, the comparison gone from the fast copy.
; - value_only: `x == e ? 1.0 : 2.0` stored, no address: left alone.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='function(kernplug-thread-loop-versioning)' -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: 'edge.kp.cpu_block': 1 comparisons of the thread index with the domain's edge folded in the guard-free thread loops
; REMARK-NOT: value_only

; CHECK-LABEL: define internal void @edge.kp.cpu_block(
; CHECK: call i32 @llvm.umin.i32(
; CHECK: call i32 @llvm.umax.i32(
; CHECK: br i1 %{{[0-9]+}}, label %kp.guarded.ph.kp.fast, label %kp.guarded.ph
; CHECK: body.x.kp.fast:
; CHECK-NOT: icmp eq
; CHECK: %we.kp.fast = select i1 false, i32 %x.kp.fast, i32 %m1.kp.fast
; CHECK: br label %loop.x.kp.fast
; CHECK: body.x:
; CHECK: %c = icmp eq i32 %gx, 0
; CHECK-LABEL: define internal void @value_only.kp.cpu_block(
; CHECK-NOT: kp.fast
; CHECK: ret void

@t = internal global [64 x float] zeroinitializer

define internal void @edge.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %0 = load ptr, ptr %args, align 8
  %out = load ptr, ptr %0, align 8
  %1 = getelementptr i8, ptr %args, i64 8
  %2 = load ptr, ptr %1, align 8
  %base = load i32, ptr %2, align 4
  %begin = load i32, ptr %range, align 4
  %3 = getelementptr inbounds i8, ptr %range, i64 12
  %end = load i32, ptr %3, align 4
  br label %loop.x

loop.x:
  %x = phi i32 [ %begin, %entry ], [ %next, %body.x ]
  %more = icmp ult i32 %x, %end
  br i1 %more, label %body.x, label %done

body.x:
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
  br label %loop.x, !llvm.loop !0

done:
  ret void
}

define internal void @value_only.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %0 = load ptr, ptr %args, align 8
  %out = load ptr, ptr %0, align 8
  %1 = getelementptr i8, ptr %args, i64 8
  %2 = load ptr, ptr %1, align 8
  %e = load i32, ptr %2, align 4
  %begin = load i32, ptr %range, align 4
  %3 = getelementptr inbounds i8, ptr %range, i64 12
  %end = load i32, ptr %3, align 4
  br label %loop.x

loop.x:
  %x = phi i32 [ %begin, %entry ], [ %next, %body.x ]
  %more = icmp ult i32 %x, %end
  br i1 %more, label %body.x, label %done

body.x:
  %c = icmp eq i32 %x, %e
  %v = select i1 %c, float 1.0, float 2.0
  %xi = zext i32 %x to i64
  %q = getelementptr inbounds float, ptr %out, i64 %xi
  store float %v, ptr %q, align 4
  %next = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !2

done:
  ret void
}

attributes #0 = { "kernplug-block-entry" }

!0 = distinct !{!0, !1}
!1 = !{!"kernplug.thread_loop"}
!2 = distinct !{!2, !1}
