; kernplug-generate-ufunc-kernels: a vectorize function gets one element-wise kernel per
; signature, recorded in !kernplug.kernels beside the user kernels.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-generate-ufunc-kernels -S %s | FileCheck %s

define float @add(float %a, float %b) {
  %s = fadd float %a, %b
  ret float %s
}

!kernplug.main_file = !{!0}
!kernplug.functions = !{!1}
!0 = !{!"in.c"}
!1 = !{!"add", i32 1, !"in.c", i32 12, !2, !4, !5}
!2 = !{!3, !3}
!3 = !{!"a", i32 0, i1 false, i1 false, i1 true, i64 4, i64 4, i64 0}
!4 = !{!"", i32 0, i1 false, i1 false, i1 true, i64 4, i64 4, i64 0}
!5 = !{!"f32(f32, f32)"}

; The grid-stride loop calls the scalar function once per element.
; CHECK-LABEL: define internal void @__kp_vec_add_0(i64 %0, ptr %1, ptr %2, float %3, ptr %4, float %5, i32 %6)
; CHECK: call i32 @kp_dev_tid_x()
; CHECK: call float @add(float
; CHECK: store float
; Its CPU range entry: the parameters from args[], then a plain loop over [begin, end) that
; reads input j at base_j[i * stride_j] (stride 0 and a copy of the scalar for a broadcast
; one) and calls the function, to be inlined, with no index primitive.
; CHECK-LABEL: define internal void @__kp_vec_add_0.kp.cpu_range(ptr {{(nocapture readonly|readonly captures\(none\))}} %args, i64 %begin, i64 %end)
; CHECK: %base0 = select i1 %{{[0-9]+}}, ptr %scalar0, ptr %arg2
; CHECK: %stride0 = select i1 %{{[0-9]+}}, i64 0, i64 1
; CHECK: loop:
; CHECK-NEXT: %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
; CHECK-NOT: kp_dev_
; CHECK: mul i64 %i, %stride0
; CHECK: call float @add(float %{{[0-9]+}}, float %{{[0-9]+}}) #[[INLINE:[0-9]+]]
; CHECK: %i.next = add nuw nsw i64 %i, 1
; Its specialisations: every operand an array, the first one an array; each with its entry.
; CHECK: define internal void @__kp_vec_add_0_arrays(
; CHECK: define internal void @__kp_vec_add_0_arrays.kp.cpu_range(
; CHECK-NOT: stride
; CHECK: ret void
; CHECK: define internal void @__kp_vec_add_0_first_array(
; CHECK: define internal void @__kp_vec_add_0_first_array.kp.cpu_range(
; CHECK: attributes #[[INLINE]] = { alwaysinline }
; CHECK: !kernplug.kernels = !{![[K:[0-9]+]], ![[KA:[0-9]+]], ![[KF:[0-9]+]]}
; CHECK: ![[K]] = !{!"__kp_vec_add_0", ptr @__kp_vec_add_0, ptr @add, i1 true, !"f32(f32,f32)", i64 4, !"in.c", i32 12, ![[P:[0-9]+]]}
; CHECK: ![[P]] = !{![[N:[0-9]+]], ![[OUT:[0-9]+]],
; CHECK: ![[N]] = !{!"n", i64 0, i64 0, i64 8, i64 0}
; CHECK: ![[OUT]] = !{!"out", i64 1, i64 0, i64 8, i64 4}
; CHECK: ![[KA]] = !{!"__kp_vec_add_0_arrays", ptr @__kp_vec_add_0_arrays, ptr @add,
; CHECK: ![[KF]] = !{!"__kp_vec_add_0_first_array", ptr @__kp_vec_add_0_first_array, ptr @add,
