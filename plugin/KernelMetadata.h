//===- KernelMetadata.h - the AST's findings as module metadata -*- C++ -*-===//
//
// The one channel from the AST to the IR passes. At the start of the pipeline
// the clang-side wiring writes the TranslationUnitInfo into the module as
// named metadata; every pass reads it from there, so each runs alone under
// opt on an .ll file that carries it. The kernels the passes collect and
// generate travel the same way. This file is the only one that knows the
// format:
//
//   !kernplug.main_file = !{!"<file>"}
//   !kernplug.functions = !{F...}
//     F = !{!"<IR name>", i32 role, !"<file>", i32 line, !{P...}, P result, !{!"<sig>"...}}
//     P = !{!"<name>", i32 kind, i1 const, i1 signed, i1 float, i64 size, i64 align,
//           i64 elem size}
//   !kernplug.device_exports = !{!{!"<IR name>"}...}  `device` functions other files may call
//   !kernplug.device_imports = !{!{!"<IR name>"}...}  `device` functions defined elsewhere
//   !kernplug.kernels = !{K...}
//     K = !{!"<name>", ptr fn, ptr host fn, i1 vectorize, !"<signature>", i64 flags,
//           !"<file>", i32 line, !{!{!"<name>", i64 kind, i64 flags, i64 size,
//           i64 elem size}...}[, i32 CPU entry, !"<why>"[, ptr block entry,
//           ptr thread entry]]}
//     (the CPU entry, a CpuEntryKind, once kernplug-cpu-entry-policy decided it; the
//     entries, each null where there is none, once kernplug-cpu-block-entry or
//     kernplug-barrier-fission built them)
//
// eraseKernelMetadata takes all of it out before the object is emitted.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_KERNELMETADATA_H
#define KERNPLUG_PLUGIN_KERNELMETADATA_H

#include "frontend/TranslationUnitInfo.h"

#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace kernplug {

struct KernelEntry;

/// Writes Info into M (replacing what was there).
void writeTranslationUnitInfo(llvm::Module &M, const TranslationUnitInfo &Info);
/// What writeTranslationUnitInfo wrote; empty when M has none.
TranslationUnitInfo readTranslationUnitInfo(const llvm::Module &M);

/// Records the kernels the module provides (replacing the list).
void writeKernelEntries(llvm::Module &M, const std::vector<KernelEntry> &Kernels);
/// The recorded kernels whose functions are still in M.
std::vector<KernelEntry> readKernelEntries(const llvm::Module &M);

/// Takes every kernplug named metadata out of M.
void eraseKernelMetadata(llvm::Module &M);

} // namespace kernplug

#endif
