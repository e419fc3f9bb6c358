; kernplug-barrier-fission on warp collectives and block votes. 'first_warp' shuffles under
; threadIdx.x < 32, the same across each warp: split at the shuffle as well as the barrier,
; its regions run warp by warp (kp.round, kp.warp), each lane reading its source lane's
; value in place (no copy of the warp's values before the lanes' loop), and its entry gets KP_KERNEL_CPU_BLOCK_WARPS | _RUNS (512 | 1024). 'half_warp' shuffles
; under threadIdx.x < 16: lanes of one warp differ, so it keeps its fibers and says why.
; 'count' (syncthreads_count) is split like syncthreads() with the predicates counted
; between the regions (KP_KERNEL_CPU_BLOCK_BARRIERS | _RUNS, 256 | 1024).
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK-DAG: remark: {{.*}}kernplug: kernel 'first_warp': barriers and warp collectives split into 3 regions run warp by warp on the CPU
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'half_warp': barriers kept on fibers on the CPU: shfl_down() under a branch that differs between the lanes of a warp
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'count': barriers split into 2 regions on the CPU

; CHECK-LABEL: define internal void @first_warp.kp.cpu_block(
; CHECK-NOT: call void @llvm.memset
; CHECK: kp.round:
; CHECK: kp.warp:
; CHECK: %kp.warp.first =
; Region 0 runs over the whole block and every thread leaves it for the block barrier: no
; warp goes on to a collective, so only thread 0's entry is stored and the round ends at once,
; without the warps' loop.
; CHECK: kp.region0:
; CHECK-NEXT: store i32 65537, ptr %kp.next
; CHECK-NOT: kp.exit.warps
; CHECK: br label %kp.round.done
; CHECK-NOT: kp.warp.gather
; CHECK: %kp.warp.source = load i32
; CHECK: %kp.shuffled = select i1
; CHECK-NOT: call {{.*}}@kp_dev_shfl_down
; CHECK-LABEL: define internal void @count.kp.cpu_block(
; CHECK: kp.vote.loop:
; CHECK-NOT: call {{.*}}@kp_dev_syncthreads_count
; CHECK-NOT: @kernplug.cpu.warp_shuffle
; CHECK-NOT: @kernplug.cpu.block_vote
; CHECK: !{!"first_warp", ptr @first_warp, ptr @first_warp, i1 false, !"", i64 1536, !"in.c", i32 1, !{{[0-9]+}}, i32 2, !"", ptr @first_warp.kp.cpu_block, null}
; CHECK: !{!"half_warp", ptr @half_warp, ptr @half_warp, i1 false, !"", i64 0, !"in.c", i32 2, !{{[0-9]+}}, i32 3, !"shfl_down() under a branch that differs between the lanes of a warp", null, null}
; CHECK: !{!"count", ptr @count, ptr @count, i1 false, !"", i64 1280, !"in.c", i32 3, !{{[0-9]+}}, i32 2, !"", ptr @count.kp.cpu_block, null}

define void @first_warp(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  call void @kp_dev_syncthreads()
  %w0 = icmp ult i32 %t, 32
  br i1 %w0, label %warp, label %done
warp:
  %v = load i32, ptr %p, align 4
  %d = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 16)
  %sum = add i32 %v, %d
  store i32 %sum, ptr %out, align 4
  br label %done
done:
  ret void
}

define void @half_warp(ptr %s) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %h = icmp ult i32 %t, 16
  br i1 %h, label %half, label %done
half:
  %d = call i32 @kp_dev_shfl_down(i32 65535, i32 %t, i32 1)
  store i32 %d, ptr %s, align 4
  br label %done
done:
  ret void
}

define void @count(ptr %x) {
  %t = call i32 @kp_dev_tid_x()
  %odd = and i32 %t, 1
  %n = call i32 @kp_dev_syncthreads_count(i32 %odd)
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %x, i64 %i
  store i32 %n, ptr %p, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind
declare i32 @kp_dev_syncthreads_count(i32) convergent nounwind
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"first_warp", ptr @first_warp, ptr @first_warp, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"half_warp", ptr @half_warp, ptr @half_warp, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"count", ptr @count, ptr @count, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
