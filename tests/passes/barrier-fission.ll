; kernplug-barrier-fission: a kernel kernplug-cpu-entry-policy gave a split (CpuEntryKind 2)
; gets <k>.kp.cpu_block cut at its barriers into regions, each a loop over the block's
; threads, with a value live across the barrier saved per thread; its entry gets the block
; entry and KP_KERNEL_CPU_BLOCK_BARRIERS | KP_KERNEL_CPU_BLOCK_RUNS (256 | 1024). A barrier under a branch on the thread index
; cannot be split: that kernel keeps its fibers (CpuEntryKind 3) and its entry says why.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: remark: {{.*}}kernplug: kernel 'tile': barriers split into 2 regions on the CPU
; REMARK: remark: {{.*}}kernplug: kernel 'divergent': barriers kept on fibers on the CPU: syncthreads() under a branch that depends on the thread

; CHECK-NOT: @tile.kp.blk
; CHECK-NOT: @divergent.kp.cpu_block
; CHECK: define internal void @tile.kp.cpu_block(ptr %args, ptr %range) #[[BLOCK:[0-9]+]]
; CHECK: %v.saved.threads = alloca float, i64 %kp.threads
; The run of blocks the range names, each from region 0 (KP_KERNEL_CPU_BLOCK_RUNS, 1024).
; CHECK: %nblock = phi i32
; CHECK: blocks.done:
; CHECK-NEXT: ret void
; CHECK: store i32 0, ptr %kp.next
; CHECK: switch i32 %{{[0-9]+}}, label %kp.done [
; CHECK-NEXT: i32 0, label %kp.region0
; CHECK-NEXT: i32 1, label %kp.region1
; CHECK: kp.region0:
; CHECK: store float %v, ptr %v.saved
; CHECK: br label %loop.x, !llvm.loop
; CHECK: kp.region1:
; CHECK: %v.restored = load float, ptr %v.saved
; CHECK-NOT: call void @kp_dev_syncthreads()
; CHECK: attributes #[[BLOCK]] = { noinline nounwind "kernplug-block-entry" }
; CHECK: !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 1280, !"in.c", i32 1, !{{[0-9]+}}, i32 2, !"", ptr @tile.kp.cpu_block, null}
; CHECK: !{!"divergent", ptr @divergent, ptr @divergent, i1 false, !"", i64 0, !"in.c", i32 13, !{{[0-9]+}}, i32 3, !"syncthreads() under a branch that depends on the thread", null, null}

define void @tile(ptr %x) {
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %p, align 4
  call void @kp_dev_syncthreads()
  %t2 = xor i32 %t, 1
  %j = zext i32 %t2 to i64
  %q = getelementptr inbounds float, ptr %x, i64 %j
  store float %v, ptr %q, align 4
  ret void
}

define void @divergent(ptr %x) {
  %t = call i32 @kp_dev_tid_x()
  %c = icmp eq i32 %t, 0
  br i1 %c, label %sync, label %done
sync:
  call void @kp_dev_syncthreads()
  br label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1}
!0 = !{!"tile", ptr @tile, ptr @tile, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"divergent", ptr @divergent, ptr @divergent, i1 false, !"", i64 0, !"in.c", i32 13, !{}, i32 2, !""}
