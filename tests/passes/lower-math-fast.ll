; kernplug-lower-math under -ffast-math (nvcc's --use_fast_math): float calls and intrinsics
; with the approximate-functions flag become libdevice's fast versions, float divisions with
; afn and arcp become __nv_fast_fdividef, and sqrt __nv_sqrtf (sqrt.approx once libdevice's
; __CUDA_PREC_SQRT is answered 0); calls without the flag, double functions and the
; kernplug/cuda_math.h functions (kp_rsqrtf, kp_fast_sinf) map as usual.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-lower-math -S %s | FileCheck %s

; CHECK-LABEL: define float @k(
; CHECK: %e = call fast float @__nv_fast_expf(float %x)
; CHECK: %s = call afn float @__nv_fast_sinf(float %e)
; CHECK: %l = call fast float @__nv_fast_log2f(float %s)
; CHECK: %p = call fast float @__nv_fast_powf(float %l, float %x)
; CHECK: %q = call fast float @__nv_sqrtf(float %p)
; CHECK: %precise = call float @__nv_expf(float %q)
; CHECK: %d = call fast double @__nv_exp(double %xd)
; CHECK: %div = call fast float @__nv_fast_fdividef(float %precise, float %x)
; CHECK: %exact = fdiv float %div, %x
; CHECK: %r = call float @__nv_rsqrtf(float %exact)
; CHECK: %f = call float @__nv_fast_sinf(float %r)
; CHECK-NOT: @llvm.exp.f32(
; CHECK-NOT: @sinf(

target triple = "nvptx64-nvidia-cuda"

define float @k(float %x, double %xd) {
  %e = call fast float @llvm.exp.f32(float %x)
  %s = call afn float @sinf(float %e)
  %l = call fast float @llvm.log2.f32(float %s)
  %p = call fast float @llvm.pow.f32(float %l, float %x)
  %q = call fast float @llvm.sqrt.f32(float %p)
  %precise = call float @llvm.exp.f32(float %q)
  %d = call fast double @llvm.exp.f64(double %xd)
  %div = fdiv fast float %precise, %x
  %exact = fdiv float %div, %x
  %r = call float @kp_rsqrtf(float %exact)
  %f = call float @kp_fast_sinf(float %r)
  ret float %f
}

declare float @llvm.exp.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.pow.f32(float, float)
declare float @llvm.sqrt.f32(float)
declare double @llvm.exp.f64(double)
declare float @sinf(float)
declare float @kp_rsqrtf(float)
declare float @kp_fast_sinf(float)
