; kernplug-barrier-fission: which shuffles read the other lanes' values in place and which
; through a copy of the warp's values (WarpCollectives.cpp), with the remark saying so.
; 'down_loaded' (shfl_down, the full mask, an offset loaded from memory: the same in every
; lane, not a constant): no copy of the warp's values before the lanes' loop; each lane reads
; its own stored value and lane + min(offset, 32)'s from the per-thread array, which is padded
; by 32 elements for that read, and chooses (the source is in the warp where the lane loop's x
; is below x0 + lanes - offset: barrier-fission-warp-source-bound.ll). 'down_mask' (a mask loaded from memory): the same,
; the source also checked against the mask. 'idx_uniform' (shfl_idx with a constant lane):
; the source lane's value read once before the lanes run. 'xor_copy' and 'up_copy' keep the
; copy (kp.warp.gather), up with its vectorisable uniform path.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK-DAG: remark: {{.*}}kernplug: kernel 'down_loaded': {{.*}}1 warp shuffles read the lanes' values in place
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'down_mask': {{.*}}1 warp shuffles read the lanes' values in place
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'idx_uniform': {{.*}}1 warp shuffles read the lanes' values in place
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'xor_copy': {{.*}}1 warp shuffles read a copy of the warp's values (shfl_up, shfl_xor, or shfl_idx whose mask or lane differs between the lanes)
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'up_copy': {{.*}}1 warp shuffles read a copy of the warp's values

; CHECK-LABEL: define internal void @down_loaded.kp.cpu_block(
; CHECK: %[[PAD:.*]] = add i64 %kp.threads, 32
; CHECK-NEXT: %kp.warp.value.threads = alloca i32, i64 %[[PAD]]
; CHECK-NOT: kp.warp.gather
; CHECK-NOT: kp.warp.copy
; CHECK: kp.region1:
; CHECK-NEXT: getelementptr inbounds i32, ptr %kp.warp.arg.threads, i64 %kp.warp.first
; CHECK-NEXT: %[[OFF:.*]] = load i32, ptr
; CHECK: %[[OWNP:.*]] = getelementptr inbounds i32, ptr %kp.warp.value.threads, i64 %{{.*}}
; CHECK: %kp.lane = sub i32 %[[X:.*]], %kp.warp.x0
; CHECK: %kp.warp.own = load i32, ptr %[[OWNP]]
; CHECK: %[[D:.*]] = call i32 @llvm.umin.i32(i32 %[[OFF]], i32 32)
; CHECK: %[[D64:.*]] = zext i32 %[[D]] to i64
; CHECK: %[[SRCP:.*]] = getelementptr inbounds i32, ptr %[[OWNP]], i64 %[[D64]]
; CHECK: %kp.warp.source = load i32, ptr %[[SRCP]]
; CHECK: %[[END:.*]] = add nuw i32 %kp.warp.x0, %kp.warp.lanes
; CHECK-NEXT: %kp.warp.source.end = sub i32 %[[END]], %[[D]]
; CHECK-NEXT: %kp.warp.source.in = icmp slt i32 %[[X]], %kp.warp.source.end
; CHECK-NEXT: %kp.shuffled = select i1 %kp.warp.source.in, i32 %kp.warp.source, i32 %kp.warp.own

; CHECK-LABEL: define internal void @down_mask.kp.cpu_block(
; CHECK-NOT: kp.warp.gather
; CHECK: %kp.warp.source = load i32
; CHECK: %kp.warp.source.in = icmp slt i32
; CHECK: lshr i32
; CHECK: %kp.shuffled = select i1

; CHECK-LABEL: define internal void @idx_uniform.kp.cpu_block(
; CHECK-NOT: alloca i32, i64 %{{.*}}add
; CHECK-NOT: kp.warp.gather
; CHECK: %kp.warp.bcast = load i32
; CHECK: loop.z
; CHECK: %kp.warp.own = load i32
; CHECK: %kp.shuffled = select i1 %{{.*}}, i32 %kp.warp.bcast, i32 %kp.warp.own

; CHECK-LABEL: define internal void @xor_copy.kp.cpu_block(
; CHECK: kp.warp.gather:
; CHECK: kp.warp.shuffle:
; CHECK: %kp.shuffled = load i32

; CHECK-LABEL: define internal void @up_copy.kp.cpu_block(
; CHECK: kp.warp.gather:
; CHECK: kp.warp.uniform:
; CHECK: kp.warp.copy
; CHECK: %kp.shuffled = load i32

define void @down_loaded(ptr %s, ptr %out, ptr %off) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  %v = load i32, ptr %p, align 4
  %o = load i32, ptr %off, align 4
  %d = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 %o)
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %d, ptr %q, align 4
  ret void
}

define void @down_mask(ptr %s, ptr %out, ptr %mask) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  %v = load i32, ptr %p, align 4
  %m = load i32, ptr %mask, align 4
  %d = call i32 @kp_dev_shfl_down(i32 %m, i32 %v, i32 1)
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %d, ptr %q, align 4
  ret void
}

define void @idx_uniform(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  %v = load i32, ptr %p, align 4
  %d = call i32 @kp_dev_shfl_idx(i32 -1, i32 %v, i32 3)
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %d, ptr %q, align 4
  ret void
}

define void @xor_copy(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  %v = load i32, ptr %p, align 4
  %d = call i32 @kp_dev_shfl_xor(i32 -1, i32 %v, i32 1)
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %d, ptr %q, align 4
  ret void
}

define void @up_copy(ptr %s, ptr %out) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  %v = load i32, ptr %p, align 4
  %d = call i32 @kp_dev_shfl_up(i32 -1, i32 %v, i32 2)
  %q = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %d, ptr %q, align 4
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind
declare i32 @kp_dev_shfl_idx(i32, i32, i32) convergent nounwind
declare i32 @kp_dev_shfl_xor(i32, i32, i32) convergent nounwind
declare i32 @kp_dev_shfl_up(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0, !1, !2, !3, !4}
!0 = !{!"down_loaded", ptr @down_loaded, ptr @down_loaded, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"down_mask", ptr @down_mask, ptr @down_mask, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"idx_uniform", ptr @idx_uniform, ptr @idx_uniform, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
!3 = !{!"xor_copy", ptr @xor_copy, ptr @xor_copy, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 2, !""}
!4 = !{!"up_copy", ptr @up_copy, ptr @up_copy, i1 false, !"", i64 0, !"in.c", i32 5, !{}, i32 2, !""}
