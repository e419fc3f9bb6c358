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
#include "DevicePass.h"
#include "KernelMetadata.h"
#include "Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses ProbeStacksPass::run(Module &M, ModuleAnalysisManager &) {
  SetVector<Function *> Reach;
  for (const KernelEntry &K : readKernelEntries(M))
    Reach.insert(K.Fn);
  if (Reach.empty())
    return PreservedAnalyses::all();
  for (size_t I = 0; I < Reach.size(); ++I)
    for (Instruction &Inst : instructions(*Reach[I]))
      if (auto *Call = dyn_cast<CallBase>(&Inst))
        if (Function *Callee = Call->getCalledFunction(); Callee && !Callee->isDeclaration())
          Reach.insert(Callee);
  for (Function *F : Reach)
    if (!F->isDeclaration() && !F->hasFnAttribute("probe-stack"))
      F->addFnAttr("probe-stack", "inline-asm");
  return PreservedAnalyses::none();
}

} // namespace kernplug
