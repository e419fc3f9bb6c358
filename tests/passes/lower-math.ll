; kernplug-lower-math (device module): C math calls and LLVM's math intrinsics become
; libdevice's __nv_* functions.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-lower-math -S %s | FileCheck %s

; CHECK: %s = call float @__nv_sinf(float %x)
; CHECK: %e = call float @__nv_expf(float %s)
; CHECK-NOT: @sinf(
; CHECK-NOT: @llvm.exp.f32(

target triple = "nvptx64-nvidia-cuda"

@fmt = private constant [6 x i8] c"%d %f\00"

define void @k(i32 %i, double %d, ptr %p, float %x) {
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %i, double %d)
  %m = call ptr @memset(ptr %p, i32 0, i64 16)
  %s = call float @sinf(float %x)
  %e = call float @llvm.exp.f32(float %s)
  store float %e, ptr %p
  ret void
}

declare i32 @printf(ptr, ...)
declare ptr @memset(ptr, i32, i64)
declare float @sinf(float)
declare float @llvm.exp.f32(float)
