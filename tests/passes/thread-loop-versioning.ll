; kernplug-thread-loop-versioning: in a CPU block entry, the loop over threadIdx.x (marked
; kernplug.thread_loop) gets a copy without the guard `if (x < n)` that holds for the whole
; block, chosen at run time; the marker is dropped, and the original (guarded) copy is marked
; llvm.loop.unroll.disable and llvm.loop.isvectorized (neither unrolled nor vectorised). (The input is what kernplug-host-stubs
; makes of `if (threadIdx.x < n) x[threadIdx.x] *= a;`, simplified as at -O2.)
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='function(kernplug-thread-loop-versioning)' -S %s | FileCheck %s

; The guard holds for the first and the last thread of the range: the fast copy runs.
; CHECK: loop.x.preheader:
; CHECK: %[[FIRST:[0-9]+]] = icmp slt i32 %8, %7
; CHECK: %[[LAST:[0-9]+]] = icmp slt i32 %{{[0-9]+}}, %7
; CHECK: br i1 %{{[0-9]+}}, label %kp.guarded.ph.kp.fast, label %kp.guarded.ph
; In the copy the guard's branch is gone.
; CHECK: body.x.kp.fast:
; CHECK-NEXT: icmp slt i32 %x.kp.fast, %7
; CHECK-NEXT: br label %body.i.kp.fast
; CHECK: br label %loop.x.kp.fast, !llvm.loop ![[FASTLOOP:[0-9]+]]
; The original keeps it.
; CHECK: body.x:
; CHECK-NEXT: %c.i = icmp slt i32 %x, %7
; CHECK-NEXT: br i1 %c.i, label %body.i, label %scale.kp.body.kp.blk.exit
; CHECK: br label %loop.x, !llvm.loop ![[GUARDEDLOOP:[0-9]+]]
; The guarded copy (the grid's last block) is not to be unrolled or vectorised; the fast copy may be.
; CHECK-NOT: kernplug.thread_loop
; CHECK-DAG: ![[FASTLOOP]] = distinct !{![[FASTLOOP]], ![[PAR:[0-9]+]]}
; CHECK-DAG: ![[GUARDEDLOOP]] = distinct !{![[GUARDEDLOOP]], ![[PAR]], ![[NOUNROLL:[0-9]+]], ![[NOVEC:[0-9]+]]}
; CHECK-DAG: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: ![[NOVEC]] = !{!"llvm.loop.isvectorized", i32 1}

define internal void @scale.kp.cpu_block(ptr %args, ptr %range) #1 {
entry:
  %0 = load ptr, ptr %args, align 8
  %1 = load ptr, ptr %0, align 8
  %2 = getelementptr i8, ptr %args, i64 8
  %3 = load ptr, ptr %2, align 8
  %4 = load float, ptr %3, align 4
  %5 = getelementptr i8, ptr %args, i64 16
  %6 = load ptr, ptr %5, align 8
  %7 = load i32, ptr %6, align 4
  %8 = load i32, ptr %range, align 4
  %9 = getelementptr inbounds i8, ptr %range, i64 12
  %10 = load i32, ptr %9, align 4
  %11 = getelementptr inbounds i8, ptr %range, i64 4
  %12 = load i32, ptr %11, align 4
  %13 = getelementptr inbounds i8, ptr %range, i64 16
  %14 = load i32, ptr %13, align 4
  %15 = getelementptr inbounds i8, ptr %range, i64 8
  %16 = load i32, ptr %15, align 4
  %17 = getelementptr inbounds i8, ptr %range, i64 20
  %18 = load i32, ptr %17, align 4
  br label %loop.z

loop.z:                                           ; preds = %done.y, %entry
  %z = phi i32 [ %16, %entry ], [ %21, %done.y ]
  %19 = icmp ult i32 %z, %18
  br i1 %19, label %loop.y, label %done.z

done.z:                                           ; preds = %loop.z
  ret void

loop.y:                                           ; preds = %loop.z, %done.x
  %y = phi i32 [ %23, %done.x ], [ %12, %loop.z ]
  %20 = icmp ult i32 %y, %14
  br i1 %20, label %loop.x, label %done.y

done.y:                                           ; preds = %loop.y
  %21 = add nuw nsw i32 %z, 1
  br label %loop.z

loop.x:                                           ; preds = %loop.y, %scale.kp.body.kp.blk.exit
  %x = phi i32 [ %24, %scale.kp.body.kp.blk.exit ], [ %8, %loop.y ]
  %22 = icmp ult i32 %x, %10
  br i1 %22, label %body.x, label %done.x

done.x:                                           ; preds = %loop.x
  %23 = add nuw nsw i32 %y, 1
  br label %loop.y

body.x:                                           ; preds = %loop.x
  %c.i = icmp slt i32 %x, %7
  br i1 %c.i, label %body.i, label %scale.kp.body.kp.blk.exit

body.i:                                           ; preds = %body.x
  %i.i = zext i32 %x to i64
  %p.i = getelementptr inbounds float, ptr %1, i64 %i.i
  %v.i = load float, ptr %p.i, align 4
  %m.i = fmul float %v.i, %4
  store float %m.i, ptr %p.i, align 4
  br label %scale.kp.body.kp.blk.exit

scale.kp.body.kp.blk.exit:                        ; preds = %body.x, %body.i
  %24 = add nuw nsw i32 %x, 1
  br label %loop.x, !llvm.loop !3
}

attributes #1 = { noinline nounwind "kernplug-block-entry" }

!3 = distinct !{!3, !4}
!4 = !{!"kernplug.thread_loop"}
