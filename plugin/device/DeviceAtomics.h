//===- DeviceAtomics.h - memory orderings NVPTX 19 can select ---*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DEVICEATOMICS_H
#define KERNPLUG_PLUGIN_DEVICEATOMICS_H

#include "llvm/IR/PassManager.h"

namespace kernplug {

/// Rewrites what LLVM 19's NVPTX instruction selection dies on into
/// equivalents it handles: fences and acquire/release/seq_cst atomic loads and
/// stores (C11 atomics, __sync_synchronize) become relaxed accesses with
/// `membar.sys`, and so do read-modify-write atomics stronger than relaxed, which
/// the backend would emit relaxed. Runs on the optimised module, before codegen.
void lowerAtomicOrderings(llvm::Module &Dev);

/// kernplug-lower-device-atomics: lowerAtomicOrderings, the last pass of the device
/// pipeline (DeviceCodegen.cpp).
class LowerDeviceAtomicsPass : public llvm::PassInfoMixin<LowerDeviceAtomicsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &Dev, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; } // NVPTX cannot select what it rewrites, at -O0 too
};

} // namespace kernplug

#endif
