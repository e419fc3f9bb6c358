; kernplug-barrier-fission: values of one type saved at different barriers share one per-thread
; array (a thread stores a value right before it crosses the barrier and reads it back right
; after, from its own element). 'tree' (the tree reduction's stride loop): v before the loop
; (saved at the first barrier) and v in it (saved at the loop's barrier) share one array, so
; that a thread that skips a stride stores v where it read it. The stride, the same in every
; thread, keeps its own array (thread 0's element is read). 'two_types': an i32 and a float
; saved at different barriers keep one array each.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'tree': {{.*}}1 values saved at other barriers than another's, in its per-thread array
; REMARK-NOT: kernel 'two_types': {{.*}}values saved at other barriers

; CHECK-LABEL: define internal void @tree.kp.cpu_block(
; CHECK: %v0.saved.threads = alloca float, i64 %kp.threads
; CHECK-NOT: alloca float, i64 %kp.threads
; CHECK: %v0.restored = load float, ptr %v0.saved{{[0-9]+}}
; CHECK: %v.next.restored = load float, ptr %v0.saved{{[0-9]+}}
; CHECK-LABEL: define internal void @two_types.kp.cpu_block(
; CHECK-DAG: %a.saved.threads = alloca i32
; CHECK-DAG: %f.saved.threads = alloca float

define void @tree(ptr %in, ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %in, i64 %i
  %v0 = load float, ptr %p, align 4
  %sp = getelementptr inbounds float, ptr %s, i64 %i
  store float %v0, ptr %sp, align 4
  call void @kp_dev_syncthreads()
  %stride0 = lshr i32 %n, 1
  br label %head
head:
  %v = phi float [ %v0, %entry ], [ %v.next, %latch ]
  %stride = phi i32 [ %stride0, %entry ], [ %stride.next, %latch ]
  %more = icmp ugt i32 %stride, 0
  br i1 %more, label %body, label %exit
body:
  %in.range = icmp ult i32 %t, %stride
  br i1 %in.range, label %add, label %sync
add:
  %j = add nuw i32 %t, %stride
  %jj = zext i32 %j to i64
  %q = getelementptr inbounds float, ptr %s, i64 %jj
  %b = load float, ptr %q, align 4
  %sum = fadd float %v, %b
  store float %sum, ptr %sp, align 4
  br label %sync
sync:
  %v.next = phi float [ %sum, %add ], [ %v, %body ]
  call void @kp_dev_syncthreads()
  br label %latch
latch:
  %stride.next = lshr i32 %stride, 1
  br label %head
exit:
  %o = getelementptr inbounds float, ptr %out, i64 %i
  store float %v, ptr %o, align 4
  ret void
}

define void @two_types(ptr %in, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %in, i64 %i
  %a = load i32, ptr %p, align 4
  call void @kp_dev_syncthreads()
  %f = sitofp i32 %a to float
  call void @kp_dev_syncthreads()
  %o = getelementptr inbounds float, ptr %out, i64 %i
  store float %f, ptr %o, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1}
!0 = !{!"tree", ptr @tree, ptr @tree, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"two_types", ptr @two_types, ptr @two_types, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
