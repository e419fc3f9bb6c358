//===- GridStrideInterchange.h - grid-stride loops outside the thread loop -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_CPU_GRIDSTRIDEINTERCHANGE_H
#define KERNPLUG_PLUGIN_CPU_GRIDSTRIDEINTERCHANGE_H

#include "llvm/IR/PassManager.h"

namespace kernplug {

/// kernplug-grid-stride-interchange: for each kernel with a block-loop entry
/// (kernplug-cpu-block-entry) whose body is a grid-stride loop
/// (`for (i = grid(1); i < n; i += gridsize(1))`), and where the interchange is
/// proved legal, a new <k>.kp.cpu_block that runs the grid-stride loop outside
/// the loop over the worker's blocks and threads, so that consecutive threads
/// touch consecutive elements; the block-loop entry stays as its fallback. A
/// remark says which entry each kernel got and why.
class GridStrideInterchangePass : public llvm::PassInfoMixin<GridStrideInterchangePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace kernplug

#endif
