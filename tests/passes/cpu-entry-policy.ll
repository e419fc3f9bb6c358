; kernplug-cpu-entry-policy: per kernel, how the CPU backend enters it, recorded in its
; !kernplug.kernels entry (CpuEntryKind: 1 block loop, 2 split at the barriers and warp
; collectives, 3 fibers and why) and said in a remark of pass kernplug. What the calls reach
; counts, not only the flags.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-entry-policy -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-entry-policy -S %s | FileCheck %s --check-prefix=SIZE

; CHECK: !{!"plain", ptr @plain, ptr @plain, i1 false, !"", i64 0, !"in.c", i32 1, !{{[0-9]+}}, i32 1, !""}
; CHECK: !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 0, !"in.c", i32 2, !{{[0-9]+}}, i32 2, !""}
; CHECK: !{!"shuffle", ptr @shuffle, ptr @shuffle, i1 false, !"", i64 0, !"in.c", i32 3, !{{[0-9]+}}, i32 2, !""}
; A generated kernel with a CPU range entry (generated/CpuRangeEntry.h) gets no block entry;
; its per-thread entry, which no CPU launch takes, is left unoptimised (optnone).
; CHECK: !{!"__kp_vec_f_0", ptr @__kp_vec_f_0, ptr @f, i1 true, !"f32(f32)", i64 4, !"in.c", i32 4, !{{[0-9]+}}, i32 3, !"it runs through its range entry"}

; REMARK: remark: {{.*}}kernplug: kernel 'plain': CPU entry = block loop
; REMARK-NOT: kernel 'tile'
; REMARK-NOT: kernel 'shuffle'
; REMARK: remark: {{.*}}kernplug: kernel '__kp_vec_f_0': CPU entry = range entry

define void @plain(ptr %x) {
  %t = call i32 @kp_dev_tid_x()
  ret void
}

define void @tile(ptr %x) {
  call void @helper()
  ret void
}

define internal void @helper() {
  call void @kp_dev_syncthreads()
  ret void
}

define void @shuffle(ptr %x, i32 %v) {
  %s = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 1, i32 32)
  ret void
}

define float @f(float %x) {
  ret float %x
}

; SIZE-LABEL: define internal void @__kp_vec_f_0(
; SIZE-SAME: #[[SIZE:[0-9]+]]
define internal void @__kp_vec_f_0(i64 %n, ptr %out, ptr %in, float %s, i32 %mask) {
  %t = call i32 @kp_dev_tid_x()
  ret void
}

define internal void @__kp_vec_f_0.kp.cpu_range(ptr %args, i64 %begin, i64 %end) {
  ret void
}

declare i32 @kp_dev_tid_x()
declare void @kp_dev_syncthreads()
declare i32 @kp_dev_shfl_down(i32, i32, i32, i32)

!kernplug.kernels = !{!0, !1, !2, !3}
!0 = !{!"plain", ptr @plain, ptr @plain, i1 false, !"", i64 0, !"in.c", i32 1, !{}}
!1 = !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 0, !"in.c", i32 2, !{}}
!2 = !{!"shuffle", ptr @shuffle, ptr @shuffle, i1 false, !"", i64 0, !"in.c", i32 3, !{}}
!3 = !{!"__kp_vec_f_0", ptr @__kp_vec_f_0, ptr @f, i1 true, !"f32(f32)", i64 4, !"in.c", i32 4, !{}}
; SIZE: attributes #[[SIZE]] = { noinline optnone }
