; kernplug-barrier-fission on regions that branch on threadIdx.x or on uniform values
; (ThreadRangeSplit.cpp, BarrierFission.cpp's emitRegion):
; - tree_step: `t < ntid.x / 2` holds on [0, stride): the region's loop over x runs in two
;   consecutive loops, [begin, hi) and [hi, end), the branch folded in each.
; - doubling: a loop with a barrier in it; its bound k is a uniform value saved across the
;   barrier, stored once per block (thread 0's element), the loop's exit test is decided
;   before the threads' loops (one variant per way), and `t >= k` splits at lo.
; - not_monotone: `t - 4 u< ntid.x` (wraps: not an interval for every ntid.x) and a bound
;   loaded from memory: the loops stay whole.
; - constant_range: `t - 4 u< 8`, InstCombine's form of `t >= 4 && t < 12`: both ends are
;   constants that do not wrap, so the interval [4, 12) splits the loop.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'tree_step': 1 thread loops split where a branch on threadIdx.x changes
; REMARK: kernel 'tree_step': barriers split into 3 regions on the CPU
; REMARK: kernel 'doubling': 2 thread loops split where a branch on threadIdx.x changes; 2 uniform branches decided before the thread loops; 2 stores of uniform values made once per block, not per thread
; REMARK: kernel 'doubling': barriers split into 2 regions on the CPU
; REMARK-NOT: kernel 'not_monotone': {{.*}}thread loops split
; REMARK: kernel 'not_monotone': barriers split into 2 regions on the CPU
; REMARK: kernel 'constant_range': 1 thread loops split where a branch on threadIdx.x changes

; CHECK-LABEL: define internal void @tree_step.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: %kp.x.lo = trunc i64
; CHECK: %kp.x.hi = trunc i64
; CHECK: %[[X:x[0-9]*]] = phi i32 [ %kp.x.lo, %body.y{{[0-9]*}} ]
; CHECK: icmp ult i32 %[[X]], %kp.x.hi
; CHECK: br label %loop.x{{[0-9]+}}, !llvm.loop
; CHECK: phi i32 [ %kp.x.hi, %done.x{{[0-9]*}} ]
; CHECK: icmp ult i32 %{{.*}}, %{{[0-9]+}}
; CHECK: br label %loop.x{{[0-9]+}}, !llvm.loop
; CHECK: kp.region2:

; CHECK-LABEL: define internal void @doubling.kp.cpu_block(
; CHECK: %k.saved.threads = alloca i32, i64 %kp.threads
; CHECK: kp.region0:
; CHECK: br i1 %more, label %kp.uniform.true, label %kp.uniform.false
; CHECK: kp.uniform.true:
; CHECK-NEXT: store i32 1, ptr %k.saved.threads
; Each way has one exit: straight on to it, not through %kp.next (barrier-fission-direct-exits.ll).
; CHECK-NOT: ptr %kp.next
; CHECK: kp.uniform.false:
; CHECK-NOT: ptr %kp.next
; CHECK: %kp.x.lo = trunc i64
; CHECK: phi i32 [ %kp.x.lo, %body.y{{[0-9]*}} ]
; CHECK: kp.region1:
; CHECK-NEXT: %k.restored = load i32, ptr %k.saved.threads
; CHECK: kp.uniform.true{{[0-9]+}}:
; CHECK-NEXT: %[[K2:[a-z0-9.]+]] = shl i32 %k.restored, 1
; CHECK-NEXT: store i32 %[[K2]], ptr %k.saved.threads
; CHECK-NOT: {{^}}kp.region

; CHECK-LABEL: define internal void @not_monotone.kp.cpu_block(
; CHECK-NOT: kp.x.lo
; CHECK-LABEL: define internal void @constant_range.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: call i64 @llvm.smax.i64(i64 %{{[0-9]+}}, i64 4)
; CHECK: call i64 @llvm.smin.i64(i64 %{{[0-9]+}}, i64 12)
; CHECK: %kp.x.lo = trunc i64
; CHECK: %kp.x.hi = trunc i64
; CHECK: phi i32 [ %kp.x.lo, %done.x{{[0-9]*}} ]
; CHECK: phi i32 [ %kp.x.hi, %done.x{{[0-9]*}} ]
; CHECK: attributes

define void @tree_step(ptr %s) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  call void @kp_dev_syncthreads()
  %stride = lshr i32 %n, 1
  %in = icmp ult i32 %t, %stride
  br i1 %in, label %add, label %done
add:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  %j = add nuw i32 %t, %stride
  %jj = zext i32 %j to i64
  %q = getelementptr inbounds float, ptr %s, i64 %jj
  %a = load float, ptr %p, align 4
  %b = load float, ptr %q, align 4
  %c = fadd float %a, %b
  store float %c, ptr %p, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @doubling(ptr %s) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  br label %head
head:
  %k = phi i32 [ 1, %entry ], [ %k2, %wait ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done
body:
  %ge = icmp uge i32 %t, %k
  br i1 %ge, label %upper, label %wait
upper:
  %v = load i32, ptr %p, align 4
  %w = add i32 %v, 1
  store i32 %w, ptr %p, align 4
  br label %wait
wait:
  call void @kp_dev_syncthreads()
  %k2 = shl i32 %k, 1
  br label %head
done:
  ret void
}

define void @not_monotone(ptr %s, ptr %bound) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  call void @kp_dev_syncthreads()
  %d = add i32 %t, -4
  %mid = icmp ult i32 %d, %n
  %lim = load i32, ptr %bound, align 4
  %below = icmp ult i32 %t, %lim
  %both = or i1 %mid, %below
  br i1 %mid, label %set, label %next
set:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  store i32 1, ptr %p, align 4
  br label %next
next:
  br i1 %below, label %set2, label %done
set2:
  %i2 = zext i32 %t to i64
  %p2 = getelementptr inbounds i32, ptr %s, i64 %i2
  store i32 2, ptr %p2, align 4
  br label %done
done:
  ret void
}

define void @constant_range(ptr %s) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %d = add i32 %t, -4
  %mid = icmp ult i32 %d, 8
  br i1 %mid, label %set, label %done
set:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  store i32 1, ptr %p, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2, !3}
!0 = !{!"tree_step", ptr @tree_step, ptr @tree_step, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"doubling", ptr @doubling, ptr @doubling, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"not_monotone", ptr @not_monotone, ptr @not_monotone, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
!3 = !{!"constant_range", ptr @constant_range, ptr @constant_range, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 2, !""}
