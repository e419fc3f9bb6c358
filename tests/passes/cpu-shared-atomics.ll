; kernplug-cpu-shared-atomics: atomics whose address is provably the worker's shared memory (a
; global host-stubs marked !kernplug.cpu_shared, the dynamic shared buffer, what GEPs, casts,
; phis and selects of only those, and parameters of local functions called only with them,
; derive) become plain loads and stores on the CPU, with llvm.sideeffect so that a loop waiting
; on one still never ends; everything else keeps its atomic. A remark per function.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-shared-atomics -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: remark: {{.*}}kernplug: 5 atomics on shared memory in 'hist' are plain loads and stores on the CPU backend
; REMARK: remark: {{.*}}kernplug: 1 atomic on shared memory in 'helper_shared' is a plain load and store
; REMARK-NOT: 'helper_mixed'
; REMARK: remark: {{.*}}kernplug: 1 atomic on shared memory in 'split' is a plain load and store
; REMARK-NOT: 'not_shared'

@h = internal thread_local global [64 x i32] zeroinitializer, align 16, !kernplug.cpu_shared !0
@g = global [64 x i32] zeroinitializer, align 16
@tls = thread_local global i32 0

; CHECK-LABEL: define void @hist(
define void @hist(i32 %b, i1 %c, ptr %global) {
; A shared array's element, directly and through llvm.threadlocal.address.
; CHECK: %p = getelementptr inbounds [64 x i32], ptr @h, i32 0, i32 %b
; CHECK-NEXT: call void @llvm.sideeffect()
; CHECK-NEXT: [[OLD:%.*]] = load i32, ptr %p, align 4, !kernplug.shared_rmw ![[TAG:[0-9]+]]
; CHECK-NEXT: [[NEW:%.*]] = add i32 [[OLD]], 1
; CHECK-NEXT: store i32 [[NEW]], ptr %p, align 4, !kernplug.shared_rmw ![[TAG]]
  %p = getelementptr inbounds [64 x i32], ptr @h, i32 0, i32 %b
  %old = atomicrmw add ptr %p, i32 1 monotonic, align 4
; CHECK: %tp = call ptr @llvm.threadlocal.address.p0(ptr @h)
; CHECK-NOT: atomicrmw
; CHECK: store i32
  %tp = call ptr @llvm.threadlocal.address.p0(ptr @h)
  %tq = getelementptr i8, ptr %tp, i64 8
  %x = atomicrmw xchg ptr %tq, i32 %old seq_cst, align 4
; The dynamic shared buffer, through a select of two shared pointers: cmpxchg.
; CHECK: %dyn = call ptr @kp_dev_dynamic_shared()
; CHECK-NOT: cmpxchg ptr %sel
; CHECK: [[CX:%.*]] = load i32, ptr %sel
; CHECK-NEXT: [[EQ:%.*]] = icmp eq i32 [[CX]], 0
; CHECK-NEXT: [[SEL:%.*]] = select i1 [[EQ]], i32 %{{[0-9]+}}, i32 [[CX]]
; CHECK-NEXT: store i32 [[SEL]], ptr %sel
  %dyn = call ptr @kp_dev_dynamic_shared()
  %sel = select i1 %c, ptr %dyn, ptr %p
  %pair = cmpxchg ptr %sel, i32 0, i32 %x monotonic monotonic, align 4
; atomic_inc's primitive: CUDA's wrap-around, LLVM's uinc_wrap.
; CHECK-NOT: call i32 @kp_dev_atomic_inc_u32(ptr %dyn
; CHECK: [[I:%.*]] = load i32, ptr %dyn, align 4
; CHECK: icmp uge i32 [[I]], 6
  %inc = call i32 @kp_dev_atomic_inc_u32(ptr %dyn, i32 6)
; A helper that only ever gets shared memory.
  call void @helper_shared(ptr %p)
  call void @helper_shared(ptr %dyn)
; Kept: a global array, a phi with a global input, a volatile access, a plain thread-local.
; CHECK: atomicrmw add ptr %gp, i32 1 monotonic
; CHECK: atomicrmw add ptr %phi, i32 1 monotonic
; CHECK: atomicrmw volatile add ptr %p, i32 1 monotonic
; CHECK: atomicrmw add ptr @tls, i32 1 monotonic
  %gp = getelementptr inbounds [64 x i32], ptr @g, i32 0, i32 %b
  %k0 = atomicrmw add ptr %gp, i32 1 monotonic, align 4
  br i1 %c, label %a, label %join
a:
  br label %join
join:
  %phi = phi ptr [ %p, %0 ], [ %global, %a ]
  %k1 = atomicrmw add ptr %phi, i32 1 monotonic, align 4
  %k2 = atomicrmw volatile add ptr %p, i32 1 monotonic, align 4
  %k3 = atomicrmw add ptr @tls, i32 1 monotonic, align 4
; A shared pointer in a loop: the phi's inputs are all shared.
  br label %loop
loop:
  %q = phi ptr [ %p, %join ], [ %q.next, %loop ]
  %r = atomicrmw fadd ptr %q, float 1.0 monotonic, align 4
  %q.next = getelementptr inbounds i32, ptr %q, i64 1
  %done = fcmp ogt float %r, 10.0
  br i1 %done, label %exit, label %loop
; CHECK: loop:
; CHECK: load float, ptr %q
; CHECK: fadd float
exit:
  call void @helper_mixed(ptr %p)
  call void @helper_mixed(ptr %global)
  ret void
}

; CHECK-LABEL: define internal void @helper_shared(
; CHECK-NOT: atomicrmw
; CHECK: ret void
define internal void @helper_shared(ptr %bins) {
  %old = atomicrmw sub ptr %bins, i32 1 monotonic, align 4
  ret void
}

; Called with shared and with global memory: keeps its atomic.
; CHECK-LABEL: define internal void @helper_mixed(
; CHECK: atomicrmw add ptr %bins
define internal void @helper_mixed(ptr %bins) {
  %old = atomicrmw add ptr %bins, i32 1 monotonic, align 4
  ret void
}

; A value kept across a barrier in a local per-thread array (as barrier-fission does): the
; load gives back what was stored, all of it shared. An array whose address escapes may hold
; anything.
; CHECK-LABEL: define void @split(
; CHECK-NOT: atomicrmw add ptr %back
; CHECK: atomicrmw add ptr %other
define void @split(i64 %t, ptr %sink) {
  %slots = alloca ptr, i64 64, align 16
  %leak = alloca ptr, i64 64, align 16
  %dyn = call ptr @kp_dev_dynamic_shared()
  %slot = getelementptr inbounds ptr, ptr %slots, i64 %t
  store ptr %dyn, ptr %slot, align 8
  %back = load ptr, ptr %slot, align 8
  %a = atomicrmw add ptr %back, i32 1 monotonic, align 4
  store ptr %dyn, ptr %leak, align 8
  call void @escape(ptr %leak)
  %other = load ptr, ptr %leak, align 8
  %b = atomicrmw add ptr %other, i32 1 monotonic, align 4
  ret void
}
declare void @escape(ptr)

; An external function may be called from anywhere: keeps its atomic.
; CHECK-LABEL: define void @not_shared(
; CHECK: atomicrmw add ptr %bins
define void @not_shared(ptr %bins) {
  %old = atomicrmw add ptr %bins, i32 1 monotonic, align 4
  ret void
}

declare ptr @kp_dev_dynamic_shared()
declare i32 @kp_dev_atomic_inc_u32(ptr, i32)
declare ptr @llvm.threadlocal.address.p0(ptr)

!0 = !{}
