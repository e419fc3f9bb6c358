; kernplug-indirect-branches: NVPTX has no indirect branch, and a clone must not jump to its
; original's blocks: a computed goto becomes a switch over integers numbered from 1 in block
; order (null matches none), and each label address becomes its number; a target the list
; does not name is unreachable. A function without address-taken blocks is left alone.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-indirect-branches -S %s | FileCheck %s

; CHECK-LABEL: define i32 @dispatch(
; CHECK: %addr = select i1 %t, ptr inttoptr (i64 1 to ptr), ptr inttoptr (i64 2 to ptr)
; CHECK: %[[KEY:[0-9]+]] = ptrtoint ptr %addr to i64
; CHECK-NEXT: switch i64 %[[KEY]], label %goto.bad [
; CHECK-NEXT: i64 1, label %a
; CHECK-NEXT: i64 2, label %b
; CHECK-NEXT: ]
; CHECK: goto.bad:
; CHECK-NEXT: unreachable
; CHECK-NOT: blockaddress
; CHECK-NOT: indirectbr
; CHECK-LABEL: define i32 @plain(
; CHECK-NEXT: ret i32 %x

define i32 @dispatch(i32 %s) {
entry:
  %t = icmp eq i32 %s, 0
  %addr = select i1 %t, ptr blockaddress(@dispatch, %a), ptr blockaddress(@dispatch, %b)
  indirectbr ptr %addr, [label %a, label %b]
a:
  ret i32 1
b:
  ret i32 2
}

define i32 @plain(i32 %x) {
  ret i32 %x
}
