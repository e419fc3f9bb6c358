//===- KernelCallGraph.cpp - what the kernels reach, computed once -*- C++ -*-===//
#include "analysis/KernelCallGraph.h"
#include "DevicePass.h"
#include "KernelMetadata.h"
#include "Primitives.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace kernplug {

AnalysisKey KernelCallGraphAnalysis::Key;

KernelCallGraph::KernelCallGraph(Module &M) {
  for (const KernelEntry &K : readKernelEntries(M))
    if (!K.Fn->isDeclaration()) {
      Kernels.insert(K.Fn);
      Reached.insert(K.Fn);
    }
  StringSet<> Imports;
  for (const std::string &Name : readTranslationUnitInfo(M).DeviceImports)
    Imports.insert(Name);
  // Callees in discovery order; each function's own primitives and calls.
  DenseMap<const Function *, SmallVector<Function *, 4>> Callees;
  for (size_t I = 0; I < Reached.size(); ++I) {
    Function *F = Reached[I];
    Reach &R = Reaches[F];
    for (Instruction &Inst : instructions(*F)) {
      auto *Call = dyn_cast<CallBase>(&Inst);
      if (!Call)
        continue;
      Function *Callee = Call->getCalledFunction();
      if (!Callee) {
        R.IndirectCall |= !Call->isInlineAsm();
        continue;
      }
      if (const Primitive *P = primitiveOf(Callee)) {
        R.Barrier |= P->Class == PrimitiveClass::Barrier || P->Class == PrimitiveClass::Collective;
        R.Warp |= P->Class == PrimitiveClass::Warp;
        R.GridBarrier |= P->Class == PrimitiveClass::GridBarrier;
        R.IndexRead |= P->Class == PrimitiveClass::Index;
      } else if (!Callee->isDeclaration()) {
        Callees[F].push_back(Callee);
        Reached.insert(Callee);
      } else if (Imports.contains(Callee->getName())) {
        R.ExternalDevice = true;
      }
    }
  }
  // What a callee reaches, its callers reach: to a fixed point (recursion).
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function *F : Reached) {
      Reach &R = Reaches[F];
      for (Function *Callee : Callees[F]) {
        const Reach &C = Reaches[Callee];
        Reach New{R.Barrier || C.Barrier,           R.GridBarrier || C.GridBarrier,
                  R.Warp || C.Warp,                 R.IndexRead || C.IndexRead,
                  R.IndirectCall || C.IndirectCall, R.ExternalDevice || C.ExternalDevice};
        if (New.Barrier != R.Barrier || New.GridBarrier != R.GridBarrier ||
            New.Warp != R.Warp || New.IndexRead != R.IndexRead ||
            New.IndirectCall != R.IndirectCall || New.ExternalDevice != R.ExternalDevice) {
          R = New;
          Changed = true;
        }
      }
    }
  }
}

const KernelCallGraph::Reach &KernelCallGraph::reachOf(const Function *F) const {
  static const Reach None;
  auto It = Reaches.find(F);
  return It == Reaches.end() ? None : It->second;
}

void KernelCallGraph::print(raw_ostream &OS) const {
  for (Function *F : Reached) {
    const Reach &R = reachOf(F);
    OS << (Kernels.contains(F) ? "kernel " : "function ") << F->getName() << ":";
    if (R.Barrier)
      OS << " barrier";
    if (R.GridBarrier)
      OS << " grid-barrier";
    if (R.Warp)
      OS << " warp";
    if (R.IndexRead)
      OS << " index";
    if (R.IndirectCall)
      OS << " indirect-call";
    if (R.ExternalDevice)
      OS << " external-device";
    OS << "\n";
  }
}

bool KernelCallGraph::invalidate(Module &, const PreservedAnalyses &PA,
                                 ModuleAnalysisManager::Invalidator &) {
  auto Checker = PA.getChecker<KernelCallGraphAnalysis>();
  return !Checker.preserved() && !Checker.preservedSet<AllAnalysesOn<Module>>();
}

PreservedAnalyses KernelCallGraphPrinter::run(Module &M, ModuleAnalysisManager &MAM) {
  MAM.getResult<KernelCallGraphAnalysis>(M).print(OS);
  return PreservedAnalyses::all();
}

} // namespace kernplug
