//===- GridStrideInterchange.h - grid-stride loops outside the thread loop -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_CPU_GRIDSTRIDEINTERCHANGE_H
#define KERNPLUG_PLUGIN_CPU_GRIDSTRIDEINTERCHANGE_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace kernplug {

/// kernplug-grid-stride-interchange: for each kernel with a block-loop entry
/// (kernplug-cpu-block-entry) whose body is a grid-stride loop
/// (`for (i = grid(1); i < n; i += gridsize(1))`), and where the interchange is
/// proved legal, a new <k>.kp.cpu_block that runs the grid-stride loop outside
/// the loop over the worker's blocks and threads, so that consecutive threads
/// touch consecutive elements; the block-loop entry stays as its fallback. A
/// remark says which entry each kernel got and why.
/// Inlines F's calls to defined functions, then promotes its locals and hoists what its
/// loops do not change (SROA, CSE, InstCombine, LICM); false if it grows too large. The
/// form in which grid-stride loops are matched (also by GridStrideRounds.cpp).
bool simplifyGridStrideBody(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/// Whether Name is a C math function (or its f/l form): it touches no memory but errno.
bool isMathFunctionName(llvm::StringRef Name);

/// Why F or a function it calls orders GPU threads or touches per-block memory (a fence,
/// an atomic stronger than relaxed, a volatile access, shared memory, an opaque call), or
/// "" (also used by FlatBlockRows.cpp).
std::string whyThreadsOrdered(llvm::Function &F);

/// The indexed body a block-loop entry calls (CpuBlockEntry.cpp), or null (also used by
/// FlatBlockRows.cpp).
llvm::Function *bodyCalledBy(llvm::Function &BlockEntry);

class GridStrideInterchangePass : public llvm::PassInfoMixin<GridStrideInterchangePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace kernplug

#endif
