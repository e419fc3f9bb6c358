; kernplug-cpu-block-entry: a kernel kernplug-cpu-entry-policy gave a block loop (CpuEntryKind
; 1) gets <k>.kp.cpu_block, a loop nest over the block's threads around a clone of its body
; that reads the indices from memory, and the per-thread <k>.kp.cpu through it; both go into
; its !kernplug.kernels entry. A helper that reads an index is cloned once and linked to its
; clone (kernplug-barrier-fission reuses it). A body that reaches an indirect call gets no
; entries (null), nor does a kernel with another CPU entry.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-block-entry -S %s | FileCheck %s

; CHECK: define internal i32 @lane() !kernplug.indexed_clone ![[LINK:[0-9]+]]
; CHECK: define internal void @scale.kp.blk({{.*}}, ptr noalias {{(nocapture readonly|readonly captures\(none\))}} %kp.idx) #[[INLINE:[0-9]+]]
; CHECK: call i32 @lane.kp.blk(ptr %kp.idx)
; CHECK: define internal i32 @lane.kp.blk(ptr noalias {{(nocapture readonly|readonly captures\(none\))}} %kp.idx)
; CHECK-NEXT: getelementptr inbounds [13 x i32], ptr %kp.idx, i32 0, i32 0
; CHECK-NOT: @kp_dev_tid_x
; CHECK: define internal void @scale.kp.cpu_block(ptr %args, ptr %range) #[[BLOCK:[0-9]+]]
; CHECK: loop.z:
; CHECK: loop.y:
; CHECK: loop.x:
; CHECK: call void @scale.kp.blk(
; CHECK: br label %loop.x, !llvm.loop
; CHECK: define internal void @scale.kp.cpu(ptr %0)
; CHECK: call void @scale.kp.cpu_block(ptr %0, ptr %kp.range)
; CHECK-NOT: @indirect.kp.cpu
; CHECK-NOT: @tile.kp.cpu
; CHECK: attributes #[[INLINE]] = { alwaysinline }
; CHECK: attributes #[[BLOCK]] = { noinline nounwind "kernplug-block-entry" }
; CHECK: !{!"scale", ptr @scale, ptr @scale, i1 false, !"", i64 0, !"in.c", i32 2, !{{[0-9]+}}, i32 1, !"", ptr @scale.kp.cpu_block, ptr @scale.kp.cpu}
; CHECK: !{!"indirect", ptr @indirect, ptr @indirect, i1 false, !"", i64 0, !"in.c", i32 9, !{{[0-9]+}}, i32 1, !"", null, null}
; CHECK: !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 0, !"in.c", i32 12, !{{[0-9]+}}, i32 2, !""}
; CHECK: ![[LINK]] = !{ptr @lane.kp.blk}

define void @scale(ptr %x, i32 %n) {
  %t = call i32 @lane()
  %c = icmp slt i32 %t, %n
  br i1 %c, label %body, label %done
body:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  store float 1.0, ptr %p, align 4
  br label %done
done:
  ret void
}

define internal i32 @lane() {
  %t = call i32 @kp_dev_tid_x()
  ret i32 %t
}

define void @indirect(ptr %f) {
  call void %f()
  ret void
}

define void @tile(ptr %x) {
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads()

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"scale", ptr @scale, ptr @scale, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 1, !""}
!1 = !{!"indirect", ptr @indirect, ptr @indirect, i1 false, !"", i64 0, !"in.c", i32 9, !{}, i32 1, !""}
!2 = !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 0, !"in.c", i32 12, !{}, i32 2, !""}
