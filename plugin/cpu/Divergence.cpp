//===- Divergence.cpp - thread-dependent values of an indexed body -*- C++ -*-===//
//
// BarrierFission.cpp runs a block's threads region by region, which is only
// right when every thread reaches the same barriers: it needs to know which
// branches may go different ways in different threads of a block. This is a
// small, conservative version of LLVM's UniformityAnalysis for the CPU clone
// of a kernel, where the thread indices are loads from the clone's index
// parameter (CpuBlockEntry.cpp) rather than target intrinsics. Anything it
// cannot prove uniform is divergent.
//
//===----------------------------------------------------------------------===//
#include "cpu/Divergence.h"
#include "cpu/CpuBlockEntry.h"
#include "Primitives.h"

#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace kernplug {

std::optional<unsigned> indexLoadSlot(const Value *V, const Argument *Idx) {
  auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || !Load->getType()->isIntegerTy(32))
    return std::nullopt;
  const Value *Ptr = Load->getPointerOperand();
  if (Ptr == Idx)
    return SlotTid;
  auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP || GEP->getPointerOperand() != Idx)
    return std::nullopt;
  APInt Offset(64, 0);
  if (!GEP->accumulateConstantOffset(Load->getDataLayout(), Offset) || Offset.urem(4) != 0 ||
      Offset.uge(4 * NumSlots))
    return std::nullopt;
  return static_cast<unsigned>(Offset.getZExtValue() / 4);
}

Divergence::Divergence(Function &F, const Argument *Idx, const PostDominatorTree &PDT) : Idx(Idx) {
  SmallPtrSet<const Instruction *, 8> Processed;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        if (!Div.contains(&I) &&
            (isSeed(I) || any_of(I.operands(), [&](const Use &U) { return Div.contains(U); }))) {
          Div.insert(&I);
          Changed = true;
        }
        if (I.isTerminator() && I.getNumSuccessors() > 1 && Div.contains(&I) &&
            Processed.insert(&I).second) {
          markSyncDependence(I, PDT);
          Changed = true;
        }
      }
  }
}

bool Divergence::isSeed(const Instruction &I) const {
  if (isa<LoadInst>(I)) {
    std::optional<unsigned> Slot = indexLoadSlot(&I, Idx);
    // Block and grid geometry are the same for every thread; the thread's own indices are not.
    return !Slot || *Slot < SlotCtaid || *Slot == SlotLinear;
  }
  if (isa<AtomicRMWInst, AtomicCmpXchgInst, AllocaInst>(I))
    return true;
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (Call->getType()->isVoidTy())
      return false;
    Function *Callee = Call->getCalledFunction();
    // The block's dynamic shared array is one address for all its threads.
    if (isPrimitive(Callee, PrimitiveClass::DynamicShared))
      return false;
    return Call->isInlineAsm() || !Call->doesNotAccessMemory();
  }
  // Terminators other than br/switch never reach here with successors (rejected earlier).
  return false;
}

void Divergence::markSyncDependence(const Instruction &Term, const PostDominatorTree &PDT) {
  const BasicBlock *From = Term.getParent();
  const DomTreeNode *Node = PDT.getNode(From);
  const DomTreeNode *IDom = Node ? Node->getIDom() : nullptr;
  const BasicBlock *Join = IDom ? IDom->getBlock() : nullptr; // nullptr: the function's exit
  Branch Br{&Term, {}};
  SmallVector<const BasicBlock *, 16> Work(successors(From));
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == Join || !Br.Region.insert(BB).second)
      continue;
    append_range(Work, successors(BB));
  }
  auto MarkPhis = [&](const BasicBlock *BB) {
    for (const PHINode &Phi : BB->phis())
      Div.insert(&Phi);
  };
  for (const BasicBlock *BB : Br.Region) {
    MarkPhis(BB);
    // Used after the threads have left the region at different times (a loop with a
    // divergent exit): each thread sees its own last value.
    for (const Instruction &I : *BB)
      if (any_of(I.users(), [&](const User *U) {
            return !Br.Region.contains(cast<Instruction>(U)->getParent());
          }))
        Div.insert(&I);
  }
  if (Join)
    MarkPhis(Join);
  Branches.push_back(std::move(Br));
}

} // namespace kernplug
