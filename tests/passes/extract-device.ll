; kernplug-extract-device: what the kernels reach is cloned into the device module and
; compiled on the device job's thread; the kernel's flags say what it uses. The rest of the
; chain (host-stubs, finish) puts the PTX the job made into the host module.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-collect-kernels,kernplug-extract-device -S %s | FileCheck %s --check-prefix=FLAGS
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-collect-kernels,kernplug-extract-device,kernplug-host-stubs,kernplug-finish -S %s | FileCheck %s --check-prefix=PTX

; KP_KERNEL_USES_BARRIER (1)
; FLAGS: !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 1, !"in.c", i32 6,

; PTX: @__kp_ptx = private constant {{.*}}.visible .entry tile({{.*}}bar.sync{{.*}}section ".kp_ptx"

@tile.s = internal global [64 x float] undef, align 16
@.str = private unnamed_addr constant [16 x i8] c"kernplug.shared\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"in.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @tile.s, ptr @.str, ptr @.str.1, i32 7, ptr null }], section "llvm.metadata"

define void @tile(ptr %x) {
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %src = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %src, align 4
  %dst = getelementptr inbounds [64 x float], ptr @tile.s, i64 0, i64 %i
  store float %v, ptr %dst, align 4
  call void @kp_dev_syncthreads()
  %r = sub i64 63, %i
  %other = getelementptr inbounds [64 x float], ptr @tile.s, i64 0, i64 %r
  %w = load float, ptr %other, align 4
  store float %w, ptr %src, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent

!kernplug.main_file = !{!0}
!kernplug.functions = !{!1}
!0 = !{!"in.c"}
!1 = !{!"tile", i32 0, !"in.c", i32 6, !{!2}, !3, !{}}
!2 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!3 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
