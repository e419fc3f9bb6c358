; kernplug-barrier-fission with grid-stride loops run by the rows' first threads
; (GridStrideRounds.cpp, runByRowsFirstThread): a loop `for (i = X + threadIdx.x; i < n; i +=
; step)` in rounds whose code carries nothing but its counter and does the same in any thread
; given i runs, between two barriers, as one loop over each round's elements [X + k * step,
; min(X + k * step + blockDim.x, n)) in the first thread of each row, i in 64 bits, unrolled
; by 4, with one prefetch per 64 bytes of the round 16 rounds ahead; a block whose starts
; would wrap (X + blockDim.x > INT_MAX + 1) or whose step is not positive runs the loop as it
; was, thread by thread. A loop that carries another value keeps the rounds counted by the
; block, and the remark says why.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'rows': 1 grid-stride loop runs in rounds of the block's threads in the barrier split (one loop over each round's elements, run by the row's first thread, the index in 64 bits (thread by thread where the block's starts would wrap))
; REMARK: kernel 'rows': 1 thread loops split where a branch on threadIdx.x changes
; REMARK: kernel 'carry': 1 grid-stride loop runs in rounds of the block's threads in the barrier split (threads innermost; counted by the block, the index in 64 bits (not one loop per row: it carries values other than its counter))

; The choice after the first barrier: the starts do not wrap and the step is positive.
; CHECK-LABEL: define internal void @rows.kp.cpu_block(
; CHECK: %gs.x{{[0-9]*}} = sext i32 %bb.remat{{[0-9]*}} to i64
; CHECK: %[[END:[0-9]+]] = add nsw i64 %gs.x{{[0-9]*}}, %gs.ntid{{[0-9]*}}
; CHECK: icmp slt i64 %[[END]], 2147483649
; CHECK: icmp sgt i32 %step.remat{{[0-9]*}}, 0
; CHECK: %gs.rows.ok = and i1
; CHECK: br i1 %gs.rows.ok, label %[[ROWS:[a-z.]+]], label %[[THREADS:[a-z.]+]]
; Only the row's first thread runs the rounds: the branch on threadIdx.x == 0 splits the
; region's thread loop at [0, 1) (ThreadRangeSplit), so the other threads' part never enters
; them and the first thread's part always does.
; CHECK: head.gs.first:
; CHECK: br i1 false, label %head.gs.base, label %head.gs.done
; CHECK: head.gs.base:
; CHECK: %gs.base = phi i64 [ %gs.x{{[0-9]*}}, %head.gs.first ], [ %gs.base.next, %head.gs.base.next ]
; CHECK: icmp slt i64 %gs.base, %gs.n
; CHECK: head.gs.span:
; CHECK: add nsw i64 %gs.base, %gs.ntid
; CHECK: %gs.end = call i64 @llvm.smin.i64(
; CHECK: shl nuw nsw i64 %gs.step, 4
; CHECK: head.gs.prefetch:
; CHECK: %gs.line = phi i64 [ 0, %head.gs.span ], [ %gs.line.next, %head.gs.prefetch ]
; CHECK: call void @llvm.prefetch.p0(
; CHECK: %gs.line.next = add nuw nsw i64 %gs.line, 64
; CHECK: head:
; CHECK-NEXT: %gs.i = phi i64 [ %gs.base, %head.gs.prefetch ], [ %gs.i.next, %body ]
; CHECK-NEXT: %gs.in.span = icmp slt i64 %gs.i, %gs.end
; CHECK-NEXT: br i1 %gs.in.span, label %body, label %head.gs.base.next
; The body indexes with the 64-bit i, no sign extension; the span's loop is unrolled by 4.
; CHECK: body:
; CHECK-NOT: sext
; CHECK: %pv = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 %gs.i
; CHECK: atomicrmw add ptr %slot, i32 1 monotonic
; CHECK: %gs.i.next = add nsw i64 %gs.i, 1
; CHECK-NEXT: br label %head, !llvm.loop ![[SPAN:[0-9]+]]
; CHECK: head.gs.base.next:
; CHECK-NEXT: %gs.base.next = add nsw i64 %gs.base, %gs.step
; The first thread's part.
; CHECK: head.gs.first{{[0-9]+}}:
; CHECK: br i1 true, label %head.gs.base{{[0-9]+}}, label %head.gs.done{{[0-9]+}}
; The thread-by-thread copy: the loop as it was.
; CHECK: head.gs.thread:
; CHECK-NEXT: %i.gs.thread = phi i32 [ %i.next.gs.thread, %body.gs.thread ], [ %start.remat{{[0-9]*}}, %{{[a-z.0-9]+}} ]
; CHECK-NEXT: icmp slt i32 %i.gs.thread, %{{[0-9]+}}
; CHECK-LABEL: define internal void @carry.kp.cpu_block(
; CHECK-NOT: gs.row.first
; CHECK: %gs.k = phi i64
; CHECK: ![[SPAN]] = distinct !{![[SPAN]], ![[COUNT:[0-9]+]]}
; CHECK: ![[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}

@local = internal global [256 x i32] undef, align 16
@.str = private unnamed_addr constant [16 x i8] c"kernplug.shared\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"in.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @local, ptr @.str, ptr @.str.1, i32 1, ptr null }], section "llvm.metadata"

; for (i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1), between barriers.
define void @rows(ptr %v, i32 %n, ptr %bins) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %b = call i32 @kp_dev_ctaid_x()
  %bd = call i32 @kp_dev_ntid_x()
  %g = call i32 @kp_dev_nctaid_x()
  call void @kp_dev_syncthreads()
  %bb = mul i32 %b, %bd
  %start = add i32 %bb, %t
  %step = mul i32 %g, %bd
  br label %head
head:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %i64 = sext i32 %i to i64
  %pv = getelementptr inbounds i8, ptr %v, i64 %i64
  %x = load i8, ptr %pv, align 1
  %x64 = zext i8 %x to i64
  %slot = getelementptr inbounds [256 x i32], ptr @local, i64 0, i64 %x64
  %old = atomicrmw add ptr %slot, i32 1 monotonic, align 4
  %i.next = add nsw i32 %i, %step
  br label %head
done:
  call void @kp_dev_syncthreads()
  %t64 = zext i32 %t to i64
  %s = getelementptr inbounds [256 x i32], ptr @local, i64 0, i64 %t64
  %c = load i32, ptr %s, align 4
  %o = getelementptr inbounds i32, ptr %bins, i64 %t64
  %r = atomicrmw add ptr %o, i32 %c monotonic, align 4
  ret void
}

; The bin moved on by the thread's own count of its elements: a value the thread carries
; from one of its iterations to the next, so its iterations stay with it (rounds counted by
; the block).
define void @carry(ptr %v, i32 %n, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %b = call i32 @kp_dev_ctaid_x()
  %bd = call i32 @kp_dev_ntid_x()
  %g = call i32 @kp_dev_nctaid_x()
  call void @kp_dev_syncthreads()
  %bb = mul i32 %b, %bd
  %start = add i32 %bb, %t
  %step = mul i32 %g, %bd
  br label %head
head:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %count = phi i32 [ 0, %entry ], [ %count.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %i64 = sext i32 %i to i64
  %pv = getelementptr inbounds i8, ptr %v, i64 %i64
  %x = load i8, ptr %pv, align 1
  %x32 = zext i8 %x to i32
  %xc = add i32 %x32, %count
  %xb = and i32 %xc, 255
  %x64 = zext i32 %xb to i64
  %slot = getelementptr inbounds [256 x i32], ptr @local, i64 0, i64 %x64
  %old = atomicrmw add ptr %slot, i32 1 monotonic, align 4
  %count.next = add i32 %count, 1
  %i.next = add nsw i32 %i, %step
  br label %head
done:
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ctaid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_nctaid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1}
!0 = !{!"rows", ptr @rows, ptr @rows, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"carry", ptr @carry, ptr @carry, i1 false, !"", i64 0, !"in.c", i32 20, !{}, i32 2, !""}
