; kernplug-extract-device with device code across files: a `device` function this file
; exports (!kernplug.device_exports) stays external (.visible .func) in the PTX even with no
; kernel here, and a call of one another file defines (!kernplug.device_imports) stays a
; declaration (.extern .func), which the runtime's device link resolves. Static helpers stay
; internal. With ptxas, a module that imports gets relocatable cubins (ptxas -c).
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-collect-kernels,kernplug-extract-device,kernplug-host-stubs,kernplug-finish -S %s | FileCheck %s

; CHECK: @__kp_ptx = private constant
; CHECK-SAME: .extern .func  (.param .b32 func_retval0) physics
; CHECK-SAME: .visible .func  (.param .b32 func_retval0) exported
; CHECK-NOT: .visible .func {{.*}}square
; CHECK-SAME: .visible .entry k(

define float @exported(float %x) {
  %s = call float @square(float %x)
  ret float %s
}

define internal float @square(float %x) noinline {
  %m = fmul float %x, %x
  ret float %m
}

define void @k(ptr %x) {
  %v = load float, ptr %x
  %p = call float @physics(float %v)
  %e = call float @exported(float %p)
  store float %e, ptr %x
  ret void
}

declare float @physics(float)

!kernplug.main_file = !{!0}
!kernplug.functions = !{!1}
!kernplug.device_exports = !{!4}
!kernplug.device_imports = !{!5}
!0 = !{!"in.c"}
!1 = !{!"k", i32 0, !"in.c", i32 12, !{!2}, !3, !{}}
!2 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!3 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
!4 = !{!"exported"}
!5 = !{!"physics"}
