//===- FlatRowsEdgeCut.cpp - the flat rows' last piece cut at the problem size -*- C++ -*-===//
#include "cpu/FlatRowsEdgeCut.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace kernplug {
namespace {

/// V as a parameter of F other than Idx, through one extension, or nullptr.
const Argument *parameterOf(Value *V, const Argument *Idx) {
  Value *Inner;
  if (match(V, m_ZExtOrSExt(m_Value(Inner))))
    V = Inner;
  auto *A = dyn_cast<Argument>(V);
  return A && A != Idx ? A : nullptr;
}

std::optional<EdgeBound> leafBound(Value *Cond, bool Want, const Argument *Idx,
                                   function_ref<bool(const Value *)> IsGlobalX,
                                   unsigned Depth) {
  Value *A, *B;
  if (Depth < 4 && Want && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))) {
    if (auto Found = leafBound(A, true, Idx, IsGlobalX, Depth + 1))
      return Found;
    return leafBound(B, true, Idx, IsGlobalX, Depth + 1);
  }
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return std::nullopt;
  CmpInst::Predicate P = Want ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *X = Cmp->getOperand(0), *Bound = Cmp->getOperand(1);
  if (!IsGlobalX(X)) {
    std::swap(X, Bound);
    P = CmpInst::getSwappedPredicate(P);
  }
  const Argument *Param = parameterOf(Bound, Idx);
  if (!IsGlobalX(X) || !Param || (P != ICmpInst::ICMP_SLT && P != ICmpInst::ICMP_ULT))
    return std::nullopt;
  return EdgeBound{Param->getArgNo(), P == ICmpInst::ICMP_SLT};
}

/// Whether a thread for which Br goes to its false side does nothing: that side returns at
/// once, and every instruction of Br's block before it is free of effects and safe to
/// speculate (it cannot trap: the index array's loads are dereferenceable).
bool falseSideIsEmpty(BranchInst &Br) {
  BasicBlock *Past = Br.getSuccessor(1);
  if (!isa<ReturnInst>(&*Past->getFirstNonPHIOrDbg())) // an iterator in LLVM 22
    return false;
  for (Instruction &I : *Br.getParent())
    if (&I != &Br && !I.isDebugOrPseudoInst() && !isSafeToSpeculativelyExecute(&I))
      return false;
  return true;
}

} // namespace

std::optional<EdgeBound> findEdgeBound(Function &Work, const Argument *Idx,
                                       function_ref<bool(const Value *)> IsGlobalX) {
  // Not with full debug info (-g): there a debugger stops on the guarded lines in the
  // guarded copy (tests/kernels/gdb/optimised.gdb), which the cut would leave unused.
  if (const DISubprogram *SP = Work.getSubprogram();
      SP && SP->getUnit() && SP->getUnit()->getEmissionKind() == DICompileUnit::FullDebug)
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Work.getEntryBlock().getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  std::optional<EdgeBound> Found = leafBound(Br->getCondition(), true, Idx, IsGlobalX, 0);
  // A thread past the bound has its leaf false, so the whole condition (a leaf or an `and`
  // of leaves) false: it takes the false side.
  if (Found)
    Found->PastIsEmpty = falseSideIsEmpty(*Br);
  return Found;
}

} // namespace kernplug
