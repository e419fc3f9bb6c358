//===- ThreadRangeSplit.cpp - a region's x loop split at a branch -*- C++ -*-===//
#include "cpu/ThreadRangeSplit.h"
#include "Primitives.h"
#include "cpu/Divergence.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

#include <algorithm>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace kernplug {
namespace {

/// The integer comparisons that must each have their Want for Cond == Want (through an
/// `and` that must be true, an `or` that must be false, negations); other leaves are left
/// out (they stay in the code: the range is where the listed ones hold).
void collectLeaves(Value *Cond, bool Want, SmallVectorImpl<IndexLeaf> &Cmps, unsigned Depth = 0) {
  Value *A, *B;
  if (Depth < 8 && match(Cond, m_Not(m_Value(A))))
    return collectLeaves(A, !Want, Cmps, Depth + 1);
  if (Depth < 8 && Want && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    return collectLeaves(A, true, Cmps, Depth + 1), collectLeaves(B, true, Cmps, Depth + 1);
  if (Depth < 8 && !Want && match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))
    return collectLeaves(A, false, Cmps, Depth + 1), collectLeaves(B, false, Cmps, Depth + 1);
  if (auto *Cmp = dyn_cast<ICmpInst>(Cond))
    Cmps.push_back({Cmp, Want, CmpInst::BAD_ICMP_PREDICATE, nullptr, {}});
}

bool isThreadX(const Value *V, const Argument *Idx) {
  std::optional<unsigned> Slot = indexLoadSlot(V, Idx);
  return Slot && *Slot == SlotTid;
}

/// V as x + sum of (sign, row value) Terms, exactly (no wrap: nsw adds for a signed
/// comparison, nuw for an unsigned one), or false.
bool xAffine(Value *V, const Argument *Idx, bool Signed, RowValueFn IsRowValue,
             SmallVectorImpl<std::pair<bool, Value *>> *Terms) {
  if (isThreadX(V, Idx))
    return true;
  Value *X;
  if (match(V, m_ZExtOrSExt(m_Value(X))) && isThreadX(X, Idx))
    return true; // threadIdx.x is below 2^31: either extension is the same
  auto *Op = dyn_cast<BinaryOperator>(V);
  if (!Op || (Op->getOpcode() != Instruction::Add && Op->getOpcode() != Instruction::Sub))
    return false;
  if (Signed ? !Op->hasNoSignedWrap() : !Op->hasNoUnsignedWrap())
    return false;
  Value *L = Op->getOperand(0), *R = Op->getOperand(1);
  if (IsRowValue(R) && xAffine(L, Idx, Signed, IsRowValue, Terms)) {
    if (Terms)
      Terms->push_back({Op->getOpcode() == Instruction::Sub, R});
    return true;
  }
  if (Op->getOpcode() == Instruction::Add && IsRowValue(L) &&
      xAffine(R, Idx, Signed, IsRowValue, Terms)) {
    if (Terms)
      Terms->push_back({false, L});
    return true;
  }
  return false;
}

/// Lf as `x + Terms Pred Bound` that must hold (filled into Lf); false if it is not one.
bool normalise(IndexLeaf &Lf, const Argument *Idx, RowValueFn IsRowValue) {
  ICmpInst *Cmp = Lf.Cmp;
  if (Cmp->isEquality() || !Cmp->getOperand(0)->getType()->isIntegerTy() ||
      Cmp->getOperand(0)->getType()->getIntegerBitWidth() > 64)
    return false;
  CmpInst::Predicate Pred = Lf.Want ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *XSide = Cmp->getOperand(0), *RowSide = Cmp->getOperand(1);
  if (!IsRowValue(RowSide)) {
    std::swap(XSide, RowSide);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  Lf.Terms.clear();
  if (!IsRowValue(RowSide) ||
      !xAffine(XSide, Idx, ICmpInst::isSigned(Pred), IsRowValue, &Lf.Terms))
    return false;
  Lf.Pred = Pred, Lf.Bound = RowSide;
  return true;
}

bool isLower(CmpInst::Predicate P) { return ICmpInst::isGT(P) || ICmpInst::isGE(P); }

/// `x == C` (C a constant) that must hold, Cmp's value then being Want: the interval
/// [C, C + 1), appended to Out as a lower and an upper leaf on Cmp (the tree reduction's
/// `if (tid == 0)` after its shuffles). False for anything else (`x != C` is two intervals).
bool equalityLeaves(ICmpInst *Cmp, CmpInst::Predicate Pred, bool Want, const Argument *Idx,
                    SmallVectorImpl<IndexLeaf> &Out) {
  Value *X = Cmp->getOperand(0), *Narrow;
  const APInt *C;
  if (Pred != ICmpInst::ICMP_EQ || !match(Cmp->getOperand(1), m_APInt(C)))
    return false;
  if (!isThreadX(X, Idx) && !(match(X, m_ZExtOrSExt(m_Value(Narrow))) && isThreadX(Narrow, Idx)))
    return false;
  if (C->isMaxValue())
    return false; // C + 1 wraps
  Type *Ty = X->getType();
  Out.push_back({Cmp, Want, ICmpInst::ICMP_UGE, ConstantInt::get(Ty, *C), {}});
  Out.push_back({Cmp, Want, ICmpInst::ICMP_ULT, ConstantInt::get(Ty, *C + 1), {}});
  return true;
}

/// Lf as InstCombine's form of `x >= C && x < C + N`: `x + K u< N` (or u<=) that must hold, K
/// and N constants, C = -K (mod 2^w): the x for which the sum, wrapping, is below N. That is
/// the one interval [C, C + N) when C + N <= 2^w: appended to Out as a lower and an upper
/// leaf on the same comparison. False for anything else (a negated range is two intervals).
bool constantRangeLeaves(const IndexLeaf &Lf, const Argument *Idx,
                         SmallVectorImpl<IndexLeaf> &Out) {
  ICmpInst *Cmp = Lf.Cmp;
  CmpInst::Predicate Pred = Lf.Want ? Cmp->getPredicate() : Cmp->getInversePredicate();
  if (equalityLeaves(Cmp, Pred, Lf.Want, Idx, Out))
    return true;
  Value *X;
  const APInt *K, *N;
  if ((Pred != ICmpInst::ICMP_ULT && Pred != ICmpInst::ICMP_ULE) ||
      !match(Cmp->getOperand(0), m_Add(m_Value(X), m_APInt(K))) ||
      !match(Cmp->getOperand(1), m_APInt(N)))
    return false;
  Value *Narrow;
  if (!isThreadX(X, Idx) && !(match(X, m_ZExtOrSExt(m_Value(Narrow))) && isThreadX(Narrow, Idx)))
    return false;
  unsigned W = K->getBitWidth();
  APInt Lo = (-*K).zext(2 * W);
  APInt Hi = Lo + N->zext(2 * W) + (Pred == ICmpInst::ICMP_ULE ? 1 : 0);
  if (Hi.ugt(APInt::getOneBitSet(2 * W, W)) || Hi.ule(Lo))
    return false; // wraps past 2^w: two intervals (or none)
  Type *Ty = Cmp->getOperand(0)->getType();
  Out.push_back({Cmp, Lf.Want, ICmpInst::ICMP_UGE, ConstantInt::get(Ty, Lo.trunc(W)), {}});
  if (Hi.ult(APInt::getOneBitSet(2 * W, W)))
    Out.push_back({Cmp, Lf.Want, ICmpInst::ICMP_ULT, ConstantInt::get(Ty, Hi.trunc(W)), {}});
  return true;
}

} // namespace

std::optional<IndexRange> findIndexRange(ArrayRef<BasicBlock *> Blocks, const Argument *Idx,
                                         RowValueFn IsRowValue) {
  for (BasicBlock *BB : Blocks) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    for (bool Want : {true, false}) {
      IndexRange R{Br, Br->getCondition(), Want, {}, {}};
      SmallVector<IndexLeaf, 8> Cmps;
      collectLeaves(R.Cond, Want, Cmps);
      for (IndexLeaf &Lf : Cmps) {
        if (normalise(Lf, Idx, IsRowValue))
          R.XLeaves.push_back(Lf);
        else if (constantRangeLeaves(Lf, Idx, R.XLeaves))
          continue;
        else if (IsRowValue(Lf.Cmp))
          R.RowLeaves.push_back(Lf);
      }
      if (!R.XLeaves.empty())
        return R;
    }
  }
  return std::nullopt;
}

bool hasLowerBound(const IndexRange &R) {
  return !R.RowLeaves.empty() ||
         any_of(R.XLeaves, [](const IndexLeaf &Lf) { return isLower(Lf.Pred); });
}

bool hasUpperBound(const IndexRange &R) {
  return any_of(R.XLeaves, [](const IndexLeaf &Lf) { return !isLower(Lf.Pred); });
}

/// Whether A and B are the same row value in one thread's run of a region: the same
/// value, or the same pure operations on the same operands, loads from the same slot of
/// the index array included (the split's bounds are recomputed at each use).
bool sameRowValue(Value *A, Value *B, const Argument *Idx, unsigned Depth = 0) {
  if (A == B)
    return true;
  auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
  if (!IA || !IB || Depth > 8 || !IA->isSameOperationAs(IB))
    return false;
  if (std::optional<unsigned> SA = indexLoadSlot(IA, Idx)) {
    std::optional<unsigned> SB = indexLoadSlot(IB, Idx);
    return SB && *SA == *SB;
  }
  if (IA->mayReadOrWriteMemory() || IA->mayHaveSideEffects() || isa<PHINode>(IA))
    return false;
  for (unsigned I = 0, N = IA->getNumOperands(); I < N; ++I)
    if (!sameRowValue(IA->getOperand(I), IB->getOperand(I), Idx, Depth + 1))
      return false;
  return true;
}

/// Each extension of Sub (a sub nuw nsw) taken as the subtraction of the extended operands,
/// which it equals: with a constant bound InstCombine turns `x - 1` into `x + -1` and drops
/// the nuw, and the 32-bit sum under a zext would not be a 64-bit induction variable.
void widenExtendedUses(BinaryOperator *Sub) {
  for (User *U : make_early_inc_range(Sub->users())) {
    auto *Ext = dyn_cast<CastInst>(U);
    if (!Ext || (!isa<ZExtInst>(Ext) && !isa<SExtInst>(Ext)))
      continue;
    IRBuilder<> B(Ext);
    Instruction::CastOps Op = Ext->getOpcode();
    Value *Wide = B.CreateSub(B.CreateCast(Op, Sub->getOperand(0), Ext->getType()),
                              B.CreateCast(Op, Sub->getOperand(1), Ext->getType()),
                              Sub->getName() + ".wide", /*HasNUW=*/true, /*HasNSW=*/true);
    Ext->replaceAllUsesWith(Wide);
    Ext->eraseFromParent();
  }
}

unsigned markIntervalNoWrap(const IndexRange &R, bool Above, ArrayRef<BasicBlock *> Blocks,
                            const Argument *Idx, function_ref<Value *(Value *)> CloneOf) {
  // The unsigned facts `x >= Bound` that hold for every x of the part (no terms: there
  // x - Bound lies in [0, x] exactly). Inside the interval every leaf holds; above it
  // x >= Hi, which is at least the limit of the one upper leaf `x u< Bound` (or u<=)
  // when there is just one (emitIndexRange: Hi = max(min(End, limit), Lo)).
  SmallVector<Value *, 2> Bounds;
  if (!Above) {
    for (const IndexLeaf &Lf : R.XLeaves)
      if ((Lf.Pred == ICmpInst::ICMP_UGE || Lf.Pred == ICmpInst::ICMP_UGT) && Lf.Terms.empty())
        Bounds.push_back(Lf.Bound);
  } else if (count_if(R.XLeaves, [](const IndexLeaf &Lf) { return !isLower(Lf.Pred); }) == 1) {
    for (const IndexLeaf &Lf : R.XLeaves)
      if ((Lf.Pred == ICmpInst::ICMP_ULT || Lf.Pred == ICmpInst::ICMP_ULE) && Lf.Terms.empty())
        Bounds.push_back(Lf.Bound);
  }
  unsigned Marked = 0;
  for (Value *Bound : Bounds)
    for (BasicBlock *BB : Blocks)
      for (Instruction &I : *BB) {
        Value *A, *Narrow;
        Value *Sub;
        if (!match(&I, m_Sub(m_Value(A), m_Value(Sub))) || !sameRowValue(Sub, Bound, Idx))
          continue;
        // x: threadIdx.x or its extension (below 2^31 either way).
        if (!isThreadX(A, Idx) &&
            !(match(A, m_ZExtOrSExt(m_Value(Narrow))) && isThreadX(Narrow, Idx)))
          continue;
        auto *Clone = dyn_cast_or_null<BinaryOperator>(CloneOf(&I));
        if (!Clone || Clone->getOpcode() != Instruction::Sub)
          continue;
        // Bound <= x < 2^31: x - Bound is in [0, x], no wrap either way. (LLVM 22's
        // InstCombine may have found nuw already; the widening is what it does not do.)
        ++Marked;
        Clone->setHasNoUnsignedWrap(true);
        Clone->setHasNoSignedWrap(true);
        widenExtendedUses(Clone);
      }
  return Marked;
}

std::pair<Value *, Value *> emitIndexRange(const IndexRange &R, IRBuilder<> &B, Value *Begin,
                                           Value *End, function_ref<Value *(Value *)> RowValue) {
  // Exact: x + Terms and Bound in twice their width (a few terms of at most 64 bits).
  unsigned Bits = 32;
  for (const IndexLeaf &Lf : R.XLeaves)
    Bits = std::max(Bits, Lf.Bound->getType()->getIntegerBitWidth());
  Type *Wide = B.getIntNTy(2 * Bits);
  Value *Lo = B.CreateZExt(Begin, Wide), *Hi = B.CreateZExt(End, Wide);
  for (const IndexLeaf &Lf : R.XLeaves) {
    bool Signed = ICmpInst::isSigned(Lf.Pred);
    auto Ext = [&](Value *V) {
      V = RowValue(V);
      return Signed ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide);
    };
    // x + Off Pred Bound  <=>  x Pred Bound - Off.
    Value *Limit = Ext(Lf.Bound);
    for (auto [Minus, Term] : Lf.Terms)
      Limit = Minus ? B.CreateAdd(Limit, Ext(Term)) : B.CreateSub(Limit, Ext(Term));
    if (ICmpInst::isLE(Lf.Pred) || ICmpInst::isGT(Lf.Pred))
      Limit = B.CreateAdd(Limit, ConstantInt::get(Wide, 1)); // x <= L is x < L + 1
    if (isLower(Lf.Pred))
      Lo = B.CreateBinaryIntrinsic(Intrinsic::smax, Lo, Limit);
    else
      Hi = B.CreateBinaryIntrinsic(Intrinsic::smin, Hi, Limit);
  }
  Value *WideEnd = B.CreateZExt(End, Wide);
  Lo = B.CreateBinaryIntrinsic(Intrinsic::smin, Lo, WideEnd);
  Hi = B.CreateBinaryIntrinsic(Intrinsic::smax,
                               B.CreateBinaryIntrinsic(Intrinsic::smin, Hi, WideEnd), Lo);
  // A row leaf that fails: no thread of the row is in the interval.
  Value *Empty = B.getFalse();
  for (const IndexLeaf &Lf : R.RowLeaves) {
    Value *Holds = RowValue(Lf.Cmp);
    Empty = B.CreateOr(Empty, Lf.Want ? B.CreateNot(Holds) : Holds);
  }
  Lo = B.CreateSelect(Empty, WideEnd, Lo);
  Hi = B.CreateSelect(Empty, WideEnd, Hi);
  Type *I32 = B.getInt32Ty();
  return {B.CreateTrunc(Lo, I32, "kp.x.lo"), B.CreateTrunc(Hi, I32, "kp.x.hi")};
}

bool readsOnlyThreadX(const Function &F, const Argument *Idx) {
  for (const Instruction &I : instructions(F))
    if (std::optional<unsigned> Slot = indexLoadSlot(&I, Idx);
        Slot && (*Slot == SlotTid + 1 || *Slot == SlotTid + 2))
      return false;
  return true;
}

void hintSplitPartInterleave(Instruction *LatchBranch) {
  LLVMContext &C = LatchBranch->getContext();
  MDNode *ID = LatchBranch->getMetadata(LLVMContext::MD_loop);
  SmallVector<Metadata *, 4> Ops{nullptr};
  if (ID)
    append_range(Ops, drop_begin(ID->operands()));
  Ops.push_back(MDNode::get(
      C, {MDString::get(C, "llvm.loop.interleave.count"),
          ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), SplitPartInterleave))}));
  MDNode *New = MDNode::getDistinct(C, Ops);
  New->replaceOperandWith(0, New);
  LatchBranch->setMetadata(LLVMContext::MD_loop, New);
}

} // namespace kernplug
