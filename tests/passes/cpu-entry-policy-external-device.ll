; kernplug-cpu-entry-policy: a kernel that calls a `device` function of another file
; (!kernplug.device_imports) runs on fibers on the CPU, with the barrier and warp flags the
; runtime's fibers need, whatever its own code reaches: that function's barriers and index
; reads are out of sight. A kernel calling only a plain declaration (libm) keeps its block loop.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-entry-policy -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: %opt -load-pass-plugin %kernplug_passes -passes='print<kernplug-call-graph>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=GRAPH

; CHECK: !{!"uses_physics", ptr @uses_physics, ptr @uses_physics, i1 false, !"", i64 3, !"in.c", i32 1, !{{[0-9]+}}, i32 3, !"it calls a device function of another file, whose barriers and indices only fibers serve"}
; CHECK: !{!"through_helper", ptr @through_helper, ptr @through_helper, i1 false, !"", i64 3, !"in.c", i32 2, !{{[0-9]+}}, i32 3, !"it calls a device function of another file
; CHECK: !{!"uses_libm", ptr @uses_libm, ptr @uses_libm, i1 false, !"", i64 0, !"in.c", i32 3, !{{[0-9]+}}, i32 1, !""}

; REMARK: remark: {{.*}}kernplug: kernel 'uses_physics': CPU entry = fibers: it calls a device function of another file
; REMARK: remark: {{.*}}kernplug: kernel 'through_helper': CPU entry = fibers: it calls a device function of another file
; REMARK: remark: {{.*}}kernplug: kernel 'uses_libm': CPU entry = block loop

; GRAPH: kernel uses_physics: external-device
; GRAPH: kernel through_helper: external-device
; GRAPH: kernel uses_libm:
; GRAPH-NOT: external-device
; GRAPH: function helper: external-device

define void @uses_physics(ptr %x) {
  %v = load float, ptr %x
  %f = call float @physics(float %v)
  store float %f, ptr %x
  ret void
}

define void @through_helper(ptr %x) {
  call void @helper(ptr %x)
  ret void
}

define void @uses_libm(ptr %x) {
  %v = load float, ptr %x
  %f = call float @expf(float %v)
  store float %f, ptr %x
  ret void
}

define internal void @helper(ptr %x) {
  %f = call float @physics(float 1.0)
  store float %f, ptr %x
  ret void
}

declare float @physics(float)
declare float @expf(float)

!kernplug.device_imports = !{!4}
!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"uses_physics", ptr @uses_physics, ptr @uses_physics, i1 false, !"", i64 0, !"in.c", i32 1, !{}}
!1 = !{!"through_helper", ptr @through_helper, ptr @through_helper, i1 false, !"", i64 0, !"in.c", i32 2, !{}}
!2 = !{!"uses_libm", ptr @uses_libm, ptr @uses_libm, i1 false, !"", i64 0, !"in.c", i32 3, !{}}
!4 = !{!"physics"}
