; kernplug-cpu-checked-access (-fplugin-arg-kernplug-check): each user kernel gets a checked
; per-thread entry <k>.kp.cpu_checked(args) calling <k>.kp.checked, a clone with its helpers
; inlined and its locals promoted, where every access whose address derives from a pointer
; parameter, a `shared` array or kp_dev_dynamic_shared() is preceded by a check call; other
; addresses (a pointer loaded from memory, a value parameter) are not checked; the kernel
; itself is unchanged. With host-stubs after it, the checked entries are registered.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-checked-access -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-checked-access,kernplug-host-stubs -S %s | FileCheck %s --check-prefix=TABLE

; REMARK: remark: {{.*}}kernplug: checked entry: 6 accesses through pointer parameters and shared memory checked (KP_CHECK)

; CHECK-LABEL: define void @scale(ptr %x, ptr %table, i32 %n)
; CHECK-NOT: __kp_check
; CHECK: ret void

;; a check through a parameter compares with the launch's bounds (the extra last argument)
;; and calls the runtime's report only when it fails
; CHECK-LABEL: define internal void @scale.kp.checked(ptr %x, ptr %table, i32 %n, ptr %kp.bounds)
; CHECK-NOT: alloca
; CHECK-NOT: call void @helper
; the helper's store through x, inlined, then the parameter's own load
; CHECK: %[[P:.*]] = getelementptr inbounds float, ptr %x
; CHECK-NEXT: %[[PAIR:.*]] = getelementptr i64, ptr %kp.bounds, i64 0
; CHECK-NEXT: %kp.lo = load i64, ptr %[[PAIR]], align 8, !invariant.load
; CHECK-NEXT: %[[HIP:.*]] = getelementptr i64, ptr %[[PAIR]], i64 1
; CHECK-NEXT: %kp.hi = load i64, ptr %[[HIP]], align 8, !invariant.load
; CHECK-NEXT: %[[A:.*]] = ptrtoint ptr %[[P]] to i64
; CHECK-NEXT: %[[END:.*]] = add i64 %[[A]], 4
; CHECK-NEXT: %[[BELOW:.*]] = icmp ult i64 %[[A]], %kp.lo
; CHECK-NEXT: %[[ABOVE:.*]] = icmp ugt i64 %[[END]], %kp.hi
; CHECK: %kp.out_of_bounds = or i1
; CHECK-NEXT: br i1 %kp.out_of_bounds, label %[[FAIL:.*]], label %[[OK:.*]], !prof
; CHECK: [[FAIL]]:
; CHECK-NEXT: call void @__kp_check_param(i32 0, ptr %[[P]], i64 4, i32 1, ptr null)
; CHECK-NEXT: unreachable
; CHECK: [[OK]]:
; CHECK-NEXT: store float 1.000000e+00, ptr %[[P]]
; CHECK: call void @__kp_check_param(i32 0, ptr %xi, i64 4, i32 0, ptr null)
; CHECK: load float, ptr %xi
; a pointer loaded from table[0] is not checked, the load of table[0] is (parameter 1)
; CHECK: getelementptr i64, ptr %kp.bounds, i64 2
; CHECK: call void @__kp_check_param(i32 1, ptr %table, i64 8, i32 0, ptr null)
; CHECK: %inner = load ptr, ptr %table
; CHECK-NOT: call void @__kp_check
; CHECK: store float %v, ptr %inner
; CHECK: call void @__kp_check_shared(ptr @tile, i64 256, ptr @__kp_check_array, ptr %{{.*}}, i64 4, i32 1, ptr null)
; CHECK-NEXT: store float
; a phi of two addresses in x
; CHECK: %q = phi ptr
; CHECK: call void @__kp_check_param(i32 0, ptr %q, i64 4, i32 1, ptr null)
; CHECK: call void @__kp_check_dynamic_shared(ptr %{{.*}}, i64 8, i32 0, ptr null)
; CHECK-NEXT: load double

; the entry passes args[3], after the three arguments, as the bounds
; CHECK-LABEL: define internal void @scale.kp.cpu_checked(ptr %0)
; CHECK: %[[SLOT:.*]] = getelementptr ptr, ptr %0, i64 3
; CHECK-NEXT: %[[B:.*]] = load ptr, ptr %[[SLOT]]
; CHECK-NEXT: call void @scale.kp.checked(ptr %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, ptr %[[B]])

; CHECK-NOT: define {{.*}}@gen.kp.cpu_checked

; TABLE: @__kp_checked_entries = private constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @__kp_kernels, ptr @scale.kp.cpu_checked }]
; TABLE: @llvm.global_ctors = {{.*}}@__kp_register_checked_entries
; TABLE: @llvm.global_dtors = {{.*}}@__kp_unregister_checked_entries
; TABLE: call void @__kp_register_checked(ptr @__kp_checked_entries, i64 1)
; TABLE: call void @__kp_unregister_checked(ptr @__kp_checked_entries)

@.str = private unnamed_addr constant [16 x i8] c"kernplug.kernel\00", section "llvm.metadata"
@.str.s = private unnamed_addr constant [16 x i8] c"kernplug.shared\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"in.c\00", section "llvm.metadata"
@tile = internal global [64 x float] zeroinitializer
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @scale, ptr @.str, ptr @.str.1, i32 2, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @tile, ptr @.str.s, ptr @.str.1, i32 1, ptr null }], section "llvm.metadata"

define internal void @helper(ptr %p, i64 %i) {
  %a = getelementptr inbounds float, ptr %p, i64 %i
  store float 1.0, ptr %a, align 4
  ret void
}

define void @scale(ptr %x, ptr %table, i32 %n) {
entry:
  %x.addr = alloca ptr, align 8
  store ptr %x, ptr %x.addr, align 8
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %xp = load ptr, ptr %x.addr, align 8
  call void @helper(ptr %xp, i64 %i)
  %xi = getelementptr inbounds float, ptr %xp, i64 %i
  %v = load float, ptr %xi, align 4
  %inner = load ptr, ptr %table, align 8
  store float %v, ptr %inner, align 4
  %s = getelementptr inbounds [64 x float], ptr @tile, i64 0, i64 %i
  store float %v, ptr %s, align 4
  %c = icmp slt i32 %t, %n
  br i1 %c, label %left, label %right
left:
  %l = getelementptr inbounds float, ptr %xp, i64 1
  br label %join
right:
  %r = getelementptr inbounds float, ptr %xp, i64 2
  br label %join
join:
  %q = phi ptr [ %l, %left ], [ %r, %right ]
  store float %v, ptr %q, align 4
  %dyn = call ptr @kp_dev_dynamic_shared()
  %d = getelementptr inbounds double, ptr %dyn, i64 %i
  %dv = load double, ptr %d, align 8
  ret void
}

define void @gen(ptr %x) {
  store float 0.0, ptr %x, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare ptr @kp_dev_dynamic_shared()

!kernplug.main_file = !{!0}
!kernplug.functions = !{!1}
!kernplug.kernels = !{!7, !12}
!0 = !{!"in.c"}
!1 = !{!"scale", i32 0, !"in.c", i32 2, !2, !6, !{}}
!2 = !{!3, !4, !5}
!3 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!4 = !{!"table", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 8}
!5 = !{!"n", i32 0, i1 false, i1 true, i1 false, i64 4, i64 4, i64 0}
!6 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
!7 = !{!"scale", ptr @scale, ptr @scale, i1 false, !"", i64 0, !"in.c", i32 2, !8}
!8 = !{!9, !10, !11}
!9 = !{!"x", i64 1, i64 0, i64 8, i64 4}
!10 = !{!"table", i64 1, i64 0, i64 8, i64 8}
!11 = !{!"n", i64 0, i64 0, i64 4, i64 0}
!12 = !{!"gen", ptr @gen, ptr @gen, i1 true, !"f32(f32)", i64 4, !"in.c", i32 9, !13}
!13 = !{!9}
