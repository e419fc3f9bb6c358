//===- CpuEntryPolicy.h - how the CPU backend enters each kernel -*- C++ -*-===//
//
// One place decides, per kernel, how the CPU backend runs it:
//  - block loop: no barriers or warp collectives, a loop over the block's threads
//    (CpuBlockEntry.cpp);
//  - split: barriers or warp collectives, cut into loops over the threads (or a warp's
//    lanes) between them (BarrierFission.cpp), where the split can be proved right; it falls
//    back to fibers, and says why, where it cannot;
//  - fibers: cpu-barriers=fibers: one fiber per thread.
// The decision goes into the kernel's !kernplug.kernels entry (KernelMetadata.h) for
// kernplug-host-stubs, which builds the entries and puts them into the descriptor (the
// block entry, KP_KERNEL_CPU_BLOCK_BARRIERS); a remark of pass kernplug says it.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_CPUENTRYPOLICY_H
#define KERNPLUG_PLUGIN_CPU_CPUENTRYPOLICY_H

#include "Passes.h"

namespace kernplug {

class CpuEntryPolicyPass : public llvm::PassInfoMixin<CpuEntryPolicyPass> {
public:
  explicit CpuEntryPolicyPass(PassState S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  PassState S;
};

} // namespace kernplug

#endif
