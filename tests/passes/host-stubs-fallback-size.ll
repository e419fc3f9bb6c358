; kernplug-host-stubs: the block-loop entry an interchanged grid-stride entry falls back on
; (groups that fail the run-time check, and the per-thread entry's replay of a faulting
; block) is compiled for size and loses the block-entry mark, so that ThreadLoopVersioning
; leaves it alone: the O2 pipeline and codegen see one fully optimised copy of the body, the
; interchanged one. A kernel whose block loop is its only block entry keeps it at full speed.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry,kernplug-grid-stride-interchange,kernplug-host-stubs -S %s | FileCheck %s

; CHECK: @__kp_kernels = internal global [2 x {{.*}}] [{{.*}} { ptr @__kp_kname, ptr @sum, ptr @sum.kp.cpu, {{.*}}, ptr @sum.kp.cpu_block.gridstride, ptr null, i64 0, i64 0 }, {{.*}} { ptr @__kp_kname.{{[0-9]+}}, ptr @scale, ptr @scale.kp.cpu, {{.*}}, ptr @scale.kp.cpu_block, ptr null, i64 0, i64 0 }]

; CHECK-DAG: define internal void @sum.kp.cpu_block(ptr %args, ptr %range) #[[FALLBACK:[0-9]+]]
; CHECK-DAG: define internal void @scale.kp.cpu_block(ptr %args, ptr %range) #[[BLOCK:[0-9]+]]
; CHECK-DAG: define internal i1 @sum.kp.gridstride.step.kp.cpu_block(ptr %args, ptr %range, ptr %0, i64 %1) #[[PHASE:[0-9]+]]
; CHECK-DAG: define internal void @sum.kp.cpu_block.gridstride(ptr %args, ptr %range) #[[BLOCK]]
; CHECK: call void @sum.kp.cpu_block(ptr %args, ptr %gs.range)

; CHECK-DAG: attributes #[[FALLBACK]] = { minsize noinline nounwind optsize }
; CHECK-DAG: attributes #[[BLOCK]] = { noinline nounwind "kernplug-block-entry" }
; The phases are inlined into the interchanged entry: left as they are.
; CHECK-DAG: attributes #[[PHASE]] = { alwaysinline nounwind "kernplug-block-entry" }

define void @sum(ptr %x, ptr %out, i32 %n) {
entry:
  %tid = call i32 @kp_dev_tid_x()
  %ctaid = call i32 @kp_dev_ctaid_x()
  %ntid = call i32 @kp_dev_ntid_x()
  %nctaid = call i32 @kp_dev_nctaid_x()
  %b = mul i32 %ctaid, %ntid
  %start = add i32 %b, %tid
  %step = mul i32 %nctaid, %ntid
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %x, i64 %ix
  %v = load float, ptr %p, align 4
  %sum.next = fadd float %sum, %v
  %i.next = add nsw i32 %i, %step
  br label %cond
end:
  %old = atomicrmw fadd ptr %out, float %sum monotonic
  ret void
}

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
declare i32 @kp_dev_ctaid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_nctaid_x() nounwind willreturn memory(none)

!kernplug.main_file = !{!0}
!kernplug.functions = !{!1, !20}
!kernplug.kernels = !{!7, !27}
!0 = !{!"in.c"}
!1 = !{!"sum", i32 0, !"in.c", i32 2, !2, !6, !{}}
!2 = !{!3, !4, !5}
!3 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!4 = !{!"out", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!5 = !{!"n", i32 0, i1 false, i1 true, i1 false, i64 4, i64 4, i64 0}
!6 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
!7 = !{!"sum", ptr @sum, ptr @sum, i1 false, !"", i64 0, !"in.c", i32 2, !8, i32 1, !""}
!8 = !{!9, !10, !11}
!9 = !{!"x", i64 1, i64 0, i64 8, i64 4}
!10 = !{!"out", i64 1, i64 0, i64 8, i64 4}
!11 = !{!"n", i64 0, i64 0, i64 4, i64 0}
!20 = !{!"scale", i32 0, !"in.c", i32 9, !21, !6, !{}}
!21 = !{!3, !22, !5}
!22 = !{!"a", i32 0, i1 false, i1 false, i1 true, i64 4, i64 4, i64 0}
!27 = !{!"scale", ptr @scale, ptr @scale, i1 false, !"", i64 0, !"in.c", i32 9, !28, i32 1, !""}
!28 = !{!9, !29, !11}
!29 = !{!"a", i64 0, i64 0, i64 4, i64 0}
