//===- ProbeStacksPass.cpp - kernplug-probe-stacks ---------------*- C++ -*-===//
//
// The CPU backend runs kernels with barriers on fibers whose stacks sit next to each other
// with a guard between them. A frame larger than the guard could step over it into another
// fiber's stack; stack probes (what -fstack-clash-protection adds) touch every page on the
// way down, so such a frame faults on the guard and is reported as a stack overflow. Every
// function the kernels reach gets them, not only the kernels: a helper's frame is as large
// (and at -O0 it is not inlined into one that probes).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"
#include "analysis/KernelCallGraph.h"

#include "llvm/IR/Function.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses ProbeStacksPass::run(Module &M, ModuleAnalysisManager &MAM) {
  const KernelCallGraph &Graph = MAM.getResult<KernelCallGraphAnalysis>(M);
  if (Graph.reached().empty())
    return PreservedAnalyses::all();
  for (Function *F : Graph.reached())
    if (!F->hasFnAttribute("probe-stack"))
      F->addFnAttr("probe-stack", "inline-asm");
  PreservedAnalyses PA;
  PA.preserve<KernelCallGraphAnalysis>(); // attributes only: the calls are the same
  return PA;
}

} // namespace kernplug
