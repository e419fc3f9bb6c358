//===- FlagPaths.cpp - a phi of constants read as its branch conditions -*- C++ -*-===//
#include "cpu/FlagPaths.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace kernplug {

namespace {
const unsigned MaxTreeBlocks = 16;
} // namespace

std::optional<FlagPaths> flagPaths(PHINode &P, const DominatorTree &DT,
                                   function_ref<bool(BasicBlock *)> Stop) {
  BasicBlock *Join = P.getParent();
  if (!P.getType()->isIntegerTy() || P.getNumIncomingValues() < 2)
    return std::nullopt;
  DomTreeNode *Node = DT.getNode(Join);
  if (!Node || !Node->getIDom())
    return std::nullopt;
  BasicBlock *Top = Node->getIDom()->getBlock();
  // The tree from Top: each block's path (the branch conditions taken to get there).
  using Path = SmallVector<std::pair<Value *, bool>, 4>;
  DenseMap<BasicBlock *, Path> Tree{{Top, {}}};
  SmallVector<BasicBlock *, 8> Work{Top};
  SmallVector<std::pair<BasicBlock *, Path>, 4> Edges; // into the join
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (Stop(BB))
      return std::nullopt;
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || (Br->isConditional() && Br->getSuccessor(0) == Br->getSuccessor(1)))
      return std::nullopt;
    for (unsigned K = 0; K < Br->getNumSuccessors(); ++K) {
      BasicBlock *Succ = Br->getSuccessor(K);
      Path To = Tree[BB];
      if (Br->isConditional())
        To.push_back({Br->getCondition(), K == 0});
      if (Succ == Join) {
        Edges.push_back({BB, std::move(To)});
        continue;
      }
      if (Succ == Top || Succ->getSinglePredecessor() != BB || Tree.size() == MaxTreeBlocks)
        return std::nullopt; // leaves the tree, or a join inside it
      Tree[Succ] = std::move(To);
      Work.push_back(Succ);
    }
  }
  // Every edge into the join comes from the tree (the join's other predecessors, if any,
  // are not dominated by Top's tree: P is not a function of its branches).
  if (Edges.size() != P.getNumIncomingValues())
    return std::nullopt;
  FlagPaths FP;
  FP.Top = Top;
  unsigned Count[2] = {0, 0};
  Constant *Values[2] = {nullptr, nullptr};
  for (auto &[From, Taken] : Edges) {
    int K = P.getBasicBlockIndex(From);
    auto *C = K < 0 ? nullptr : dyn_cast<ConstantInt>(P.getIncomingValue(K));
    if (!C)
      return std::nullopt;
    unsigned Slot = !Values[0] || Values[0] == C ? 0 : 1;
    if (Slot == 1 && Values[1] && Values[1] != C)
      return std::nullopt; // three values
    Values[Slot] = C;
    ++Count[Slot];
  }
  if (!Values[1])
    return std::nullopt; // a constant, for InstCombine
  // The value reached by fewer paths is the one spelt out (for the hotspot's flags, the
  // path into the work: one conjunction the thread loops can split at).
  unsigned T = Count[1] < Count[0] || (Count[1] == Count[0] && Values[0]->isNullValue());
  FP.True = Values[T], FP.False = Values[1 - T];
  for (auto &[From, Taken] : Edges)
    if (P.getIncomingValueForBlock(From) == FP.True)
      FP.Paths.push_back(Taken);
  return FP;
}

Value *emitFlagCondition(const FlagPaths &FP, IRBuilder<> &B,
                         function_ref<Value *(Value *)> Clone) {
  Value *Any = nullptr;
  for (const auto &Path : FP.Paths) {
    Value *All = nullptr;
    for (auto [Cond, Way] : Path) {
      Value *V = Clone(Cond);
      if (!Way)
        V = B.CreateNot(V);
      All = All ? B.CreateLogicalAnd(All, V) : V;
    }
    if (!All)
      All = B.getTrue();
    Any = Any ? B.CreateLogicalOr(Any, All) : All;
  }
  return Any ? Any : B.getFalse();
}

Value *emitFlagValue(const FlagPaths &FP, IRBuilder<> &B, Value *Cond) {
  if (FP.True->getType()->isIntegerTy(1))
    return FP.True->isOneValue() ? Cond : B.CreateNot(Cond);
  return B.CreateSelect(Cond, FP.True, FP.False);
}

} // namespace kernplug
