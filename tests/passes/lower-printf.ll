; kernplug-lower-printf (device module): printf's variadic arguments are packed into a
; buffer for CUDA's vprintf; nothing else changes.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-lower-printf -S %s | FileCheck %s

; CHECK: %printf.args = alloca { i32, double }, align 8
; CHECK: store i32 %i, ptr
; CHECK: store double %d, ptr
; CHECK: call i32 @vprintf(ptr @fmt, ptr %printf.args)
; CHECK: call ptr @memset(
; CHECK: call float @sinf(
; CHECK-NOT: @printf(

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
