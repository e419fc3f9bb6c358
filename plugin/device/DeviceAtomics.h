//===- DeviceAtomics.h - memory orderings NVPTX 19 can select ---*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DEVICEATOMICS_H
#define KERNPLUG_PLUGIN_DEVICEATOMICS_H

namespace llvm {
class Module;
} // namespace llvm

namespace kernplug {

/// Rewrites what LLVM 19's NVPTX instruction selection dies on into
/// equivalents it handles: fences and acquire/release/seq_cst atomic loads and
/// stores (C11 atomics, __sync_synchronize) become relaxed accesses with
/// `membar.sys`, and so do read-modify-write atomics stronger than relaxed, which
/// the backend would emit relaxed. Runs on the optimised module, before codegen.
void lowerAtomicOrderings(llvm::Module &Dev);

} // namespace kernplug

#endif
