; kernplug-barrier-fission: a load from an address that is the same in every thread is the
; same in every thread when nothing in its barrier interval may write that memory, so a
; barrier in a loop whose bound is read from memory can be split ('loaded_bound', also
; storing to another parameter in the same interval, which could only alias it in a racy
; program). A store into the same array in the interval ('same_array'), a volatile load
; ('volatile_bound') or a load from a thread-dependent address ('own_bound') keep the bound
; divergent, and the kernel its fibers.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -disable-output %s 2>&1 | FileCheck %s

; CHECK-DAG: remark: {{.*}}kernplug: kernel 'loaded_bound': barriers split into 2 regions on the CPU
; CHECK-DAG: remark: {{.*}}kernplug: kernel 'same_array': barriers kept on fibers on the CPU: syncthreads() under a branch that depends on the thread
; CHECK-DAG: remark: {{.*}}kernplug: kernel 'volatile_bound': barriers kept on fibers on the CPU: syncthreads() under a branch that depends on the thread
; CHECK-DAG: remark: {{.*}}kernplug: kernel 'own_bound': barriers kept on fibers on the CPU: syncthreads() under a branch that depends on the thread

define void @loaded_bound(ptr %params, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %n = load i32, ptr %params, align 4
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  call void @kp_dev_syncthreads()
  %i.next = add i32 %i, 1
  br label %head
exit:
  %slot = getelementptr inbounds i32, ptr %out, i32 %t
  store i32 %i, ptr %slot, align 4
  ret void
}

define void @same_array(ptr %params) {
entry:
  %t = call i32 @kp_dev_tid_x()
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %n = load i32, ptr %params, align 4
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  call void @kp_dev_syncthreads()
  %i.next = add i32 %i, 1
  br label %head
exit:
  %slot = getelementptr inbounds i32, ptr %params, i32 %t
  store i32 %i, ptr %slot, align 4
  ret void
}

define void @volatile_bound(ptr %params) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %n = load volatile i32, ptr %params, align 4
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  call void @kp_dev_syncthreads()
  %i.next = add i32 %i, 1
  br label %head
exit:
  ret void
}

define void @own_bound(ptr %params) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %p = getelementptr inbounds i32, ptr %params, i32 %t
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %n = load i32, ptr %p, align 4
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  call void @kp_dev_syncthreads()
  %i.next = add i32 %i, 1
  br label %head
exit:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2, !3}
!0 = !{!"loaded_bound", ptr @loaded_bound, ptr @loaded_bound, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"same_array", ptr @same_array, ptr @same_array, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"volatile_bound", ptr @volatile_bound, ptr @volatile_bound, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
!3 = !{!"own_bound", ptr @own_bound, ptr @own_bound, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 2, !""}
