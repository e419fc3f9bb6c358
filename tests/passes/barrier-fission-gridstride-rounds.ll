; kernplug-barrier-fission with grid-stride loops (GridStrideRounds.cpp): a grid-stride loop
; between barriers whose only shared-memory accesses are relaxed commutative atomics with
; unused results runs in rounds of the block's threads, round k doing iteration k of every
; thread: for `i = X + threadIdx.x` with a signed counter, by a block counter k tested
; (X + k * step < n) after a plain barrier, with i recomputed per thread after it and a
; prefetch of what the thread reads rounds later; with an unsigned counter, by a block vote
; (syncthreads_or) of the threads' own tests. A used atomic result or a plain store to shared
; memory keeps the loop thread by thread; a loop under a branch on the thread cannot have its
; rounds split, and the split of the kernel as it is is kept. A remark says which.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'hist': 1 grid-stride loop runs in rounds of the block's threads in the barrier split (threads innermost; counted by the block, the index in 64 bits (not one loop per row: it uses a value that differs between the block's threads))
; REMARK: kernel 'hist': barriers split into 4 regions on the CPU
; REMARK: kernel 'used': grid-stride loop kept thread by thread in the barrier split (the result of an atomic on shared memory is used)
; REMARK: kernel 'used': barriers split into 3 regions on the CPU
; REMARK: kernel 'plain': grid-stride loop kept thread by thread in the barrier split (it has a plain store to shared memory)
; REMARK: kernel 'under_branch': grid-stride loop kept thread by thread in the barrier split (the split of the rounds failed: syncthreads() under a branch that depends on the thread)
; REMARK: kernel 'under_branch': barriers split into 3 regions on the CPU
; REMARK: kernel 'hist_unsigned': 1 grid-stride loop runs in rounds of the block's threads in the barrier split (threads innermost; a vote of the threads each round)
; REMARK: kernel 'hist_last': 1 grid-stride loop runs in rounds of the block's threads in the barrier split (threads innermost; a vote of the threads each round)

; The signed loop: k is the only value saved (one for the block), the test uses the lowest
; start, i is recomputed after the barrier, and the body prefetches 16 rounds ahead.
; CHECK-LABEL: define internal void @hist.kp.cpu_block(
; CHECK: %gs.k.saved.threads = alloca i64
; CHECK-NOT: saved.threads = alloca
; CHECK: %gs.k = phi i64 [ 0,
; CHECK: %gs.lowest = select i1 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 -2147483648
; CHECK: %gs.kstep = mul nsw i64 %gs.k.restored
; CHECK: head.gs.round:
; CHECK: %gs.i.wide = add nsw i64 %gs.kstep
; CHECK: icmp slt i64 %gs.i.wide
; CHECK: %gs.k.next{{[0-9]*}} = add i64 %gs.k.restored, 1
; The body indexes with the 64-bit i itself, not the sign extension of its truncation, and
; prefetches from it.
; CHECK: body:
; CHECK-NOT: sext
; CHECK: getelementptr i8, ptr %{{[0-9]+}}, i64 %gs.i.wide
; CHECK-NEXT: getelementptr i8
; CHECK-NEXT: call void @llvm.prefetch.p0(
; CHECK-NEXT: %pv = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 %gs.i.wide
; CHECK-NOT: sext
; CHECK: atomicrmw add ptr %slot, i32 1 monotonic
; CHECK-NOT: sext
; CHECK: br label %head.gs.next
; CHECK-LABEL: define internal void @used.kp.cpu_block(
; CHECK-NOT: gs.k
; CHECK-NOT: kp.vote.loop:
; CHECK-LABEL: define internal void @plain.kp.cpu_block(
; CHECK-NOT: gs.k
; CHECK-NOT: kp.vote.loop:
; CHECK-LABEL: define internal void @under_branch.kp.cpu_block(
; CHECK-NOT: gs.k
; CHECK-NOT: kp.vote.loop:
; The unsigned loop votes each round; a thread whose test failed waits with its i.
; CHECK-LABEL: define internal void @hist_unsigned.kp.cpu_block(
; CHECK: kp.vote.loop:
; CHECK: head.gs.round:
; CHECK: atomicrmw add ptr %slot, i32 1 monotonic
; The counter is used after the loop: the block counter would recompute it where the exit
; does not see it, so the rounds vote (the thread keeps its i).
; CHECK-LABEL: define internal void @hist_last.kp.cpu_block(
; CHECK-NOT: gs.k
; CHECK: kp.vote.loop:
; CHECK: head.gs.round:
; CHECK: atomicrmw add ptr %slot, i32 1 monotonic

@local = internal global [256 x i32] undef, align 16
@.str = private unnamed_addr constant [16 x i8] c"kernplug.shared\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"in.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @local, ptr @.str, ptr @.str.1, i32 1, ptr null }], section "llvm.metadata"

; for (i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i] ^ threadIdx.x], 1), between
; barriers (the body reads the thread's index: not one loop per row, see
; barrier-fission-gridstride-rows.ll).
define void @hist(ptr %v, i32 %n, ptr %bins) {
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
  %x32 = zext i8 %x to i32
  %xt = xor i32 %x32, %t
  %xb = and i32 %xt, 255
  %x64 = zext i32 %xb to i64
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

; The atomic's result is used (a slot per element): kept thread by thread.
define void @used(ptr %v, i32 %n, ptr %out) {
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
  %old = atomicrmw add ptr @local, i32 1 monotonic, align 4
  %o64 = zext i32 %old to i64
  %po = getelementptr inbounds i32, ptr %out, i64 %o64
  store i32 %i, ptr %po, align 4
  %i.next = add nsw i32 %i, %step
  br label %head
done:
  call void @kp_dev_syncthreads()
  ret void
}

; A plain store to shared memory in the loop: kept thread by thread.
define void @plain(ptr %v, i32 %n) {
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
  store i32 %i, ptr %slot, align 4
  %i.next = add nsw i32 %i, %step
  br label %head
done:
  call void @kp_dev_syncthreads()
  ret void
}

; The loop is under a branch on the thread: the votes cannot be proved uniform, so the
; split is built from the kernel as it is.
define void @under_branch(ptr %v, i32 %n) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %b = call i32 @kp_dev_ctaid_x()
  %bd = call i32 @kp_dev_ntid_x()
  %g = call i32 @kp_dev_nctaid_x()
  call void @kp_dev_syncthreads()
  %bb = mul i32 %b, %bd
  %start = add i32 %bb, %t
  %step = mul i32 %g, %bd
  %odd = and i32 %t, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %head, label %done
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
  ret void
}

; The same loop on an unsigned counter (no nsw: it may wrap): the rounds vote.
define void @hist_unsigned(ptr %v, i32 %n, ptr %bins) {
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
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %i64 = zext i32 %i to i64
  %pv = getelementptr inbounds i8, ptr %v, i64 %i64
  %x = load i8, ptr %pv, align 1
  %x64 = zext i8 %x to i64
  %slot = getelementptr inbounds [256 x i32], ptr @local, i64 0, i64 %x64
  %old = atomicrmw add ptr %slot, i32 1 monotonic, align 4
  %i.next = add i32 %i, %step
  br label %head
done:
  call void @kp_dev_syncthreads()
  ret void
}

; The signed loop, and each thread stores the first i past the end after it.
define void @hist_last(ptr %v, i32 %n, ptr %out) {
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
  %o = getelementptr inbounds i32, ptr %out, i64 %t64
  store i32 %i, ptr %o, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ctaid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_nctaid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2, !3, !4, !5}
!0 = !{!"hist", ptr @hist, ptr @hist, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"used", ptr @used, ptr @used, i1 false, !"", i64 0, !"in.c", i32 20, !{}, i32 2, !""}
!2 = !{!"plain", ptr @plain, ptr @plain, i1 false, !"", i64 0, !"in.c", i32 40, !{}, i32 2, !""}
!3 = !{!"under_branch", ptr @under_branch, ptr @under_branch, i1 false, !"", i64 0, !"in.c", i32 60, !{}, i32 2, !""}
!4 = !{!"hist_unsigned", ptr @hist_unsigned, ptr @hist_unsigned, i1 false, !"", i64 0, !"in.c", i32 80, !{}, i32 2, !""}
!5 = !{!"hist_last", ptr @hist_last, ptr @hist_last, i1 false, !"", i64 0, !"in.c", i32 100, !{}, i32 2, !""}
