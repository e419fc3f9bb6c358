//===- IndirectBranches.h - computed goto as a switch -----------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_INDIRECTBRANCHES_H
#define KERNPLUG_PLUGIN_INDIRECTBRANCHES_H

#include "llvm/IR/PassManager.h"

namespace kernplug {

/// Rewrites the label addresses of F (`&&label`, blockaddress) as small
/// integers and each `goto *p` (indirectbr) as a switch over them. Returns
/// whether F changed.
bool expandIndirectBranches(llvm::Function &F);

/// kernplug-indirect-branches: expandIndirectBranches on each function. The device pass
/// (DeviceModule.cpp) calls it on the host functions the kernels reach only.
class IndirectBranchesPass : public llvm::PassInfoMixin<IndirectBranchesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &);
};

} // namespace kernplug

#endif
