; kernplug-cpu-flat-block-rows, a body whose first branch is the problem-size guard
; `blockIdx.x * blockDim.x + threadIdx.x < n` (n a kernel parameter; signed, unsigned or
; swapped): the row's pieces are cut where the guard stops holding (FlatRowsEdgeCut.h).
; edge.cut = n - the row's first global x, clamped to [0, row.len] (row.len where the
; 32-bit gx would wrap within the row); pieces 0-2 end at the
; cut at the latest and a fourth piece runs [edge.cut, row.len) from the block holding it,
; so the edge block's threads below n get a piece of their own that ThreadLoopVersioning's
; check passes. The same threads in the same order: the pieces still partition the row.
; Where the threads past the bound do nothing (the guard's false side only returns, and the
; entry block before the branch has no effect), the fourth piece is left out: pieces 0-2 end
; at the cut and the threads past it are skipped. A guard against a constant, or no guard,
; keeps the three pieces uncut.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry,kernplug-cpu-flat-block-rows -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'cut': CPU entry = flat rows of blocks (consecutive blocks in x run as one loop over blockIdx.x * blockDim.x + threadIdx.x); its pieces cut where the guard blockIdx.x * blockDim.x + threadIdx.x < (parameter 2) stops holding: the edge block's threads below the bound run the guard-free copy; the threads past it do nothing and are skipped
; REMARK: kernel 'cut_swapped': CPU entry = flat rows of blocks ({{.*}}); its pieces cut where the guard {{.*}} < (parameter 1) stops holding: the edge block's threads below the bound run the guard-free copy{{$}}
; REMARK: kernel 'constant_bound': CPU entry = flat rows of blocks (consecutive blocks in x run as one loop over blockIdx.x * blockDim.x + threadIdx.x){{$}}
; REMARK: kernel 'no_guard': CPU entry = flat rows of blocks (consecutive blocks in x run as one loop over blockIdx.x * blockDim.x + threadIdx.x){{$}}
; REMARK: kernel 'store_first': CPU entry = flat rows of blocks ({{.*}}); its pieces cut where the guard {{.*}} < (parameter 2) stops holding: the edge block's threads below the bound run the guard-free copy{{$}}

; CHECK-LABEL: define internal void @cut.kp.cpu_block(
; CHECK: row:
; CHECK: %row.len = add i32
; CHECK: %row.gx = add i32 %[[BS:[0-9]+]], %[[BEGIN:[0-9]+]]
; CHECK: %[[N64:[0-9]+]] = sext i32 %[[N:[0-9]+]] to i64
; CHECK-NEXT: %[[GX64:[0-9]+]] = sext i32 %row.gx to i64
; CHECK-NEXT: %[[LEN64:[0-9]+]] = zext i32 %row.len to i64
; CHECK-NEXT: %[[K:[0-9]+]] = sub i64 %[[N64]], %[[GX64]]
; CHECK-NEXT: %[[MIN:[0-9]+]] = call i64 @llvm.smin.i64(i64 %[[K]], i64 %[[LEN64]])
; CHECK-NEXT: %[[MAX:[0-9]+]] = call i64 @llvm.smax.i64(i64 %[[MIN]], i64 0)
; CHECK-NEXT: %[[END:[0-9]+]] = add i64 %[[GX64]], %[[LEN64]]
; CHECK-NEXT: %[[NOWRAP:[0-9]+]] = icmp sle i64 %[[END]], 2147483648
; CHECK-NEXT: %[[KC:[0-9]+]] = select i1 %[[NOWRAP]], i64 %[[MAX]], i64 %[[LEN64]]
; CHECK-NEXT: %edge.cut = trunc i64 %[[KC]] to i32
; CHECK: %edge.ctaid.x = add i32 %row.ctaid.x,
; CHECK: loop.z:
; CHECK: loop.piece:
; CHECK: icmp ult i32 %piece, 3
; CHECK: %piece.lo = select
; CHECK: %piece.hi = select
; CHECK: %[[SHI:[0-9]+]] = call i32 @llvm.umin.i32(i32 %piece.hi, i32 %edge.cut)
; CHECK-NEXT: %piece.hi.cut = call i32 @llvm.umax.i32(i32 %piece.lo, i32 %[[SHI]])
; CHECK: loop.x:
; CHECK-NEXT: %x = phi i32 [ %piece.lo, %body.piece ]
; CHECK: icmp ult i32 %x, %piece.hi.cut

; The unsigned, swapped guard whose false side stores: a fourth piece runs past the cut.
; CHECK-LABEL: define internal void @cut_swapped.kp.cpu_block(
; CHECK: %[[UN64:[0-9]+]] = zext i32 %{{[0-9]+}} to i64
; CHECK-NEXT: %[[UGX64:[0-9]+]] = zext i32 %row.gx to i64
; CHECK-NEXT: %[[ULEN64:[0-9]+]] = zext i32 %row.len to i64
; CHECK-NEXT: sub i64 %[[UN64]], %[[UGX64]]
; CHECK: %[[UEND:[0-9]+]] = add i64 %[[UGX64]], %[[ULEN64]]
; CHECK-NEXT: icmp sle i64 %[[UEND]], 4294967296
; CHECK: %edge.cut = trunc i64
; CHECK: loop.piece:
; CHECK: icmp ult i32 %piece, 4
; CHECK: %piece.lo = select
; CHECK: %piece.hi = select
; CHECK: %[[HIC:[0-9]+]] = call i32 @llvm.umin.i32(i32 %piece.hi, i32 %edge.cut)
; CHECK-NEXT: %[[HIK:[0-9]+]] = call i32 @llvm.umax.i32(i32 %piece.lo, i32 %[[HIC]])
; CHECK-NEXT: %[[LAST:[0-9]+]] = icmp eq i32 %piece, 3
; CHECK-NEXT: %piece.lo.cut = select i1 %[[LAST]], i32 %edge.cut, i32 %piece.lo
; CHECK-NEXT: %piece.hi.cut = select i1 %[[LAST]], i32 %piece.hi, i32 %[[HIK]]
; CHECK-NEXT: select i1 %[[LAST]], i32 %edge.ctaid.x,
; CHECK: loop.x:
; CHECK-NEXT: %x = phi i32 [ %piece.lo.cut, %body.piece ]
; CHECK: icmp ult i32 %x, %piece.hi.cut


; CHECK-LABEL: define internal void @constant_bound.kp.cpu_block(
; CHECK-NOT: edge.cut
; CHECK: icmp ult i32 %piece, 3
; CHECK-LABEL: define internal void @no_guard.kp.cpu_block(
; CHECK-NOT: edge.cut
; CHECK: icmp ult i32 %piece, 3

; A store before the guard: every thread has an effect, none is skipped.
; CHECK-LABEL: define internal void @store_first.kp.cpu_block(
; CHECK: %edge.cut = trunc i64
; CHECK: icmp ult i32 %piece, 4

define void @cut(ptr %x, i32 %n) {
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

define void @cut_swapped(i32 %n, ptr %x) {
  %g = call i32 @gx()
  %c = icmp ugt i32 %n, %g
  %i = zext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  br i1 %c, label %body, label %past
body:
  store float 1.0, ptr %p, align 4
  ret void
past:
  store float 2.0, ptr %p, align 4
  ret void
}

define void @store_first(ptr %x, i32 %n, ptr %count) {
  %g = call i32 @gx()
  store i32 %g, ptr %count, align 4
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

define void @constant_bound(ptr %x) {
  %g = call i32 @gx()
  %c = icmp slt i32 %g, 1000
  br i1 %c, label %body, label %done
body:
  %i = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float 1.0, ptr %p, align 4
  br label %done
done:
  ret void
}

define void @no_guard(ptr %x) {
  %g = call i32 @gx()
  %i = sext i32 %g to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float 1.0, ptr %p, align 4
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

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ctaid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)

!kernplug.kernels = !{!0, !1, !2, !3, !4}
!0 = !{!"cut", ptr @cut, ptr @cut, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 1, !""}
!1 = !{!"cut_swapped", ptr @cut_swapped, ptr @cut_swapped, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 1, !""}
!2 = !{!"constant_bound", ptr @constant_bound, ptr @constant_bound, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 1, !""}
!3 = !{!"no_guard", ptr @no_guard, ptr @no_guard, i1 false, !"", i64 0, !"in.c", i32 5, !{}, i32 1, !""}
!4 = !{!"store_first", ptr @store_first, ptr @store_first, i1 false, !"", i64 0, !"in.c", i32 6, !{}, i32 1, !""}
