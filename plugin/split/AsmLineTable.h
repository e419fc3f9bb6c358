//===- AsmLineTable.h - split mode: the line table written out ---*- C++ -*-===//
//
// -fplugin-arg-kernplug-asm-line-table (kernplug-gcc.so passes it with -g): the x86-64
// assembly clang writes carries its DWARF line table as .debug_line data instead of
// .file/.loc directives, as GCC's does under -gno-as-loc-support. The GNU assembler then
// only concatenates the two compilers' .debug_* sections, and the joined object has two
// compile units, each with its own line program; with directives on either side it
// rejects the file (two .file tables; .loc next to a hand-written .debug_line).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_SPLIT_ASMLINETABLE_H
#define KERNPLUG_SPLIT_ASMLINETABLE_H

#include <string>

namespace kernplug {

/// Makes every x86-64 MCAsmInfo created from now on in this process say that the
/// assembler has no .file/.loc directives, so that LLVM writes .debug_line itself. False
/// with Error set when this LLVM has no x86-64 target.
bool writeLineTablesInAssembly(std::string &Error);

} // namespace kernplug

#endif
