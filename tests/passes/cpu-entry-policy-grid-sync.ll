; kernplug-cpu-entry-policy: a kernel that reaches grid_sync() — directly or through a device
; function of the file — runs on fibers on the CPU and is flagged cooperative
; (KP_KERNEL_USES_BARRIER | KP_KERNEL_COOPERATIVE = 2049): the runtime then keeps every block
; alive at once and launches it cooperatively on a GPU. A kernel with only syncthreads() is
; not cooperative (it is split at its barrier).
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-entry-policy -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='print<kernplug-call-graph>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=GRAPH

; CHECK: !{!"rows", ptr @rows, ptr @rows, i1 false, !"", i64 2049, !"in.c", i32 1, !{{[0-9]+}}, i32 3, !"grid_sync() needs every thread of the grid alive at once"}
; CHECK: !{!"through_helper", ptr @through_helper, ptr @through_helper, i1 false, !"", i64 2049, !"in.c", i32 2, !{{[0-9]+}}, i32 3, !"grid_sync() needs
; CHECK: !{!"block_only", ptr @block_only, ptr @block_only, i1 false, !"", i64 0, !"in.c", i32 3, !{{[0-9]+}}, i32 2, !""}

; REMARK: remark: {{.*}}kernplug: kernel 'rows': CPU entry = fibers, launched cooperatively: grid_sync() needs every thread of the grid alive at once
; REMARK: remark: {{.*}}kernplug: kernel 'through_helper': CPU entry = fibers, launched cooperatively

; GRAPH: kernel rows: barrier grid-barrier index
; GRAPH: kernel through_helper: grid-barrier
; GRAPH: kernel block_only: barrier
; GRAPH-NOT: grid-barrier
; GRAPH: function helper: grid-barrier

define void @rows(ptr %x) {
  %i = call i32 @kp_dev_tid_x()
  store i32 %i, ptr %x
  call void @kp_dev_syncthreads()
  call void @kp_dev_grid_sync()
  ret void
}

define void @through_helper(ptr %x) {
  call void @helper(ptr %x)
  ret void
}

define void @block_only(ptr %x) {
  store i32 1, ptr %x
  call void @kp_dev_syncthreads()
  ret void
}

define internal void @helper(ptr %x) {
  store i32 2, ptr %x
  call void @kp_dev_grid_sync()
  ret void
}

declare i32 @kp_dev_tid_x()
declare void @kp_dev_syncthreads()
declare void @kp_dev_grid_sync()

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"rows", ptr @rows, ptr @rows, i1 false, !"", i64 0, !"in.c", i32 1, !{}}
!1 = !{!"through_helper", ptr @through_helper, ptr @through_helper, i1 false, !"", i64 0, !"in.c", i32 2, !{}}
!2 = !{!"block_only", ptr @block_only, ptr @block_only, i1 false, !"", i64 0, !"in.c", i32 3, !{}}
