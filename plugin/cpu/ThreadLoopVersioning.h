//===- ThreadLoopVersioning.h - guard-free copy of the thread loop -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_THREADLOOPVERSIONING_H
#define KERNPLUG_PLUGIN_THREADLOOPVERSIONING_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Instruction;
} // namespace llvm

namespace kernplug {

/// The function attribute of CPU block entries (CpuBlockEntry.cpp).
extern const char *const BlockEntryAttr;

/// Marks the loop whose latch ends with LatchBranch as a block entry's loop
/// over threadIdx.x, the loop ThreadLoopVersioningPass looks for.
void markThreadLoop(llvm::Instruction *LatchBranch);

/// Runs before the loop vectoriser: in block entries, adds a copy of the
/// thread loop without the guards (`if (i < n)`) that hold for the whole
/// block, chosen at run time.
class ThreadLoopVersioningPass : public llvm::PassInfoMixin<ThreadLoopVersioningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace kernplug

#endif
