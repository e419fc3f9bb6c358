; kernplug-cpu-flat-block-rows: a block-loop kernel whose threads cannot see each other's
; order and which reads its x indices only as blockIdx.x * blockDim.x + threadIdx.x (row)
; gets a new <k>.kp.cpu_block that runs each row of consecutive blocks of its run as one
; loop over that global x (threadIdx.x = gx - blockIdx.x * blockDim.x), in three pieces
; (first block, middle blocks, last block), each marked for ThreadLoopVersioning; the old
; block-loop entry goes, and the per-thread entry calls the new one. Kernels with a fence,
; shared memory, an atomic whose result is used, or that use threadIdx.x on its own or a
; constant block size keep the block loop, and a remark says why.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry,kernplug-cpu-flat-block-rows -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'row': CPU entry = flat rows of blocks (consecutive blocks in x run as one loop over blockIdx.x * blockDim.x + threadIdx.x)
; REMARK: kernel 'fenced': CPU entry = block loop (no flat rows of blocks: it has a fence)
; REMARK: kernel 'first_thread': CPU entry = block loop (no flat rows of blocks: it uses threadIdx.x apart from blockIdx.x * blockDim.x + threadIdx.x)
; REMARK: kernel 'const_block': CPU entry = block loop (no flat rows of blocks: it uses threadIdx.x apart from blockIdx.x * blockDim.x + threadIdx.x)
; REMARK: kernel 'ticket': CPU entry = block loop (no flat rows of blocks: it uses the result of an atomic)
; REMARK: kernel 'shared': CPU entry = block loop (no flat rows of blocks: it uses shared memory)

; The flat entry: rows of blocks, z, y, the three pieces, then the x loop over the global
; index with blockIdx.x stepping when gx reaches the next block's start.
; CHECK-LABEL: define internal void @row.kp.cpu_block(ptr %args, ptr %range)
; CHECK: rows:
; CHECK: row:
; CHECK: %row.blocks = select i1
; CHECK: loop.z:
; CHECK: loop.y:
; CHECK: loop.piece:
; CHECK: %piece.lo = select
; CHECK: %piece.hi = select
; CHECK: loop.x:
; CHECK-NEXT: %x = phi i32
; (done.x:) the loop over the pieces is not to be unrolled (three copies of the body).
; CHECK: br label %loop.piece, !llvm.loop ![[PIECES:[0-9]+]]
; CHECK: %gx = add i32 %row.gx, %x
; CHECK: %tid.x = sub i32 %gx,
; CHECK: call void @row.kp.blk(
; CHECK: icmp eq i32 %{{[0-9]+}}, %next.block.gx
; CHECK: br label %loop.x, !llvm.loop ![[MARK:[0-9]+]]
; The per-thread entry calls the new entry, which took the old one's name and place.
; CHECK-LABEL: define internal void @row.kp.cpu(ptr %0)
; CHECK: call void @row.kp.cpu_block(ptr %0, ptr %kp.range)
; The others keep the nest of loops over each block's threads.
; CHECK-LABEL: define internal void @fenced.kp.cpu_block(
; CHECK-NOT: loop.piece:
; CHECK: blocks:
; CHECK: loop.x:
; CHECK-LABEL: define internal void @first_thread.kp.cpu_block(
; CHECK-NOT: loop.piece:
; CHECK: blocks:
; CHECK: !{!"row", ptr @row, ptr @row, i1 false, !"", i64 0, !"in.c", i32 2, !{{[0-9]+}}, i32 1, !"", ptr @row.kp.cpu_block, ptr @row.kp.cpu}
; CHECK-DAG: ![[PIECES]] = distinct !{![[PIECES]], ![[NOUNROLL:[0-9]+]]}
; CHECK-DAG: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: ![[MARK]] = distinct !{![[MARK]], ![[NAME:[0-9]+]]}
; CHECK-DAG: ![[NAME]] = !{!"kernplug.thread_loop"}

@tile = internal thread_local global [16 x float] zeroinitializer

define void @row(ptr %x, i32 %n) {
  %g = call i32 @gx()
  %c = icmp slt i32 %g, %n
  br i1 %c, label %body, label %done
body:
  %i = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float 1.0, ptr %p, align 4
  br label %done
done:
  ret void
}

; grid(1) as the header writes it.
define internal i32 @gx() {
  %b = call i32 @kp_dev_ctaid_x()
  %d = call i32 @kp_dev_ntid_x()
  %t = call i32 @kp_dev_tid_x()
  %m = mul i32 %b, %d
  %g = add i32 %m, %t
  ret i32 %g
}

define void @fenced(ptr %x) {
  %g = call i32 @gx()
  %i = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float 1.0, ptr %p, align 4
  fence seq_cst
  ret void
}

define void @first_thread(ptr %x) {
  %g = call i32 @gx()
  %t = call i32 @kp_dev_tid_x()
  %c = icmp eq i32 %t, 0
  br i1 %c, label %body, label %done
body:
  %i = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float 1.0, ptr %p, align 4
  br label %done
done:
  ret void
}

define void @const_block(ptr %x) {
  %b = call i32 @kp_dev_ctaid_x()
  %t = call i32 @kp_dev_tid_x()
  %m = mul i32 %b, 256
  %g = add i32 %m, %t
  %i = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float 1.0, ptr %p, align 4
  ret void
}

define void @ticket(ptr %x, ptr %counter) {
  %g = call i32 @gx()
  %slot = atomicrmw add ptr %counter, i32 1 monotonic, align 4
  %i = sext i32 %slot to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %i
  store i32 %g, ptr %p, align 4
  ret void
}

define void @shared(ptr %x) {
  %g = call i32 @gx()
  %tl = call ptr @llvm.threadlocal.address.p0(ptr @tile)
  %v = load float, ptr %tl, align 4
  %i = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float %v, ptr %p, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ctaid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare ptr @llvm.threadlocal.address.p0(ptr)

!kernplug.kernels = !{!0, !1, !2, !3, !4, !5}
!0 = !{!"row", ptr @row, ptr @row, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 1, !""}
!1 = !{!"fenced", ptr @fenced, ptr @fenced, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 1, !""}
!2 = !{!"first_thread", ptr @first_thread, ptr @first_thread, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 1, !""}
!3 = !{!"const_block", ptr @const_block, ptr @const_block, i1 false, !"", i64 0, !"in.c", i32 5, !{}, i32 1, !""}
!4 = !{!"ticket", ptr @ticket, ptr @ticket, i1 false, !"", i64 0, !"in.c", i32 6, !{}, i32 1, !""}
!5 = !{!"shared", ptr @shared, ptr @shared, i1 false, !"", i64 0, !"in.c", i32 7, !{}, i32 1, !""}
