; kernplug-lower-device-atomics (device module): NVPTX 19 selects only relaxed atomic loads
; and stores and no fence; orderings become relaxed accesses with membar.sys on the sides
; the PTX memory model asks for. A relaxed read-modify-write (atomic_add) is unchanged and a
; single-thread fence goes.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-lower-device-atomics -S %s | FileCheck %s

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %acq = load atomic i32, ptr %p monotonic, align 4
; CHECK-NEXT: call void @llvm.nvvm.membar.sys()
; CHECK-NEXT: call void @llvm.nvvm.membar.sys()
; CHECK-NEXT: store atomic i32 %v, ptr %p monotonic, align 4
; CHECK-NEXT: call void @llvm.nvvm.membar.sys()
; CHECK-NEXT: call void @llvm.nvvm.membar.sys()
; CHECK-NEXT: %rel = atomicrmw xchg ptr %p, i32 %v monotonic, align 4
; CHECK-NEXT: %relaxed = atomicrmw add ptr %p, i32 1 monotonic, align 4
; CHECK-NEXT: call void @llvm.nvvm.membar.sys()
; CHECK-NEXT: ret void
; CHECK-NOT: fence

target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %p, i32 %v) {
  %acq = load atomic i32, ptr %p acquire, align 4
  store atomic i32 %v, ptr %p seq_cst, align 4
  %rel = atomicrmw xchg ptr %p, i32 %v release
  %relaxed = atomicrmw add ptr %p, i32 1 monotonic
  fence seq_cst
  fence syncscope("singlethread") seq_cst
  ret void
}
