; kernplug-barrier-fission: warp by warp, only a warp's first lane's entry of kp.next is read
; (by the warps' loop and the dispatch; thread 0's by the round), so a part of a split thread
; loop that every thread leaves one way stores where it goes for the warps starting in it
; (x = 0, 32, ... in [from, to)), after its loop, instead of one store per thread.
; 'first_warp' (the tree reduction's end: after a barrier, `if (tid < 32)` a shuffle): the
; whole block's region splits its loop over x at 32; the part below goes on to the shuffle's
; region (1 + 1 = 2), the part above to the end (65536 | 3). 'mixed' (a branch on a loaded
; value, not on threadIdx.x): its loop is not split, leaves two ways, and every thread stores
; where it goes, as before.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK-DAG: remark: {{.*}}kernplug: kernel 'first_warp': {{.*}}2 parts of split thread loops store where they go once per warp, not per thread
; REMARK-NOT: kernel 'mixed': {{.*}}once per warp, not per thread

; CHECK-LABEL: define internal void @first_warp.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: loop.x{{[0-9]*}}:
; CHECK-NOT: store i32 2, ptr
; CHECK: kp.exit.part:
; CHECK-NEXT: %[[W:.*]] = phi i32
; CHECK: kp.exit.part.body:
; CHECK-NEXT: %[[X:.*]] = mul nuw i32 %[[W]], 32
; CHECK-NEXT: %[[XL:.*]] = zext i32 %[[X]] to i64
; CHECK-NEXT: %[[LIN:.*]] = add nuw i64 %[[XL]], %{{.*}}
; CHECK-NEXT: %[[P:.*]] = getelementptr inbounds i32, ptr %kp.next, i64 %[[LIN]]
; CHECK-NEXT: store i32 2, ptr %[[P]]
; CHECK-NOT: store i32 65539, ptr
; CHECK: kp.exit.part.body{{[0-9]+}}:
; CHECK: store i32 65539, ptr
; CHECK: kp.region2:

; CHECK-LABEL: define internal void @mixed.kp.cpu_block(
; CHECK-NOT: kp.exit.part
; CHECK: kp.region1:
; CHECK-NOT: kp.exit.part
; CHECK-DAG: store i32 2, ptr
; CHECK-DAG: store i32 65539, ptr
; CHECK: kp.region2:

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
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %sum, ptr %q, align 4
  br label %done
done:
  ret void
}

define void @mixed(ptr %s, ptr %out, ptr %flags) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  call void @kp_dev_syncthreads()
  %w = lshr i32 %t, 5
  %wi = zext i32 %w to i64
  %fp = getelementptr inbounds i32, ptr %flags, i64 %wi
  %f = load i32, ptr %fp, align 4
  %go = icmp ne i32 %f, 0
  br i1 %go, label %warp, label %done
warp:
  %v = load i32, ptr %p, align 4
  %d = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 16)
  %sum = add i32 %v, %d
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %sum, ptr %q, align 4
  br label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0, !1}
!0 = !{!"first_warp", ptr @first_warp, ptr @first_warp, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"mixed", ptr @mixed, ptr @mixed, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
