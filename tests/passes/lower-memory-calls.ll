; kernplug-lower-memory-calls (device module): memset/memcpy/memmove calls become LLVM's
; intrinsics, which NVPTX expands (the GPU has no C library to call).
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-lower-memory-calls -S %s | FileCheck %s

; CHECK: call i32 (ptr, ...) @printf(
; CHECK: call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 16, i1 false)
; CHECK-NOT: call ptr @memset(

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
