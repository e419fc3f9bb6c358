; kernplug-barrier-fission: a warp collective's mask and lane argument that are constants
; are not stored by every lane before the collective (as a value the lanes compute is): the
; stand-in reads them from a constant global, and the shuffle's uniform path is chosen from
; the constants. 'const_ops' (the tree reduction's last step, shfl_down(0xffffffff, v, 16)):
; the lane loop before the shuffle stores only the value. 'loaded_offset' reads its offset
; from memory (the same in every lane, but not a constant): it still stores it per lane and
; reads the warp's first lane's copy before the lanes run.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK-DAG: remark: {{.*}}kernplug: kernel 'const_ops': barriers and warp collectives split into 3 regions run warp by warp on the CPU
; REMARK-DAG: remark: {{.*}}kernplug: kernel 'loaded_offset': barriers and warp collectives split into 3 regions run warp by warp on the CPU

; CHECK-DAG: @kp.warp.const.-1 = private unnamed_addr constant i32 -1
; CHECK-DAG: @kp.warp.const.16 = private unnamed_addr constant i32 16

; CHECK-LABEL: define internal void @const_ops.kp.cpu_block(
; No lane stores the constants (the old pass stored both in every lane, twice: once per copy
; of the region); the only constant stores left are the regions' exits.
; CHECK-NOT: store i32 16,
; CHECK-NOT: store i32 -1,
; CHECK-NOT: kp.warp.gather
; CHECK: %kp.warp.source = load i32
; CHECK: %kp.shuffled = select i1
; CHECK-LABEL: define internal void @loaded_offset.kp.cpu_block(
; The loaded offset is still stored by every lane and read from the warp's first lane; the
; constant mask is not.
; CHECK-NOT: store i32 -1, ptr %kp.warp.mask
; CHECK: store i32 %o, ptr %kp.warp.arg
; CHECK-NOT: store i32 -1, ptr %kp.warp.mask
; CHECK: kp.region{{[0-9]+}}:
; CHECK-NEXT: getelementptr inbounds i32, ptr %kp.warp.arg.threads, i64 %kp.warp.first
; CHECK-NEXT: %[[OFF:.*]] = load i32, ptr
; CHECK: call i32 @llvm.umin.i32(i32 %[[OFF]], i32 32)
; CHECK: %kp.shuffled = select i1

define void @const_ops(ptr %s, ptr %out) {
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

define void @loaded_offset(ptr %s, ptr %out, ptr %off) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %i
  call void @kp_dev_syncthreads()
  %w0 = icmp ult i32 %t, 32
  br i1 %w0, label %warp, label %done
warp:
  %v = load i32, ptr %p, align 4
  %o = load i32, ptr %off, align 4
  %d = call i32 @kp_dev_shfl_down(i32 -1, i32 %v, i32 %o)
  %sum = add i32 %v, %d
  store i32 %sum, ptr %out, align 4
  br label %done
done:
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind
declare i32 @kp_dev_shfl_down(i32, i32, i32) convergent nounwind

!kernplug.kernels = !{!0, !1}
!0 = !{!"const_ops", ptr @const_ops, ptr @const_ops, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"loaded_offset", ptr @loaded_offset, ptr @loaded_offset, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
