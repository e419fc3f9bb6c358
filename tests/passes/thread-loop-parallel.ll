; kernplug-thread-loop-versioning also marks a block entry's thread loop parallel
; (llvm.loop.parallel_accesses, every load and store in its access group) when each memory
; access of the loop is a plain load or store of kernel memory: an array behind a pointer
; parameter (a pointer loaded from the pointer args[] holds) or a global. Iterations are
; different GPU threads without a barrier between them, which a GPU runs in no set order.
; Loops that touch the entry's own stack (a private array reused by one thread after
; another), atomics or volatile memory are left unmarked.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='function(kernplug-thread-loop-versioning)' -S %s | FileCheck %s

; CHECK-LABEL: define internal void @plain.kp.cpu_block(
; CHECK: load float, ptr %p, align 4, !llvm.access.group ![[G:[0-9]+]]
; CHECK: store float %m, ptr %p, align 4, !llvm.access.group ![[G]]
; CHECK: br label %loop.x, !llvm.loop ![[L:[0-9]+]]
; CHECK-LABEL: define internal void @private.kp.cpu_block(
; CHECK-NOT: access.group
; CHECK: br label %loop.x, !llvm.loop
; CHECK-LABEL: define internal void @atomic.kp.cpu_block(
; CHECK-NOT: access.group
; CHECK: ret void
; CHECK: ![[G]] = distinct !{}
; CHECK: ![[L]] = distinct !{![[L]], ![[P:[0-9]+]]}
; CHECK: ![[P]] = !{!"llvm.loop.parallel_accesses", ![[G]]}

define internal void @plain.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %a = load ptr, ptr %args, align 8
  %x0 = load ptr, ptr %a, align 8
  %b = load i32, ptr %range, align 4
  %e.p = getelementptr inbounds i8, ptr %range, i64 12
  %e = load i32, ptr %e.p, align 4
  br label %loop.x
loop.x:
  %x = phi i32 [ %b, %entry ], [ %nx, %body ]
  %c = icmp ult i32 %x, %e
  br i1 %c, label %body, label %done
body:
  %i = zext i32 %x to i64
  %p = getelementptr inbounds float, ptr %x0, i64 %i
  %v = load float, ptr %p, align 4
  %m = fmul float %v, 2.0
  store float %m, ptr %p, align 4
  %nx = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !0
done:
  ret void
}

define internal void @private.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %tmp = alloca [4 x float], align 4
  %a = load ptr, ptr %args, align 8
  %x0 = load ptr, ptr %a, align 8
  %b = load i32, ptr %range, align 4
  %e.p = getelementptr inbounds i8, ptr %range, i64 12
  %e = load i32, ptr %e.p, align 4
  br label %loop.x
loop.x:
  %x = phi i32 [ %b, %entry ], [ %nx, %body ]
  %c = icmp ult i32 %x, %e
  br i1 %c, label %body, label %done
body:
  %i = zext i32 %x to i64
  %p = getelementptr inbounds float, ptr %x0, i64 %i
  %v = load float, ptr %p, align 4
  %k = and i64 %i, 3
  %q = getelementptr inbounds float, ptr %tmp, i64 %k
  store float %v, ptr %q, align 4
  %w = load float, ptr %tmp, align 4
  store float %w, ptr %p, align 4
  %nx = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !2
done:
  ret void
}

define internal void @atomic.kp.cpu_block(ptr %args, ptr %range) #0 {
entry:
  %a = load ptr, ptr %args, align 8
  %x0 = load ptr, ptr %a, align 8
  %b = load i32, ptr %range, align 4
  %e.p = getelementptr inbounds i8, ptr %range, i64 12
  %e = load i32, ptr %e.p, align 4
  br label %loop.x
loop.x:
  %x = phi i32 [ %b, %entry ], [ %nx, %body ]
  %c = icmp ult i32 %x, %e
  br i1 %c, label %body, label %done
body:
  %i = zext i32 %x to i64
  %p = getelementptr inbounds float, ptr %x0, i64 %i
  %v = load float, ptr %p, align 4
  %o = atomicrmw fadd ptr %x0, float %v monotonic
  %nx = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !4
done:
  ret void
}

attributes #0 = { noinline nounwind "kernplug-block-entry" }

!0 = distinct !{!0, !1}
!1 = !{!"kernplug.thread_loop"}
!2 = distinct !{!2, !1}
!4 = distinct !{!4, !1}
