; kernplug-widen-kernel-params (device module): ptxas rejects `.param .u24`; a kernel
; parameter x86-64 passes as i24/i40/i48/i56 (a struct of 3, 5, 6 or 7 bytes) becomes the
; 4- or 8-byte integer the host slot holds, truncated on entry. Device functions keep
; their types, and so do kernels whose parameters PTX declares.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-widen-kernel-params -S %s | FileCheck %s

; CHECK-LABEL: define ptx_kernel void @rgb(i32 %c, i64 %d, ptr %out) {
; CHECK-NEXT: %[[C:[0-9]+]] = trunc i32 %c to i24
; CHECK-NEXT: %[[D:[0-9]+]] = trunc i64 %d to i40
; CHECK-NEXT: %w = zext i24 %[[C]] to i32
; CHECK-NEXT: store i32 %w, ptr %out
; CHECK-NEXT: %v = trunc i40 %[[D]] to i32
; CHECK-LABEL: define ptx_kernel void @plain(i32 %n, i64 %m) {
; CHECK-LABEL: define void @helper(i24 %x) {

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @rgb(i24 %c, i40 %d, ptr %out) {
  %w = zext i24 %c to i32
  store i32 %w, ptr %out
  %v = trunc i40 %d to i32
  store i32 %v, ptr %out
  ret void
}

define ptx_kernel void @plain(i32 %n, i64 %m) {
  ret void
}

define void @helper(i24 %x) {
  ret void
}
