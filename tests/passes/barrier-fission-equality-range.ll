; kernplug-barrier-fission (ThreadRangeSplit.cpp): a branch on `threadIdx.x == C`, C a constant,
; holds on the interval [C, C + 1): the region's loop over x runs as the parts below, at and
; above C, the branch folded in each (the tree reduction's `if (tid == 0) atomic_add(...)`).
; - lane_zero: `t == 0` after a barrier: the lower bound is 0, the upper 1.
; - lane_five: `t != 5` taken to the store (the store where t is not 5): the branch is still
;   decided on [5, 6), false there, so the loop splits at 5 and 6 as well.
; - not_constant: `t == n` (a parameter): left whole (not a constant interval here).
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'lane_zero': 1 thread loops split where a branch on threadIdx.x changes
; REMARK: kernel 'lane_five': 1 thread loops split where a branch on threadIdx.x changes
; REMARK-NOT: kernel 'not_constant': {{.*}}thread loops split

; CHECK-LABEL: define internal void @lane_zero.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: call i64 @llvm.smax.i64(i64 %{{[0-9]+}}, i64 0)
; CHECK: call i64 @llvm.smin.i64(i64 %{{[0-9]+}}, i64 1)
; CHECK: %kp.x.lo = trunc i64
; CHECK: %kp.x.hi = trunc i64
; CHECK: phi i32 [ %kp.x.lo, %done.x{{[0-9]*}} ]
; CHECK: phi i32 [ %kp.x.hi, %done.x{{[0-9]*}} ]
; CHECK-LABEL: define internal void @lane_five.kp.cpu_block(
; CHECK: call i64 @llvm.smax.i64(i64 %{{[0-9]+}}, i64 5)
; CHECK: call i64 @llvm.smin.i64(i64 %{{[0-9]+}}, i64 6)
; CHECK-LABEL: define internal void @not_constant.kp.cpu_block(
; CHECK-NOT: kp.x.lo
; CHECK: attributes

define void @lane_zero(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  store i32 %t, ptr %p, align 4
  call void @kp_dev_syncthreads()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %sum, label %done
sum:
  %a = load i32, ptr %s, align 4
  store i32 %a, ptr %out, align 4
  br label %done
done:
  ret void
}

define void @lane_five(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %other = icmp ne i32 %t, 5
  br i1 %other, label %st, label %done
st:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %t, ptr %p, align 4
  br label %done
done:
  ret void
}

define void @not_constant(ptr %s, ptr %out, i32 %n) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %is = icmp eq i32 %t, %n
  br i1 %is, label %st, label %done
st:
  store i32 %t, ptr %out, align 4
  br label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"lane_zero", ptr @lane_zero, ptr @lane_zero, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"lane_five", ptr @lane_five, ptr @lane_five, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"not_constant", ptr @not_constant, ptr @not_constant, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
