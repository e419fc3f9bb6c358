; kernplug-host-stubs: the kernel becomes a launch stub, its body moves behind the CPU
; entries, and the descriptor table is registered from a constructor; the kernplug markers
; (annotations, metadata) are gone. launch_bounds(256, 2) (its annotation) fills the
; descriptor's max_threads and min_blocks.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-host-stubs -S %s | FileCheck %s

; CHECK-NOT: @llvm.global.annotations
; CHECK: @__kp_kernels = internal global [1 x {{.*}}] [{{.*}} { ptr @__kp_kname, ptr @scale, ptr @scale.kp.cpu, ptr @__kp_module, i64 0, i64 3, ptr @__kp_params.scale, ptr null, i64 0, ptr @__kp_file, i64 2, ptr null, ptr @scale.kp.cpu_block, ptr null, i64 256, i64 2 }]
; CHECK: @__kp_images = private constant
; CHECK: @llvm.global_ctors = appending global {{.*}} @__kp_register
; CHECK: @llvm.global_dtors = appending global {{.*}} @__kp_unregister

; CHECK-LABEL: define void @scale(ptr %0, float %1, i32 %2)
; CHECK: %kp.args = alloca [3 x ptr]
; CHECK: call void @__kp_launch(ptr @__kp_kernels, ptr %kp.args)
; CHECK: define internal void @scale.kp.cpu_block(ptr %args, ptr %range) #[[BLOCK:[0-9]+]]
; CHECK: define internal void @scale.kp.cpu(ptr
; CHECK: define internal void @__kp_register()
; CHECK: call void @__kp_register_module(ptr @__kp_module)
; CHECK: attributes #[[BLOCK]] = { {{.*}}"kernplug-block-entry"
; CHECK-NOT: kernplug.functions
; CHECK-NOT: kernplug.kernels
; CHECK-NOT: kernplug.launch_bounds

@.str = private unnamed_addr constant [16 x i8] c"kernplug.kernel\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [5 x i8] c"in.c\00", section "llvm.metadata"
@.str.2 = private unnamed_addr constant [29 x i8] c"kernplug.launch_bounds=256,2\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @scale, ptr @.str, ptr @.str.1, i32 2, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @scale, ptr @.str.2, ptr @.str.1, i32 2, ptr null }], section "llvm.metadata"

define void @scale(ptr %x, float %a, i32 %n) {
  %t = call i32 @kp_dev_tid_x()
  %c = icmp slt i32 %t, %n
  br i1 %c, label %body, label %done
body:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %p, align 4
  %m = fmul float %v, %a
  store float %m, ptr %p, align 4
  br label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)

!kernplug.main_file = !{!0}
!kernplug.functions = !{!1}
!kernplug.kernels = !{!7}
!0 = !{!"in.c"}
!1 = !{!"scale", i32 0, !"in.c", i32 2, !2, !6, !{}}
!2 = !{!3, !4, !5}
!3 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!4 = !{!"a", i32 0, i1 false, i1 false, i1 true, i64 4, i64 4, i64 0}
!5 = !{!"n", i32 0, i1 false, i1 true, i1 false, i64 4, i64 4, i64 0}
!6 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
!7 = !{!"scale", ptr @scale, ptr @scale, i1 false, !"", i64 0, !"in.c", i32 2, !8}
!8 = !{!9, !10, !11}
!9 = !{!"x", i64 1, i64 0, i64 8, i64 4}
!10 = !{!"a", i64 0, i64 0, i64 4, i64 0}
!11 = !{!"n", i64 0, i64 0, i64 4, i64 0}
