; kernplug-strip-host-instrumentation (device module): the GPU has no UBSan runtime, so a
; handler call becomes one printf per call site (guarded by a flag, with the check's
; file:line:col) and a trap for the _abort handlers; llvm.ubsantrap becomes llvm.trap;
; profiling hooks and ASan's no-return call go, and so do the sanitizer attributes.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-strip-host-instrumentation -S %s | FileCheck %s

; CHECK: @kp.ubsan.msg = private unnamed_addr constant [70 x i8] c"k.c:7:12: runtime error in device code: integer overflow in addition\0A\00"
; CHECK: @kp.ubsan.reported = internal addrspace(1) global i32 0
; CHECK-LABEL: define i32 @k(i32 %a, i32 %b) {
; CHECK: %[[OLD:[0-9]+]] = atomicrmw xchg ptr addrspace(1) @kp.ubsan.reported, i32 1 monotonic
; CHECK: icmp eq i32 %[[OLD]], 0
; CHECK: call i32 @vprintf(ptr @kp.ubsan.msg, ptr null)
; CHECK: call void @llvm.trap()
; CHECK-NOT: __ubsan_handle
; CHECK-NOT: __cyg_profile_func_enter
; CHECK-NOT: __asan_handle_no_return
; CHECK-LABEL: define void @t() {
; CHECK-NEXT: call void @llvm.trap()
; CHECK-NOT: sanitize_address

@file = private constant [4 x i8] c"k.c\00"
@data = private global { { ptr, i32, i32 }, ptr } { { ptr, i32, i32 } { ptr @file, i32 7, i32 12 }, ptr null }

define i32 @k(i32 %a, i32 %b) sanitize_address {
entry:
  call void @__cyg_profile_func_enter(ptr @k, ptr null)
  %r = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %b)
  %o = extractvalue { i32, i1 } %r, 1
  br i1 %o, label %bad, label %ok
bad:
  call void @__asan_handle_no_return()
  call void @__ubsan_handle_add_overflow_abort(ptr @data, i64 0, i64 0)
  unreachable
ok:
  %s = extractvalue { i32, i1 } %r, 0
  ret i32 %s
}

define void @t() {
  call void @llvm.ubsantrap(i8 0)
  ret void
}

declare void @__cyg_profile_func_enter(ptr, ptr)
declare void @__asan_handle_no_return()
declare void @__ubsan_handle_add_overflow_abort(ptr, i64, i64) noreturn
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare void @llvm.ubsantrap(i8)
