; kernplug-thread-loop-versioning: a branch with work on both sides (a stencil's `if (0 < y &&
; 0 < x && y < ny - 1 && x < nx - 1) out = f(in); else out = 0`) is versioned when its leaves
; can be checked at both ends of the thread loop: the fast copy takes the heavier side. A leaf
; on an outer loop's counter (y, a recurrence of the loop over rows) is fixed within the thread
; loop: it is checked at its value, not extended by the thread loop's trip count (which made
; every row but the first few fail the check of a long row). Flat rows of blocks
; (FlatBlockRows.cpp) run such rows.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='function(kernplug-thread-loop-versioning)' -S %s | FileCheck %s

; CHECK-LABEL: define internal void @stencil.kp.cpu_block(
; CHECK: body.y:
; CHECK-NOT: sext i32 %y to i128
; CHECK: icmp sgt i32 %y, 0
; CHECK-NOT: sext i32 %y to i128
; CHECK: br i1 %{{[0-9]+}}, label %kp.guarded.ph.kp.fast, label %kp.guarded.ph
; In the fast copy both branches are gone: the interior side only.
; CHECK: body.x.kp.fast:
; CHECK-NOT: br i1
; CHECK: fmul float
; CHECK-NOT: br i1
; CHECK: store float
; CHECK: br label %loop.x.kp.fast
; The original keeps the branch.
; CHECK: body.x:
; CHECK: br i1 %inside, label %interior, label %edge

define internal void @stencil.kp.cpu_block(ptr %in, ptr %out, i32 %nx, i32 %ny, i32 %lo, i32 %hi) #0 {
entry:
  %nx1 = add i32 %nx, -1
  %ny1 = add i32 %ny, -1
  br label %loop.y

loop.y:
  %y = phi i32 [ 0, %entry ], [ %y.next, %done.x ]
  %cy = icmp ult i32 %y, %ny
  br i1 %cy, label %body.y, label %done.y

body.y:
  %row = mul i32 %y, %nx
  br label %loop.x

loop.x:
  %x = phi i32 [ %lo, %body.y ], [ %x.next, %latch ]
  %cx = icmp ult i32 %x, %hi
  br i1 %cx, label %body.x, label %done.x

body.x:
  %y0 = icmp sgt i32 %y, 0
  %x0 = icmp sgt i32 %x, 0
  %a = and i1 %y0, %x0
  %y1 = icmp slt i32 %y, %ny1
  %b = select i1 %a, i1 %y1, i1 false
  %x1 = icmp slt i32 %x, %nx1
  %inside = select i1 %b, i1 %x1, i1 false
  %k = add nsw i32 %row, %x
  %k64 = sext i32 %k to i64
  %po = getelementptr inbounds float, ptr %out, i64 %k64
  br i1 %inside, label %interior, label %edge

interior:
  %pi = getelementptr inbounds float, ptr %in, i64 %k64
  %v = load float, ptr %pi, align 4
  %pl = getelementptr inbounds float, ptr %pi, i64 -1
  %l = load float, ptr %pl, align 4
  %pr = getelementptr inbounds float, ptr %pi, i64 1
  %r = load float, ptr %pr, align 4
  %s = fadd float %l, %r
  %w = fmul float %v, 2.0
  %t = fadd float %s, %w
  store float %t, ptr %po, align 4
  br label %latch

edge:
  store float 0.0, ptr %po, align 4
  br label %latch

latch:
  %x.next = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !0

done.x:
  %y.next = add nuw nsw i32 %y, 1
  br label %loop.y

done.y:
  ret void
}

attributes #0 = { "kernplug-block-entry" }

!0 = distinct !{!0, !1}
!1 = !{!"kernplug.thread_loop"}
