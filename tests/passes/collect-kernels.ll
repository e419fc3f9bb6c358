; kernplug-collect-kernels: the kernels !kernplug.functions names (role 0) and the module
; defines are recorded in !kernplug.kernels with their parameter tables.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-collect-kernels -S %s | FileCheck %s

; CHECK: !kernplug.kernels = !{![[K:[0-9]+]]}
; CHECK: ![[K]] = !{!"scale", ptr @scale, ptr @scale, i1 false, !"", i64 0, !"in.c", i32 2, ![[PARAMS:[0-9]+]]}
; CHECK: ![[PARAMS]] = !{![[X:[0-9]+]], ![[A:[0-9]+]], ![[N:[0-9]+]]}
; The pointer: KP_PARAM_POINTER (1), 8 bytes, 4-byte elements.
; CHECK: ![[X]] = !{!"x", i64 1, i64 0, i64 8, i64 4}
; The float by value: KP_PARAM_VALUE (0), flags KP_PARAM_FLOAT (2), 4 bytes.
; CHECK: ![[A]] = !{!"a", i64 0, i64 2, i64 4, i64 0}

define void @scale(ptr %x, float %a, i32 %n) {
  ret void
}

; Declared only (defined in another file): not this module's kernel.
declare void @elsewhere(ptr)

!kernplug.main_file = !{!0}
!kernplug.functions = !{!1, !7}
!0 = !{!"in.c"}
!1 = !{!"scale", i32 0, !"in.c", i32 2, !2, !6, !{}}
!2 = !{!3, !4, !5}
!3 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!4 = !{!"a", i32 0, i1 false, i1 false, i1 true, i64 4, i64 4, i64 0}
!5 = !{!"n", i32 0, i1 false, i1 true, i1 false, i64 4, i64 4, i64 0}
!6 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
!7 = !{!"elsewhere", i32 0, !"in.c", i32 9, !{!3}, !6, !{}}
