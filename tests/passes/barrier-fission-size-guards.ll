; kernplug-barrier-fission leaves a branch on threadIdx.x against the problem size (a bound
; computed from a kernel parameter) in the region's loop over x instead of splitting the loop
; at it (RangeSplitPolicy.cpp): its interval ends inside a row only at the domain's edge, and
; ThreadLoopVersioning's guard-free copy runs every other block.
; - size_guard: `t < n`, n a parameter: one loop over x, the branch kept.
; - edge_offset: `t + off < n`, both parameters: not split either.
; - mixed: `t < ntid.x / 2 && t < n`: one leaf is not the problem size: split as before.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'size_guard': 1 thread loops not split at a branch against the problem size
; REMARK: kernel 'size_guard': barriers split into 3 regions on the CPU
; REMARK: kernel 'edge_offset': 1 thread loops not split at a branch against the problem size
; REMARK: kernel 'mixed': 1 thread loops split where a branch on threadIdx.x changes
; REMARK-NOT: kernel 'mixed': {{.*}}problem size

; CHECK-LABEL: define internal void @size_guard.kp.cpu_block(
; CHECK-NOT: kp.x.lo
; CHECK: kp.region1:
; CHECK: %in = icmp ult i32 %.remat, %{{[0-9]+}}
; CHECK-NEXT: br i1 %in, label %set, label %done
; CHECK: kp.region2:
; CHECK-LABEL: define internal void @edge_offset.kp.cpu_block(
; CHECK-NOT: kp.x.lo
; CHECK: kp.region1:
; CHECK-LABEL: define internal void @mixed.kp.cpu_block(
; CHECK: kp.region1:
; CHECK: %kp.x.lo = trunc i64
; CHECK: %kp.x.hi = trunc i64

define void @size_guard(ptr %s, i32 %n) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %in = icmp ult i32 %t, %n
  br i1 %in, label %set, label %done
set:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  store float 1.0, ptr %p, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @edge_offset(ptr %s, i32 %n, i32 %off) {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %a = add nuw i32 %t, %off
  %in = icmp ult i32 %a, %n
  br i1 %in, label %set, label %done
set:
  %i = zext i32 %a to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  store float 1.0, ptr %p, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @mixed(ptr %s, i32 %n) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %nt = call i32 @kp_dev_ntid_x()
  call void @kp_dev_syncthreads()
  %stride = lshr i32 %nt, 1
  %low = icmp ult i32 %t, %stride
  %fits = icmp ult i32 %t, %n
  %in = and i1 %low, %fits
  br i1 %in, label %set, label %done
set:
  %i = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr %s, i64 %i
  store float 1.0, ptr %p, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2}
!0 = !{!"size_guard", ptr @size_guard, ptr @size_guard, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"edge_offset", ptr @edge_offset, ptr @edge_offset, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"mixed", ptr @mixed, ptr @mixed, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
