; kernplug-call-graph (module analysis): the functions the recorded kernels reach through
; direct calls, kernels first, and what each reaches: a barrier, a warp collective, an index
; read, an indirect call.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='print<kernplug-call-graph>' -disable-output %s | FileCheck %s

; CHECK:      kernel tile: barrier index
; CHECK-NEXT: kernel plain: index indirect-call
; CHECK-NEXT: function sync_helper: barrier
; CHECK-NEXT: function recursive: barrier index
; CHECK-NEXT: function caller: indirect-call
; CHECK-NOT:  unrelated

define void @tile(ptr %x) {
  call void @sync_helper()
  call void @recursive(i32 3)
  ret void
}

define void @plain(ptr %x, ptr %f) {
  %t = call i32 @kp_dev_tid_x()
  call void @caller(ptr %f)
  ret void
}

define internal void @sync_helper() {
  call void @kp_dev_syncthreads()
  ret void
}

; Reaches a barrier only through itself and sync_helper; its index read is its own.
define internal void @recursive(i32 %n) {
  %t = call i32 @kp_dev_tid_x()
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %again
again:
  %m = sub i32 %n, 1
  call void @recursive(i32 %m)
  call void @sync_helper()
  br label %done
done:
  ret void
}

define internal void @caller(ptr %f) {
  call void %f()
  ret void
}

define void @unrelated() {
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x()
declare void @kp_dev_syncthreads()

!kernplug.kernels = !{!0, !1}
!0 = !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 0, !"in.c", i32 1, !{}}
!1 = !{!"plain", ptr @plain, ptr @plain, i1 false, !"", i64 0, !"in.c", i32 2, !{}}
