; kernplug-barrier-fission, BarrierFission.cpp's emitRegion and emit: without warp rounds, a
; region that every thread leaves the same way, to one region or to the block's end (one exit
; in it, or in each variant of it, barrier-fission-ranges.ll's `doubling`), branches straight
; there after its thread loops: the dispatch would read back thread 0's entry of %kp.next
; and switch on it. The block's run starts at region 0 the same way. A region with two
; exits (which one depends on memory read in the region, so each thread stores where it
; goes) keeps going through %kp.next and the dispatch; the region it reaches is entered from
; the dispatch only.
; - straight: three regions, each left one way.
; - two_ways: region 1 leaves to region 2 or 3, decided by a load in it.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'straight': 3 regions branch straight to the next, not through the dispatch{{$}}
; REMARK: kernel 'straight': barriers split into 3 regions on the CPU
; REMARK: kernel 'two_ways': 3 regions branch straight to the next, not through the dispatch{{$}}
; REMARK: kernel 'two_ways': barriers split into 4 regions on the CPU

; CHECK-LABEL: define internal void @straight.kp.cpu_block(
; CHECK: block:
; CHECK: store i32 0, ptr %kp.next
; CHECK-NEXT: br label %kp.region0
; CHECK: kp.dispatch: {{.*}}No predecessors!
; CHECK: kp.region0:
; CHECK-NOT: store {{.*}} %kp.next
; CHECK: done.z:
; CHECK-NEXT: br label %kp.region1
; CHECK: kp.region1:
; CHECK-NOT: store {{.*}} %kp.next
; CHECK: done.z{{[0-9]+}}:
; CHECK-NEXT: br label %kp.region2
; CHECK: kp.region2:
; CHECK-NOT: store {{.*}} %kp.next
; CHECK: done.z{{[0-9]+}}:
; CHECK-NEXT: br label %kp.done
; CHECK-LABEL: define internal void @two_ways.kp.cpu_block(
; CHECK: kp.dispatch: {{.*}}preds = %[[BACK:done.z[0-9]+]]
; CHECK: kp.region0:
; CHECK: kp.region1: {{.*}}preds = %kp.dispatch, %done.z
; CHECK: [[BACK]]:
; CHECK-NEXT: br label %kp.dispatch
; CHECK: store i32 2, ptr %{{[0-9]+}}
; CHECK: store i32 3, ptr %{{[0-9]+}}
; CHECK: kp.region2: {{.*}}preds = %kp.dispatch{{$}}
; CHECK: kp.region3: {{.*}}preds = %kp.dispatch{{$}}

@buf = internal global [256 x i32] zeroinitializer

define void @straight(ptr %s) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %ti = zext i32 %t to i64
  %p = getelementptr inbounds [256 x i32], ptr @buf, i64 0, i64 %ti
  store i32 %t, ptr %p, align 4
  call void @kp_dev_syncthreads()
  %v = load i32, ptr %p, align 4
  %q = getelementptr inbounds i32, ptr %s, i64 %ti
  store i32 %v, ptr %q, align 4
  call void @kp_dev_syncthreads()
  store i32 0, ptr %p, align 4
  ret void
}

define void @two_ways(ptr %s) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %v = load i32, ptr %s, align 4
  %c = icmp sgt i32 %v, 0
  br i1 %c, label %a, label %b
a:
  call void @kp_dev_syncthreads()
  br label %end
b:
  call void @kp_dev_syncthreads()
  br label %end
end:
  %ti = zext i32 %t to i64
  %q = getelementptr inbounds i32, ptr %s, i64 %ti
  store i32 1, ptr %q, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1}
!0 = !{!"straight", ptr @straight, ptr @straight, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"two_ways", ptr @two_ways, ptr @two_ways, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
