; kernplug-barrier-fission in warp rounds (a kernel with a shuffle): a value the same in every
; thread of the block that lives across a block barrier is stored once per block, not by every
; thread, where the region after the barrier reads thread 0's copy: it runs over the whole
; block. 'loop_then_shuffle' (the tree reduction's shape): the loop counter %k, live across the
; loop's barrier, is stored once before the thread loops of the regions that reach that
; barrier; before, every thread stored its own copy in them.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: remark: {{.*}}kernplug: kernel 'loop_then_shuffle': {{.*}}2 stores of uniform values made once per block, not per thread{{.*}}
; REMARK: remark: {{.*}}kernplug: kernel 'loop_then_shuffle': barriers and warp collectives split into 3 regions run warp by warp on the CPU

; Thread 0's element of the counter's per-thread array stored once in region 0 (before the
; loop's first barrier) and once in region 1 (before each further one); no thread's own
; element (%k.saved, %k.saved12, ...) is stored.
; CHECK-LABEL: define internal void @loop_then_shuffle.kp.cpu_block(
; CHECK-NOT: store i32 %{{.*}}, ptr %k.saved{{[0-9]*}}, align
; CHECK: store i32 %{{.*}}, ptr %k.saved.threads, align 4
; CHECK-NOT: store i32 %{{.*}}, ptr %k.saved{{[0-9]*}}, align
; CHECK: store i32 %{{.*}}, ptr %k.saved.threads, align 4
; CHECK-NOT: store i32 %{{.*}}, ptr %k.saved{{[0-9]*}}, align

define void @loop_then_shuffle(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  %k0 = lshr i32 %n, 1
  br label %loop
loop:
  %k = phi i32 [ %k0, %entry ], [ %k.next, %sync ]
  %more = icmp ugt i32 %k, 32
  br i1 %more, label %body, label %after
body:
  %in = icmp ult i32 %t, %k
  br i1 %in, label %add, label %sync
add:
  %tk = add i32 %t, %k
  %ik = zext i32 %tk to i64
  %q = getelementptr inbounds i32, ptr %s, i64 %ik
  %a = load i32, ptr %p, align 4
  %b = load i32, ptr %q, align 4
  %c = add i32 %a, %b
  store i32 %c, ptr %p, align 4
  br label %sync
sync:
  %k.next = lshr i32 %k, 1
  call void @kp_dev_syncthreads()
  br label %loop
after:
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

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0}
!0 = !{!"loop_then_shuffle", ptr @loop_then_shuffle, ptr @loop_then_shuffle, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
