//===- BarrierFission.h - barrier kernels as loops over threads -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_BARRIERFISSION_H
#define KERNPLUG_PLUGIN_BARRIERFISSION_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace kernplug {

class CpuBlockEntryBuilder;

/// What buildBarrierBlockEntry made of a kernel with barriers.
struct FissionResult {
  llvm::Function *Entry = nullptr; // nullptr: the kernel keeps its fibers, because of WhyNot
  unsigned Regions = 0;
  bool Warps = false; // split at warp collectives too: the regions run warp by warp
  std::string WhyNot;
  std::string RegionLoops; // how the regions' thread loops run, for a remark (empty: plainly)
};

/// <Name>.kp.cpu_block for a kernel whose barriers are plain syncthreads() in
/// control flow that is uniform across the block: the body split at its
/// barriers into regions, each a loop over all the block's threads, so the
/// entry must be called with whole blocks. Body is left as is. FAM is the pipeline's:
/// the clone is cleaned up with its analyses (SROA, EarlyCSE, InstCombine).
FissionResult buildBarrierBlockEntry(CpuBlockEntryBuilder &Builder, llvm::Function *Body,
                                     const std::string &Name,
                                     llvm::FunctionAnalysisManager &FAM);

/// kernplug-barrier-fission: for each kernel kernplug-cpu-entry-policy gave a split,
/// <k>.kp.cpu_block split at its barriers, recorded in its !kernplug.kernels entry with
/// KP_KERNEL_CPU_BLOCK_BARRIERS; where the split cannot be proved right, the kernel keeps
/// its fibers (its entry says why). A remark says which.
class BarrierFissionPass : public llvm::PassInfoMixin<BarrierFissionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace kernplug

#endif
