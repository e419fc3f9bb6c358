; kernplug-barrier-fission splits a region's loop over x at a second branch on threadIdx.x
; inside the interval of the first (BarrierFission.cpp, nestedIndexRange): the hotspot's
; `if (inside && tx > step) if (tx < 15 - step && ty > step) ...` after SimplifyCFG.
; - pyramid: `t > 1` then `t < 15 && threadIdx.y > 0`: four consecutive loops over x,
;   [begin, lo), [lo, lo2), [lo2, hi2), [hi2, hi) (hi = end: `t > 1` has no upper bound),
;   both branches folded in [lo2, hi2).
; - one_branch: a second branch on a bound loaded from memory: split once, as before.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'pyramid': 1 thread loops split where a branch on threadIdx.x changes; 1 of them split again inside the interval at a second branch on threadIdx.x
; REMARK: kernel 'pyramid': barriers split into 3 regions on the CPU
; REMARK: kernel 'one_branch': 1 thread loops split where a branch on threadIdx.x changes
; REMARK-NOT: kernel 'one_branch': {{.*}}split again

; CHECK-LABEL: define internal void @pyramid.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: %kp.x.lo = trunc i64
; CHECK: %kp.x.hi = trunc i64
; The interval [lo, hi) of `t > 1`, split at `t < 15` into [lo, lo2), [lo2, hi2), [hi2, hi).
; CHECK: %[[LO2:kp.x.lo[0-9]+]] = trunc i64
; CHECK: %[[HI2:kp.x.hi[0-9]+]] = trunc i64
; CHECK: phi i32 [ %kp.x.lo, %done.x{{[0-9]*}} ]
; CHECK: %[[X:x[0-9]+]] = phi i32 [ %[[LO2]], %done.x{{[0-9]*}} ]
; CHECK-NEXT: icmp ult i32 %[[X]], %[[HI2]]
; In the loop where both hold, both branches are folded: straight to the work.
; CHECK: br i1 true, label %second{{[0-9]+}}
; CHECK: = and i1 true, true
; CHECK: fadd float
; CHECK: phi i32 [ %[[HI2]], %done.x{{[0-9]*}} ]
; `t > 1` has no upper bound: no loop from hi.
; CHECK-NOT: phi i32 [ %kp.x.hi,
; CHECK: kp.region2:

; CHECK-LABEL: define internal void @one_branch.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: %kp.x.lo = trunc i64
; CHECK-NOT: %kp.x.lo{{[0-9]+}} = trunc
; CHECK: kp.region2:
; CHECK-NOT: kp.x.lo
; The copy for blocks of one row (barrier-fission-one-row.ll), at the entry's end.
; CHECK: kp.onerow{{[0-9]*}}:

define void @pyramid(ptr %s) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %above = icmp ugt i32 %t, 1
  br i1 %above, label %second, label %done
second:
  %y = call i32 @kp_dev_tid_y()
  %below = icmp ult i32 %t, 15
  %row = icmp ugt i32 %y, 0
  %both = and i1 %below, %row
  br i1 %both, label %work, label %done
work:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  %a = load float, ptr %p, align 4
  %c = fadd float %a, 1.0
  store float %c, ptr %p, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @one_branch(ptr %s, ptr %bound) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %above = icmp ugt i32 %t, 1
  br i1 %above, label %second, label %done
second:
  %lim = load i32, ptr %bound, align 4
  %below = icmp ult i32 %t, %lim
  br i1 %below, label %work, label %done
work:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  %a = load float, ptr %p, align 4
  %c = fadd float %a, 1.0
  store float %c, ptr %p, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_tid_y() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1}
!0 = !{!"pyramid", ptr @pyramid, ptr @pyramid, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"one_branch", ptr @one_branch, ptr @one_branch, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
