; kernplug-cpu-debug-info: a generated CPU entry (no DISubprogram) gets an artificial one at its
; kernel's line; kernel code carrying the body's locations becomes code inlined there (also in
; debug records and loop metadata), instructions without a location get the kernel's line, and a
; block entry's index array becomes the variable kp_thread. Functions the user wrote, and
; modules without debug info, are left alone.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-cpu-debug-info -S %s | FileCheck %s

; CHECK: define internal void @k.kp.cpu_block(ptr %args, ptr %range) !dbg ![[SP:[0-9]+]]
; CHECK: %idx = alloca [13 x i32]
; CHECK-NEXT: #dbg_declare(ptr %idx, ![[VAR:[0-9]+]], !DIExpression(), ![[HERE:[0-9]+]])
; CHECK: call void @k.kp.blk(ptr %args, ptr %idx), !dbg ![[HERE]]
; CHECK: store i32 1, ptr %args, align 4, !dbg ![[INL:[0-9]+]]
; CHECK: br label %loop, !dbg ![[INL]], !llvm.loop ![[LOOP:[0-9]+]]
; CHECK-LABEL: define void @user(
; CHECK-NOT: !dbg
; CHECK: ret void
; CHECK: ![[SP]] = distinct !DISubprogram(name: "k.kp.cpu_block", linkageName: "k.kp.cpu_block", scope: ![[FILE:[0-9]+]], file: ![[FILE]], line: 3, {{.*}}flags: DIFlagArtificial, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition
; CHECK: ![[VAR]] = !DILocalVariable(name: "kp_thread", scope: ![[SP]], {{.*}}flags: DIFlagArtificial)
; CHECK: !DICompositeType(tag: DW_TAG_structure_type, name: "kp_thread_index", {{.*}}size: 416
; CHECK: !DIDerivedType(tag: DW_TAG_member, name: "blockIdx", {{.*}}size: 96, align: 32, offset: 96)
; CHECK: ![[HERE]] = !DILocation(line: 3, scope: ![[SP]])
; CHECK: ![[INL]] = !DILocation(line: 5, column: 7, scope: ![[BODY:[0-9]+]], inlinedAt: ![[HERE]])
; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[LSTART:[0-9]+]]}
; CHECK: ![[LSTART]] = !DILocation(line: 4, column: 3, scope: ![[BODY]], inlinedAt: ![[HERE]])

define void @k.kp.blk(ptr %x, ptr %idx) !dbg !5 {
  ret void, !dbg !9
}

define internal void @k.kp.cpu_block(ptr %args, ptr %range) {
entry:
  %idx = alloca [13 x i32]
  call void @k.kp.blk(ptr %args, ptr %idx)
  br label %loop
loop:
  store i32 1, ptr %args, align 4, !dbg !10
  br label %loop, !dbg !10, !llvm.loop !11
}

define void @user(ptr %p) {
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!9 = !DILocation(line: 6, column: 1, scope: !5)
!10 = !DILocation(line: 5, column: 7, scope: !5)
!11 = distinct !{!11, !12}
!12 = !DILocation(line: 4, column: 3, scope: !5)
