; kernplug-split and kernplug-split-names (split mode, for kernplug-gcc.so): only the kernel
; side stays. The descriptors' host functions are the roots: an external one keeps its name,
; a static one becomes hidden __kp.<id>.<name> (id 0 alone under opt); the user's
; constructor, destructor, llvm.used entries and module asm go; main, host-only code and data
; go; what the roots and the registration reach stays, internal, with every local symbol
; prefixed kp.<id>.; `constant` variables become declarations of the other compiler's
; definitions (a static one as hidden __kp.<id>.<name>), without their debug info, and the
; constants table names them.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-host-stubs,kernplug-split,kernplug-split-names -S %s | FileCheck %s --implicit-check-not=@main --implicit-check-not=@user_ctor --implicit-check-not=@user_dtor --implicit-check-not=@host_only --implicit-check-not=@counter --implicit-check-not=llvm.used --implicit-check-not="module asm"

; CHECK: @kp.0.table = internal constant
; CHECK-NEXT: @taps = external global [4 x float], align 4{{$}}
; CHECK-NEXT: @__kp.0.bias = external hidden global i32, align 4{{$}}
; CHECK: @kp.0.__kp_kernels = internal global {{.*}} ptr @ext_k, {{.*}} ptr @__kp.0.static_k,
; CHECK-DAG: @llvm.global_dtors = appending global [1 x {{.*}}] [{{.*}} ptr @kp.0.__kp_unregister,
; CHECK-DAG: @llvm.global_ctors = appending global [1 x {{.*}}] [{{.*}} ptr @kp.0.__kp_register,
; CHECK-DAG: define void @ext_k(ptr %0, i32 %1)
; CHECK-DAG: define hidden void @__kp.0.static_k(ptr %0, i32 %1)
; CHECK-DAG: define internal float @kp.0.helper(
; CHECK-DAG: define internal float @kp.0.static_helper(
; CHECK-DAG: define internal void @kp.0.__kp_register()
; CHECK-DAG: @kp.0.__kp_constants = internal constant [2 x {{.*}}] [{{.*}} ptr @taps, i64 16, {{.*}} ptr @__kp.0.bias, i64 4,
; CHECK-DAG: !DICompileUnit({{.*}}globals: ![[GLOBALS:[0-9]+]]
; CHECK-DAG: ![[GLOBALS]] = !{![[HOSTVAR:[0-9]+]]}
; CHECK-DAG: ![[HOSTVAR]] = !DIGlobalVariableExpression(var: ![[HOSTVARVAR:[0-9]+]],
; CHECK-DAG: ![[HOSTVARVAR]] = distinct !DIGlobalVariable(name: "host_var"

module asm ".globl user_asm_symbol"

@.str = private unnamed_addr constant [16 x i8] c"kernplug.kernel\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"in.c\00", section "llvm.metadata"
@.str.2 = private unnamed_addr constant [18 x i8] c"kernplug.constant\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @ext_k, ptr @.str, ptr @.str.1, i32 2, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @static_k, ptr @.str, ptr @.str.1, i32 9, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @taps, ptr @.str.2, ptr @.str.1, i32 20, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @bias, ptr @.str.2, ptr @.str.1, i32 21, ptr null }], section "llvm.metadata"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @user_ctor, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @user_dtor, ptr null }]
@llvm.used = appending global [1 x ptr] [ptr @host_only], section "llvm.metadata"
@table = constant [2 x float] [float 1.0, float 2.0]
@counter = global i32 0
@taps = global [4 x float] zeroinitializer, align 4, !dbg !20
@bias = internal global i32 7, align 4, !dbg !22
@host_var = global i32 3, align 4, !dbg !24

define void @ext_k(ptr %x, i32 %n) {
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %p, align 4
  %h = call float @helper(float %v)
  %t0 = load float, ptr @taps, align 4
  %s = fadd float %h, %t0
  store float %s, ptr %p, align 4
  ret void
}

define internal void @static_k(ptr %x, i32 %n) {
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %p, align 4
  %h = call float @static_helper(float %v)
  %b = load i32, ptr @bias, align 4
  %bf = sitofp i32 %b to float
  %s = fadd float %h, %bf
  store float %s, ptr %p, align 4
  ret void
}

define float @helper(float %x) noinline {
  %t = load float, ptr getelementptr inbounds ([2 x float], ptr @table, i64 0, i64 1), align 4
  %r = fadd float %x, %t
  ret float %r
}

define internal float @static_helper(float %x) noinline {
  %r = fmul float %x, 2.0
  ret float %r
}

define internal void @user_ctor() {
  store i32 1, ptr @counter, align 4
  ret void
}

define internal void @user_dtor() {
  store i32 2, ptr @counter, align 4
  ret void
}

define void @host_only() {
  %c = load i32, ptr @counter, align 4
  %hv = load i32, ptr @host_var, align 4
  ret void
}

define i32 @main() {
  call void @host_only()
  %h = call float @helper(float 1.0)
  call void @static_k(ptr null, i32 0)
  ret i32 0
}

declare i32 @kp_dev_tid_x()

!llvm.dbg.cu = !{!12}
!llvm.module.flags = !{!19}
!kernplug.main_file = !{!0}
!kernplug.functions = !{!1, !2}
!kernplug.kernels = !{!7, !8}
!0 = !{!"in.c"}
!1 = !{!"ext_k", i32 0, !"in.c", i32 2, !3, !6, !{}}
!2 = !{!"static_k", i32 0, !"in.c", i32 9, !3, !6, !{}}
!3 = !{!4, !5}
!4 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!5 = !{!"n", i32 0, i1 false, i1 true, i1 false, i64 4, i64 4, i64 0}
!6 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
!7 = !{!"ext_k", ptr @ext_k, ptr @ext_k, i1 false, !"", i64 0, !"in.c", i32 2, !9}
!8 = !{!"static_k", ptr @static_k, ptr @static_k, i1 false, !"", i64 0, !"in.c", i32 9, !9}
!9 = !{!10, !11}
!10 = !{!"x", i64 1, i64 0, i64 8, i64 4}
!11 = !{!"n", i64 0, i64 0, i64 4, i64 0}
!12 = distinct !DICompileUnit(language: DW_LANG_C11, file: !13, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !14)
!13 = !DIFile(filename: "in.c", directory: "/")
!14 = !{!20, !22, !24}
!15 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!16 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!17 = !DICompositeType(tag: DW_TAG_array_type, baseType: !15, size: 128, elements: !18)
!18 = !{!DISubrange(count: 4)}
!19 = !{i32 2, !"Debug Info Version", i32 3}
!20 = !DIGlobalVariableExpression(var: !21, expr: !DIExpression())
!21 = distinct !DIGlobalVariable(name: "taps", scope: !12, file: !13, line: 20, type: !17, isLocal: false, isDefinition: true)
!22 = !DIGlobalVariableExpression(var: !23, expr: !DIExpression())
!23 = distinct !DIGlobalVariable(name: "bias", scope: !12, file: !13, line: 21, type: !16, isLocal: true, isDefinition: true)
!24 = !DIGlobalVariableExpression(var: !25, expr: !DIExpression())
!25 = distinct !DIGlobalVariable(name: "host_var", scope: !12, file: !13, line: 22, type: !16, isLocal: false, isDefinition: true)
