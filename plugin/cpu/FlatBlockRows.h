//===- FlatBlockRows.h - a row of blocks as one loop over the global x -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_CPU_FLATBLOCKROWS_H
#define KERNPLUG_PLUGIN_CPU_FLATBLOCKROWS_H

#include "llvm/IR/PassManager.h"

namespace kernplug {

/// kernplug-cpu-flat-block-rows: for each kernel that kept its block-loop entry
/// (kernplug-cpu-block-entry; not interchanged by kernplug-grid-stride-interchange), where
/// no GPU thread can observe another's order (proved on a simplified copy of the body) and
/// the body reads blockIdx.x and threadIdx.x only as blockIdx.x * blockDim.x + threadIdx.x,
/// a new <k>.kp.cpu_block that runs each row of consecutive blocks of its run as one loop
/// over that global x index, so that tiny blocks (4x4) vectorise like one long loop. The
/// block-loop entry is replaced; a remark says which entry each kernel got and why.
class CpuFlatBlockRowsPass : public llvm::PassInfoMixin<CpuFlatBlockRowsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace kernplug

#endif
