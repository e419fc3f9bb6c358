; kernplug-barrier-fission recomputes a per-thread flag after the barrier from the branches
; that set it, instead of saving it per thread (BarrierFission.cpp, recomputeFlags;
; FlagPaths.cpp): Rodinia hotspot's `computed = 0; if (...) { computed = 1; ... }` read as
; `if (computed)` after a barrier.
; - flag: `computed` set under `t > step` then `t < 15 - step && y > step && y < 15 - step`
;   (step a loop's counter, the same in every thread and saved anyway), tested after the
;   barrier: no per-thread copy, and the region after the barrier is split where the
;   recomputed condition changes.
; - flag_step: the same with an i1 flag (`!computed`) that the branch after the barrier tests.
; - flag_load: the condition reads memory that differs between threads: the flag is saved
;   per thread, as before.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'flag': {{.*}}1 per-thread flags recomputed after the barrier from the branches that set them, not saved per thread
; REMARK: kernel 'flag_step': {{.*}}1 per-thread flags recomputed after the barrier
; REMARK-NOT: kernel 'flag_load': {{.*}}flags recomputed

; CHECK-LABEL: define internal void @flag.kp.cpu_block(
; CHECK: %step.saved.threads = alloca
; CHECK-NOT: saved.threads = alloca
; CHECK: kp.region1:
; CHECK: %step.restored = load i32, ptr %step.saved.threads
; The copy's loop over x is split where the recomputed condition changes, from the saved
; step; the condition is folded in each part.
; CHECK: %lim.remat = sub nuw nsw i32 15, %step.restored
; CHECK: %kp.x.lo{{[0-9]+}} = trunc i64
; CHECK: %[[ABOVE:above.remat[0-9]*]] = icmp {{(samesign )?}}ugt i32 %{{.*}}, %step.restored
; CHECK: select i1 %[[ABOVE]], i1 %both.remat{{[0-9]*}}, i1 false
; CHECK-NEXT: br i1 true, label %latch{{[0-9]*}}, label %copy
; CHECK-NOT: restored = load i1
; CHECK-NOT: computed.restored
; CHECK: kp.region2:

; CHECK-LABEL: define internal void @flag_step.kp.cpu_block(
; CHECK: %step.saved.threads = alloca
; CHECK-NOT: saved.threads = alloca
; CHECK: kp.region1:
; CHECK: %step.restored = load i32, ptr %step.saved.threads
; CHECK: %kp.x.lo{{[0-9]+}} = trunc i64
; CHECK-NOT: skip.restored
; CHECK: kp.region2:

; CHECK-LABEL: define internal void @flag_load.kp.cpu_block(
; CHECK: %set.not.saved.threads = alloca i1
; CHECK: %set.not.restored = load i1

define void @flag(ptr %s, ptr %o) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %y = call i32 @kp_dev_tid_y()
  br label %loop
loop:
  %step = phi i32 [ 0, %entry ], [ %next, %latch ]
  %above = icmp ugt i32 %t, %step
  br i1 %above, label %second, label %join
second:
  %lim = sub nuw nsw i32 15, %step
  %below = icmp ult i32 %t, %lim
  %top = icmp ugt i32 %y, %step
  %bottom = icmp ult i32 %y, %lim
  %rows = and i1 %top, %bottom
  %both = select i1 %below, i1 %rows, i1 false
  br i1 %both, label %work, label %join
work:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  %a = load float, ptr %p, align 4
  %c = fadd float %a, 1.0
  store float %c, ptr %p, align 4
  br label %join
join:
  %computed = phi i32 [ 1, %work ], [ 0, %second ], [ 0, %loop ]
  call void @kp_dev_syncthreads()
  %set = icmp ne i32 %computed, 0
  br i1 %set, label %copy, label %latch
copy:
  %j = zext i32 %t to i64
  %q = getelementptr inbounds float, ptr %s, i64 %j
  %v = load float, ptr %q, align 4
  %r = getelementptr inbounds float, ptr %o, i64 %j
  store float %v, ptr %r, align 4
  br label %latch
latch:
  call void @kp_dev_syncthreads()
  %next = add nuw nsw i32 %step, 1
  %more = icmp ult i32 %next, 2
  br i1 %more, label %loop, label %done
done:
  ret void
}

define void @flag_step(ptr %s, ptr %o) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %y = call i32 @kp_dev_tid_y()
  br label %loop
loop:
  %step = phi i32 [ 0, %entry ], [ %next, %latch ]
  %above = icmp ugt i32 %t, %step
  br i1 %above, label %second, label %join
second:
  %lim = sub nuw nsw i32 15, %step
  %below = icmp ult i32 %t, %lim
  %top = icmp ugt i32 %y, %step
  %bottom = icmp ult i32 %y, %lim
  %rows = and i1 %top, %bottom
  %both = select i1 %below, i1 %rows, i1 false
  br i1 %both, label %work, label %join
work:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  %a = load float, ptr %p, align 4
  %c = fadd float %a, 1.0
  store float %c, ptr %p, align 4
  br label %join
join:
  %skip = phi i1 [ false, %work ], [ true, %second ], [ true, %loop ]
  call void @kp_dev_syncthreads()
  br i1 %skip, label %latch, label %copy
copy:
  %j = zext i32 %t to i64
  %q = getelementptr inbounds float, ptr %s, i64 %j
  %v = load float, ptr %q, align 4
  %r = getelementptr inbounds float, ptr %o, i64 %j
  store float %v, ptr %r, align 4
  br label %latch
latch:
  call void @kp_dev_syncthreads()
  %next = add nuw nsw i32 %step, 1
  %more = icmp ult i32 %next, 2
  br i1 %more, label %loop, label %done
done:
  ret void
}

define void @flag_load(ptr %s, ptr %o, ptr %n) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %y = call i32 @kp_dev_tid_y()
  br label %loop
loop:
  %step = phi i32 [ 0, %entry ], [ %next, %latch ]
  %above = icmp ugt i32 %t, %step
  br i1 %above, label %second, label %join
second:
  %k = zext i32 %t to i64
  %np = getelementptr inbounds i32, ptr %n, i64 %k
  %lim = load i32, ptr %np, align 4
  %below = icmp ult i32 %t, %lim
  %top = icmp ugt i32 %y, %step
  %bottom = icmp ult i32 %y, %lim
  %rows = and i1 %top, %bottom
  %both = select i1 %below, i1 %rows, i1 false
  br i1 %both, label %work, label %join
work:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  %a = load float, ptr %p, align 4
  %c = fadd float %a, 1.0
  store float %c, ptr %p, align 4
  br label %join
join:
  %computed = phi i32 [ 1, %work ], [ 0, %second ], [ 0, %loop ]
  call void @kp_dev_syncthreads()
  %set = icmp ne i32 %computed, 0
  br i1 %set, label %copy, label %latch
copy:
  %j = zext i32 %t to i64
  %q = getelementptr inbounds float, ptr %s, i64 %j
  %v = load float, ptr %q, align 4
  %r = getelementptr inbounds float, ptr %o, i64 %j
  store float %v, ptr %r, align 4
  br label %latch
latch:
  call void @kp_dev_syncthreads()
  %next = add nuw nsw i32 %step, 1
  %more = icmp ult i32 %next, 2
  br i1 %more, label %loop, label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_tid_y() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"flag", ptr @flag, ptr @flag, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"flag_step", ptr @flag_step, ptr @flag_step, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"flag_load", ptr @flag_load, ptr @flag_load, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
