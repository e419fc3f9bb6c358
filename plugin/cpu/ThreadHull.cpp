//===- ThreadHull.cpp - the block-uniform hull of a split part's thread index -*- C++ -*-===//
#include "cpu/ThreadHull.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;

namespace kernplug {
namespace {

const char *const HullFactKind = "kernplug.thread_hull";

/// A fact `V u< A` (Upper) or `V u>= A` read from Cond, either operand order.
struct Bound {
  Value *V, *A;
  bool Upper;
};

std::optional<Bound> boundOf(Value *Cond) {
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return std::nullopt;
  Value *P = Cmp->getOperand(0), *Q = Cmp->getOperand(1);
  switch (Cmp->getPredicate()) {
  case ICmpInst::ICMP_ULT:
    return Bound{P, Q, true};
  case ICmpInst::ICMP_UGT:
    return Bound{Q, P, true};
  case ICmpInst::ICMP_UGE:
    return Bound{P, Q, false};
  case ICmpInst::ICMP_ULE:
    return Bound{Q, P, false};
  default:
    return std::nullopt;
  }
}

} // namespace

bool isThreadHullFact(const Instruction &I) {
  return isa<AssumeInst>(I) && I.getMetadata(HullFactKind);
}

void assumeThreadHull(IRBuilder<> &B, Value *X, Value *Begin, Value *End) {
  MDNode *Tag = MDNode::get(B.getContext(), {});
  for (Value *Cond : {B.CreateICmpUGE(X, Begin, "kp.hull.lo"), B.CreateICmpULT(X, End, "kp.hull.hi")})
    B.CreateAssumption(Cond)->setMetadata(HullFactKind, Tag);
}

SmallVector<ThreadHull, 2> findThreadHulls(Loop &L, ScalarEvolution &SE,
                                           const DominatorTree &DT) {
  SmallVector<ThreadHull, 2> Hulls;
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch)
    return Hulls;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  // Facts that hold on every iteration, as (recurrence, bound, upper?).
  SmallVector<std::tuple<const SCEVAddRecExpr *, const SCEV *, bool>, 4> Facts;
  for (BasicBlock *BB : L.blocks()) {
    if (!DT.dominates(BB, Latch) ||
        !all_of(Exiting, [&](BasicBlock *E) { return DT.dominates(BB, E); }))
      continue;
    for (Instruction &I : *BB) {
      if (!isThreadHullFact(I))
        continue;
      std::optional<Bound> Bd = boundOf(cast<AssumeInst>(I).getArgOperand(0));
      if (!Bd)
        continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Bd->V));
      const SCEV *A = SE.getSCEV(Bd->A);
      if (!AR || AR->getLoop() != &L || !AR->isAffine() || !AR->getStepRecurrence(SE)->isOne() ||
          !SE.isLoopInvariant(A, &L))
        continue;
      Facts.push_back({AR, A, Bd->Upper});
    }
  }
  for (auto [AR, A, Upper] : Facts) {
    if (!Upper)
      continue;
    // Step 1 and below A on every iteration: X never wraps in the loop (it would pass
    // 2^w - 1, which is not below A), so its values are exact integers in [Lo, A). Every
    // fact holds, so any lower one of the same X goes with any upper one.
    const SCEV *Lo = SE.getZero(AR->getType());
    for (auto [AR2, A2, Upper2] : Facts)
      if (!Upper2 && AR2 == AR)
        Lo = A2;
    Hulls.push_back({AR, Lo, A});
  }
  return Hulls;
}

bool eraseThreadHullFacts(Function &F) {
  SmallVector<Instruction *, 16> Facts;
  for (Instruction &I : instructions(F))
    if (isThreadHullFact(I))
      Facts.push_back(&I);
  for (Instruction *I : Facts) {
    Value *Cond = cast<AssumeInst>(I)->getArgOperand(0);
    I->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Cond);
  }
  return !Facts.empty();
}

} // namespace kernplug
