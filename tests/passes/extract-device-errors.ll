; kernplug-extract-device: what the AST checks cannot see (here an x86 intrinsic reached
; through a helper) is an error at the instruction that uses it: its DebugLoc, shown by
; clang as file:line:col (DiagnosticInfoUnsupported, Diagnostics.h).
; RUN: not %opt -load-pass-plugin %kernplug_passes -passes=kernplug-collect-kernels,kernplug-extract-device -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: in.c:4:3: in function helper void (): kernplug: device code uses the x86 intrinsic 'llvm.x86.sse2.pause'

define void @k(ptr %x) !dbg !10 {
  call void @helper(), !dbg !13
  store float 1.0, ptr %x
  ret void
}

define internal void @helper() !dbg !14 {
  call void @llvm.x86.sse2.pause(), !dbg !15
  ret void
}

declare void @llvm.x86.sse2.pause()

!llvm.dbg.cu = !{!5}
!llvm.module.flags = !{!8, !9}
!kernplug.main_file = !{!0}
!kernplug.functions = !{!1}
!0 = !{!"in.c"}
!1 = !{!"k", i32 0, !"in.c", i32 7, !{!2}, !3, !{}}
!2 = !{!"x", i32 1, i1 false, i1 false, i1 false, i64 8, i64 8, i64 4}
!3 = !{!"", i32 0, i1 false, i1 false, i1 false, i64 0, i64 1, i64 0}
!5 = distinct !DICompileUnit(language: DW_LANG_C11, file: !6, emissionKind: LineTablesOnly)
!6 = !DIFile(filename: "in.c", directory: "/tmp")
!7 = !DISubroutineType(types: !{})
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{i32 7, !"Dwarf Version", i32 5}
!10 = distinct !DISubprogram(name: "k", scope: !6, file: !6, line: 7, type: !7, unit: !5, spFlags: DISPFlagDefinition)
!13 = !DILocation(line: 8, column: 3, scope: !10)
!14 = distinct !DISubprogram(name: "helper", scope: !6, file: !6, line: 3, type: !7, unit: !5, spFlags: DISPFlagDefinition)
!15 = !DILocation(line: 4, column: 3, scope: !14)
