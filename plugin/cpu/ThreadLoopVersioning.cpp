//===- ThreadLoopVersioning.cpp - guard-free copy of the thread loop -*- C++ -*-===//
//
// A CPU block entry (CpuBlockEntry.cpp) loops over a block's threads with the
// kernel body inlined. Kernels start with a guard, `if (i < n)`, i = blockIdx.x
// * blockDim.x + threadIdx.x: inside the thread loop that is a branch on an
// induction variable, so every load and store of the body is conditional and
// the loop vectoriser gives up (x86-64 without AVX has no masked loads).
//
// The guard is monotone in the thread index, so it has one value for the whole
// block whenever it has that value at the first and at the last thread and the
// index does not wrap in between. (A branch on a loop-invariant condition is
// taken like a guard: the fast copy assumes the value of its heavier side.)
// This pass, run just before the vectoriser, versions the marked thread loop: a
// check in the preheader evaluates each such condition at both ends, and when
// all hold, a copy of the loop with the branches folded runs instead (a plain
// loop: it vectorises); otherwise the original loop. Only the last block of a
// grid (or blocks off the edge of a 2-D domain) takes the original, so the
// original is marked not to be unrolled: less code to compile. This is
// what IRCE does for range checks; IRCE itself does not take these loops (a
// `!=` latch and an upper check only).
//
//===----------------------------------------------------------------------===//
#include "cpu/ThreadLoopVersioning.h"
#include "ClangCompat.h"
#include "Diagnostics.h"
#include "cpu/ThreadHull.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace kernplug {

const char *const ThreadLoopMarker = "kernplug.thread_loop";
const char *const BlockEntryAttr = "kernplug-block-entry";

void markThreadLoop(Instruction *LatchBranch) {
  LLVMContext &C = LatchBranch->getContext();
  MDNode *Marker = MDNode::get(C, MDString::get(C, ThreadLoopMarker));
  MDNode *ID = MDNode::getDistinct(C, {nullptr, Marker});
  ID->replaceOperandWith(0, ID);
  LatchBranch->setMetadata(LLVMContext::MD_loop, ID);
}

namespace {

bool isMarker(const MDOperand &Op) {
  auto *N = dyn_cast<MDNode>(Op.get());
  auto *S = N && N->getNumOperands() == 1 ? dyn_cast<MDString>(N->getOperand(0)) : nullptr;
  return S && S->getString() == ThreadLoopMarker;
}

bool isMarked(const Loop &L) {
  MDNode *ID = L.getLoopID();
  return ID && llvm::any_of(drop_begin(ID->operands()), isMarker);
}

/// A new loop ID without the marker, so that neither version is versioned again.
void dropMarker(Loop &L) {
  MDNode *ID = L.getLoopID();
  if (!ID)
    return;
  SmallVector<Metadata *, 4> Ops{nullptr};
  for (const MDOperand &Op : drop_begin(ID->operands()))
    if (!isMarker(Op))
      Ops.push_back(Op.get());
  MDNode *New = MDNode::getDistinct(L.getHeader()->getContext(), Ops);
  New->replaceOperandWith(0, New);
  L.setLoopID(New);
}

/// Adds llvm.loop.unroll.disable and llvm.loop.isvectorized to L's loop ID: the guarded
/// copy of a versioned thread loop runs only where a guard changes within the block (the
/// grid's last block), so its runtime unrolling (and the remainder loop that comes with
/// it) and its vector copies would be code to compile for little run time.
void disableUnrolling(Loop &L) {
  LLVMContext &C = L.getHeader()->getContext();
  MDNode *ID = L.getLoopID();
  SmallVector<Metadata *, 4> Ops{nullptr};
  if (ID)
    append_range(Ops, drop_begin(ID->operands()));
  Ops.push_back(MDNode::get(C, {MDString::get(C, "llvm.loop.unroll.disable")}));
  Ops.push_back(MDNode::get(
      C, {MDString::get(C, "llvm.loop.isvectorized"),
          ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), 1))}));
  MDNode *New = MDNode::getDistinct(C, Ops);
  New->replaceOperandWith(0, New);
  L.setLoopID(New);
}

/// One comparison the fast version assumes to be Want on every iteration.
struct Leaf {
  ICmpInst *Cmp;
  bool Want;
};

/// Splits Cond == Want into comparisons that must each hold: an `and` that
/// must be true, an `or` that must be false, negations.
bool collectLeaves(Value *Cond, bool Want, SmallVectorImpl<Leaf> &Out) {
  Value *A, *B;
  if (match(Cond, m_Not(m_Value(A))))
    return collectLeaves(A, !Want, Out);
  if (Want && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    return collectLeaves(A, true, Out) && collectLeaves(B, true, Out);
  if (!Want && match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))
    return collectLeaves(A, false, Out) && collectLeaves(B, false, Out);
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return false;
  Out.push_back({Cmp, Want});
  return true;
}

/// The iterations a check covers: the loop's own (Hull null: each recurrence from its
/// start, Count the backedge-taken count) or the hull's (ThreadHull.h: each recurrence from
/// its value at the hull's Lo, Count the hull's length less one).
struct Span {
  const ThreadHull *Hull;
  Value *Count;
};

class Versioner {
public:
  Versioner(Loop &L, ScalarEvolution &SE, const SCEV *BTC)
      : L(L), SE(SE), PSE(SE, L), BTC(BTC), DL(L.getHeader()->getModule()->getDataLayout()),
        Exp(compat::makeSCEVExpander<SCEVExpander>(SE, DL, "kp.guard")) {}

  bool safeToExpand(const SCEV *S) {
    return Exp.isSafeToExpandAt(S, L.getLoopPreheader()->getTerminator());
  }

  /// Whether every leaf can be evaluated at the ends of the iteration space.
  bool analysable(const Leaf &Lf) {
    for (Value *Op : Lf.Cmp->operands()) {
      const SCEV *S = scevOf(Op);
      if (SE.isLoopInvariant(S, &L))
        continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(S);
      if (!AR || AR->getLoop() != &L || !AR->isAffine() || Lf.Cmp->isEquality())
        return false;
      auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
      if (!Step || Step->getAPInt().getSignificantBits() > 32 ||
          AR->getType()->getIntegerBitWidth() > 64)
        return false;
    }
    for (Value *Op : Lf.Cmp->operands())
      if (!safeToExpand(startOf(scevOf(Op))))
        return false;
    return true;
  }

  /// i1, emitted at B: the run-time assumptions the leaves' values were taken under hold
  /// (true when there are none).
  Value *assumptionsHold(IRBuilder<> &B) {
    const SCEVPredicate &Pred = PSE.getPredicate();
    if (Pred.isAlwaysTrue())
      return B.getTrue();
    return B.CreateNot(Exp.expandCodeForPredicate(&Pred, &*B.GetInsertPoint()));
  }

  /// i1: the leaf is Want at the first and at the last iteration, and no
  /// operand wraps in between (in the comparison's signedness), so that it is
  /// Want on every iteration. Emitted at B.
  Value *holdsThroughout(IRBuilder<> &B, const Leaf &Lf, const Span &Sp) {
    Value *OK = B.getTrue();
    Value *First[2], *Last[2];
    bool Signed = Lf.Cmp->isSigned();
    Type *Wide = B.getInt128Ty();
    Instruction *At = &*B.GetInsertPoint();
    for (unsigned I = 0; I < 2; ++I) {
      Value *Op = Lf.Cmp->getOperand(I);
      const SCEV *S = scevOf(Op);
      First[I] = Exp.expandCodeFor(startAt(S, Sp), Op->getType(), At);
      auto *AR = dyn_cast<SCEVAddRecExpr>(S);
      if (!AR || AR->getLoop() != &L) { // an outer loop's recurrence is fixed in L
        Last[I] = First[I];
        continue;
      }
      // The last value computed wide: ext(start) + step * backedge-taken count.
      Value *Count = Sp.Count;
      auto Ext = [&](Value *V) { return Signed ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide); };
      APInt Step = cast<SCEVConstant>(AR->getStepRecurrence(SE))->getAPInt();
      Value *WideLast = B.CreateAdd(
          Ext(First[I]), B.CreateMul(ConstantInt::get(Wide, Step.sext(128)),
                                     B.CreateZExt(Count, Wide)));
      Last[I] = B.CreateTrunc(WideLast, Op->getType());
      OK = B.CreateAnd(OK, B.CreateICmpEQ(Ext(Last[I]), WideLast)); // no wrap
      if (Signed)
        CheckedNoSignedWrap.insert(AR);
    }
    ICmpInst::Predicate P = Lf.Cmp->getPredicate();
    if (!Lf.Want)
      P = ICmpInst::getInversePredicate(P);
    OK = B.CreateAnd(OK, B.CreateICmp(P, First[0], First[1]));
    return B.CreateAnd(OK, B.CreateICmp(P, Last[0], Last[1]));
  }

  /// Where Ext sign-extends to i64 a narrower value of L whose add recurrence the check
  /// proves not to wrap (a signed leaf's operand, or a no-wrap predicate of PSE): that
  /// value as a 64-bit recurrence {sext(start),+,sext(step)}, which the fast copy may
  /// compute in 64 bits; else nullptr (SCEV already knows, or nothing is proved).
  const SCEVAddRecExpr *wideRecurrence(SExtInst *Ext) {
    if (!Ext->getType()->isIntegerTy(64))
      return nullptr;
    if (auto *Known = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ext)); Known && Known->getLoop() == &L)
      return nullptr;
    const SCEV *S = SE.getSCEV(Ext->getOperand(0));
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    if (!AR) {
      compat::SCEVPredicateList<SCEVPredicate> Preds;
      AR = SE.convertSCEVToAddRecWithPredicates(S, &L, Preds);
      if (!AR || !llvm::all_of(Preds, [&](const SCEVPredicate *P) {
            return compat::predicateImplies(PSE.getPredicate(), P, SE);
          }))
        return nullptr;
    }
    if (AR->getLoop() != &L || !AR->isAffine() ||
        !isa<SCEVConstant>(AR->getStepRecurrence(SE)))
      return nullptr;
    bool NoWrap = CheckedNoSignedWrap.count(AR) ||
                  compat::predicateImplies<SCEVPredicate>(
                      PSE.getPredicate(),
                      SE.getWrapPredicate(AR, SCEVWrapPredicate::IncrementNSSW), SE);
    if (!NoWrap)
      return nullptr;
    Type *I64 = Ext->getType();
    const SCEV *Start = SE.getSignExtendExpr(AR->getStart(), I64);
    const SCEV *Step = SE.getSignExtendExpr(AR->getStepRecurrence(SE), I64);
    return cast<SCEVAddRecExpr>(SE.getAddRecExpr(Start, Step, &L, SCEV::FlagAnyWrap));
  }

  Value *expandAt(const SCEV *S, Instruction *At) {
    return Exp.expandCodeFor(S, S->getType(), At);
  }

  /// Whether Cmp (eq or ne) compares an affine recurrence of L with a loop-invariant value
  /// that neverEqualThroughout can check at the loop's ends.
  bool analysableEquality(ICmpInst *Cmp) {
    if (!Cmp->isEquality() || !Cmp->getOperand(0)->getType()->isIntegerTy())
      return false;
    auto [Rec, Inv] = recurrenceAndInvariant(Cmp);
    if (!Rec || !safeToExpand(Rec->getStart()) || !safeToExpand(Inv))
      return false;
    auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
    return Step && !Step->getValue()->isZero() && Step->getAPInt().getSignificantBits() <= 32 &&
           Rec->getType()->getIntegerBitWidth() <= 64;
  }

  /// i1, emitted at B: Cmp's recurrence takes its values without unsigned wrap from the
  /// first iteration to the last, and the invariant side lies outside them (below the
  /// smaller end or above the larger): then the two sides are unequal on every iteration.
  Value *neverEqualThroughout(IRBuilder<> &B, ICmpInst *Cmp, const Span &Sp) {
    auto [Rec, Inv] = recurrenceAndInvariant(Cmp);
    Instruction *At = &*B.GetInsertPoint();
    Type *Ty = Cmp->getOperand(0)->getType(), *Wide = B.getInt128Ty();
    Value *First = Exp.expandCodeFor(startAt(Rec, Sp), Ty, At);
    Value *Other = Exp.expandCodeFor(Inv, Ty, At);
    Value *Count = Sp.Count;
    APInt Step = cast<SCEVConstant>(Rec->getStepRecurrence(SE))->getAPInt();
    Value *WideLast =
        B.CreateAdd(B.CreateZExt(First, Wide),
                    B.CreateMul(ConstantInt::get(Wide, Step.sext(128)), B.CreateZExt(Count, Wide)));
    Value *Last = B.CreateTrunc(WideLast, Ty);
    Value *NoWrap = B.CreateICmpEQ(B.CreateZExt(Last, Wide), WideLast);
    Value *Lo = B.CreateBinaryIntrinsic(Intrinsic::umin, First, Last);
    Value *Hi = B.CreateBinaryIntrinsic(Intrinsic::umax, First, Last);
    return B.CreateAnd(NoWrap,
                       B.CreateOr(B.CreateICmpULT(Other, Lo), B.CreateICmpUGT(Other, Hi)));
  }

  /// The loop's own iterations, the count emitted at B.
  Span rowSpan(IRBuilder<> &B) {
    return {nullptr, Exp.expandCodeFor(BTC, BTC->getType(), &*B.GetInsertPoint())};
  }

  /// The hull's iterations, emitted at B, and NonEmpty: the hull has a thread (Lo < End).
  Span hullSpan(IRBuilder<> &B, const ThreadHull &H, Value *&NonEmpty) {
    Instruction *At = &*B.GetInsertPoint();
    Type *Ty = H.X->getType();
    Value *Lo = Exp.expandCodeFor(H.Lo, Ty, At), *End = Exp.expandCodeFor(H.End, Ty, At);
    NonEmpty = B.CreateICmpULT(Lo, End);
    return {&H, B.CreateSub(B.CreateSub(End, ConstantInt::get(Ty, 1)), Lo)};
  }

  /// Whether Cmp's values at the ends of hull H (and the hull itself) are the same on
  /// every iteration of Outer and can be computed in its preheader: then its check over
  /// the hull runs once there.
  bool hullable(ICmpInst *Cmp, const ThreadHull &H, const Loop &Outer) {
    Instruction *At = Outer.getLoopPredecessor()->getTerminator();
    auto Fits = [&](const SCEV *S) {
      return SE.isLoopInvariant(S, &Outer) && Exp.isSafeToExpandAt(S, At);
    };
    if (!Fits(H.Lo) || !Fits(H.End))
      return false;
    Span Sp{&H, nullptr};
    for (Value *Op : Cmp->operands())
      if (!Fits(startAt(scevOf(Op), Sp)))
        return false;
    return true;
  }

  /// Whether Lf is known (to SCEV) to fail at an end of hull H: its check over H would
  /// always send the rows to their own check (`x > step` over a hull from x = 0).
  bool failsOverHull(const Leaf &Lf, const ThreadHull &H) {
    Span Sp{&H, nullptr};
    const SCEV *First[2], *Last[2];
    for (unsigned I = 0; I < 2; ++I) {
      const SCEV *S = scevOf(Lf.Cmp->getOperand(I));
      First[I] = Last[I] = startAt(S, Sp);
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && AR->getLoop() == &L) {
        Type *Ty = AR->getType();
        const SCEV *Count = SE.getTruncateOrZeroExtend(
            SE.getMinusSCEV(SE.getMinusSCEV(H.End, SE.getOne(H.End->getType())), H.Lo), Ty);
        Last[I] = SE.getAddExpr(First[I], SE.getMulExpr(AR->getStepRecurrence(SE), Count));
      }
    }
    ICmpInst::Predicate P = Lf.Cmp->getPredicate();
    if (Lf.Want) // the predicate that says the leaf fails
      P = ICmpInst::getInversePredicate(P);
    return SE.isKnownPredicate(P, First[0], First[1]) || SE.isKnownPredicate(P, Last[0], Last[1]);
  }

private:
  /// S's value where Sp's iterations start: a recurrence of L at the hull's Lo, else as
  /// startOf. The hull's X = S_x + k and S = S_0 + step * k on iteration k, with X exact (it
  /// does not wrap in the hull): S = S_0 + step * (X - S_x), in S's width.
  const SCEV *startAt(const SCEV *S, const Span &Sp) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    if (!Sp.Hull || !AR || AR->getLoop() != &L)
      return startOf(S);
    Type *Ty = AR->getType();
    const SCEV *Offset =
        SE.getMinusSCEV(SE.getTruncateOrZeroExtend(Sp.Hull->Lo, Ty),
                        SE.getTruncateOrZeroExtend(Sp.Hull->X->getStart(), Ty));
    return SE.getAddExpr(AR->getStart(), SE.getMulExpr(AR->getStepRecurrence(SE), Offset));
  }

  /// Cmp's operand that is an add recurrence of L (through scevOf) and the other, when
  /// that one is loop-invariant; {nullptr, nullptr} otherwise.
  std::pair<const SCEVAddRecExpr *, const SCEV *> recurrenceAndInvariant(ICmpInst *Cmp) {
    for (unsigned I = 0; I < 2; ++I) {
      auto *AR = dyn_cast<SCEVAddRecExpr>(scevOf(Cmp->getOperand(I)));
      const SCEV *Other = scevOf(Cmp->getOperand(1 - I));
      if (AR && AR->getLoop() == &L && AR->isAffine() && SE.isLoopInvariant(Other, &L))
        return {AR, Other};
    }
    return {nullptr, nullptr};
  }

  const SCEV *startOf(const SCEV *S) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    return AR && AR->getLoop() == &L ? AR->getStart() : S;
  }

  /// Op's SCEV; where that is not an add recurrence of L but would be one if a narrower
  /// counter did not wrap (a thread index added to a block offset in 32 bits and then
  /// sign-extended, as grid(1) and a grid-stride loop's rounds give), that recurrence,
  /// with the no-wrap condition kept in PSE for the run-time check (assumptionsHold).
  const SCEV *scevOf(Value *Op) {
    auto [It, New] = Taken.try_emplace(Op, nullptr);
    if (!New)
      return It->second;
    const SCEV *S = SE.getSCEV(Op);
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    if (!SE.isLoopInvariant(S, &L) && !(AR && AR->getLoop() == &L))
      if (const SCEVAddRecExpr *Pred = PSE.getAsAddRec(Op))
        S = Pred;
    return It->second = S;
  }

  Loop &L;
  ScalarEvolution &SE;
  PredicatedScalarEvolution PSE;
  DenseMap<Value *, const SCEV *> Taken;
  /// Add recurrences of signed leaves, which holdsThroughout checks do not wrap.
  SmallPtrSet<const SCEV *, 8> CheckedNoSignedWrap;
  const SCEV *BTC;
  const DataLayout &DL;
  SCEVExpander Exp;
};

struct Guard {
  BranchInst *Br;
  bool Dir; // the way the fast version always goes
};

/// Clones L before its preheader and makes the preheader choose between the
/// copies on Check; returns the map from L's values to the copy's.
Loop *versionLoop(Loop &L, BasicBlock *CheckBB, Value *Check, ValueToValueMapTy &VMap,
                  LoopInfo &LI, DominatorTree &DT) {
  BasicBlock *GuardedPH = SplitBlock(CheckBB, CheckBB->getTerminator(), &DT, &LI, nullptr,
                                     "kp.guarded.ph");
  SmallVector<BasicBlock *, 16> Blocks;
  Loop *Fast = cloneLoopWithPreheader(GuardedPH, CheckBB, &L, VMap, ".kp.fast", &LI, &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  BasicBlock *FastPH = Fast->getLoopPreheader();
  CheckBB->getTerminator()->eraseFromParent();
  BranchInst::Create(FastPH, GuardedPH, Check, CheckBB);
  // Both copies leave through the same exit blocks (L is in LCSSA form).
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits)
    for (PHINode &Phi : Exit->phis())
      for (unsigned I = 0, E = Phi.getNumIncomingValues(); I < E; ++I) {
        BasicBlock *In = Phi.getIncomingBlock(I);
        if (!L.contains(In))
          continue;
        Value *V = Phi.getIncomingValue(I);
        Value *Mapped = VMap.lookup(V);
        Phi.addIncoming(Mapped ? Mapped : V, cast<BasicBlock>(VMap[In]));
      }
  dropMarker(*Fast);
  return Fast;
}

/// In the fast copy Fast, replaces each sign extension of Wide (original -> its 64-bit
/// recurrence) by a 64-bit induction variable, so that the addresses built from it are
/// consecutive 64-bit indices to the vectoriser, not a 32-bit sum extended per element.
void widenIndices(Versioner &V, Loop &Fast, ValueToValueMapTy &VMap,
                  ArrayRef<std::pair<SExtInst *, const SCEVAddRecExpr *>> Wide) {
  BasicBlock *PH = Fast.getLoopPreheader(), *Header = Fast.getHeader(),
             *Latch = Fast.getLoopLatch();
  if (!PH || !Latch)
    return;
  for (auto [Ext, AR] : Wide) {
    auto *Copy = dyn_cast_or_null<Instruction>(VMap.lookup(Ext));
    if (!Copy)
      continue;
    Value *Start = V.expandAt(AR->getStart(), PH->getTerminator());
    auto *Step = cast<SCEVConstant>(AR->getOperand(1))->getValue();
    PHINode *Phi = PHINode::Create(Start->getType(), 2, Ext->getName() + ".kp.wide");
    Phi->insertBefore(Header->getFirstNonPHIIt());
    auto *Next = BinaryOperator::CreateAdd(Phi, Step, Phi->getName() + ".next",
                                           Latch->getTerminator()->getIterator());
    Phi->addIncoming(Start, PH);
    Phi->addIncoming(Next, Latch);
    Copy->replaceAllUsesWith(Phi);
    Copy->eraseFromParent();
  }
}

/// Whether L calls a function with no vector version (expf without -fveclib): the
/// vectoriser leaves such a loop alone with or without its guards, so a guard-free copy
/// would only be more code to compile. Intrinsics count as vectorisable.
bool hasScalarOnlyCall(const Loop &L, const TargetLibraryInfo &TLI) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      if (!Call || isa<IntrinsicInst>(Call) || Call->hasFnAttr("vector-function-abi-variant"))
        continue;
      Function *Callee = Call->getCalledFunction();
      if (!Callee || !TLI.isFunctionVectorizable(Callee->getName()))
        return true;
    }
  return false;
}

/// Instructions of L in the blocks From dominates: the work behind one side of a branch.
unsigned sideWeight(const Loop &L, const DominatorTree &DT, BasicBlock *From) {
  unsigned N = 0;
  for (BasicBlock *BB : L.blocks())
    if (DT.dominates(From, BB))
      N += BB->size();
  return N;
}

/// Whether V (an i1 of L) reaches an address in L: an index of a getelementptr, through
/// casts, selects and integer arithmetic. `gx == 0 ? tx : tx - 1` (a stencil's neighbour at
/// the domain's edge) makes the load it indexes a gather for the vectoriser.
bool feedsAddress(Instruction *V, const Loop &L) {
  SmallVector<Instruction *, 8> Work{V};
  SmallPtrSet<Instruction *, 16> Seen{V};
  while (!Work.empty() && Seen.size() < 32) {
    Instruction *I = Work.pop_back_val();
    for (User *U : I->users()) {
      auto *UI = dyn_cast<Instruction>(U);
      if (!UI || !L.contains(UI))
        continue;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(UI); GEP && GEP->getPointerOperand() != I)
        return true;
      if ((isa<CastInst, SelectInst>(UI) || UI->isBinaryOp()) && Seen.insert(UI).second)
        Work.push_back(UI);
    }
  }
  return false;
}

/// An equality comparison of the thread index with the domain's edge, and the value it has
/// in the guard-free copy (the edge not in the block: unequal throughout).
struct EdgeCompare {
  ICmpInst *Cmp;
  bool Unequal; // the value where the sides differ: true for ne
};

/// L's equality comparisons of an induction variable with a loop-invariant value that feed
/// addresses (feedsAddress): the guard-free copy folds each where the check proves the
/// value is never reached in the block (Versioner::neverEqualThroughout).
SmallVector<EdgeCompare, 4> collectEdgeCompares(Loop &L, Versioner &V) {
  SmallVector<EdgeCompare, 4> Out;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Cmp = dyn_cast<ICmpInst>(&I);
          Cmp && Cmp->isEquality() && feedsAddress(Cmp, L) && V.analysableEquality(Cmp))
        Out.push_back({Cmp, Cmp->getPredicate() == ICmpInst::ICMP_NE});
  return Out;
}

/// An innermost thread loop still marked, or nullptr.
/// Whether Ptr's objects are all kernel memory: a pointer parameter's array (the value of
/// a pointer loaded from the entry's args[]: a load of a load from an argument) or a global,
/// or, for ReadOnly, also a by-value parameter (a pointer loaded from args[]). Never the
/// entry's own stack (per-thread copies, a private array of the body), which one thread
/// after another reuses.
bool isKernelMemory(const Value *Ptr, bool ReadOnly) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, /*MaxLookup=*/0);
  auto LoadedFromArgs = [](const Value *V) {
    auto *L = dyn_cast<LoadInst>(V);
    return L && isa<Argument>(getUnderlyingObject(L->getPointerOperand(), 0));
  };
  for (const Value *O : Objects) {
    if (isa<GlobalVariable>(O))
      continue;
    if (ReadOnly && LoadedFromArgs(O))
      continue;
    auto *L = dyn_cast<LoadInst>(O);
    if (L && LoadedFromArgs(getUnderlyingObject(L->getPointerOperand(), 0)))
      continue;
    return false;
  }
  return !Objects.empty();
}

/// Marks the thread loop L parallel (llvm.loop.parallel_accesses) where that is sure: its
/// iterations are different GPU threads of a stretch without barriers, which have no order
/// among them on a GPU except through atomics and fences, so their plain loads and stores
/// may be reordered across iterations (each iteration's own stay in order). Only when every
/// memory access of the loop is a plain load or store of kernel memory (isKernelMemory):
/// atomics, fences, volatile, calls that touch memory and the entry's own stack keep the
/// loop unmarked, and the vectoriser's own dependence checks apply as before.
void markParallelAccesses(Loop &L) {
  SmallVector<Instruction *, 16> Accesses;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (!I.mayReadOrWriteMemory())
        continue;
      auto *Ld = dyn_cast<LoadInst>(&I);
      auto *St = dyn_cast<StoreInst>(&I);
      if (isThreadHullFact(I))
        continue; // an assume, not a memory access; erased after versioning
      if (!(Ld && Ld->isSimple()) && !(St && St->isSimple()))
        return;
      if (!isKernelMemory(getLoadStorePointerOperand(&I), Ld != nullptr))
        return;
      Accesses.push_back(&I);
    }
  if (Accesses.empty())
    return;
  LLVMContext &C = L.getHeader()->getContext();
  MDNode *Group = MDNode::getDistinct(C, {});
  for (Instruction *I : Accesses)
    I->setMetadata(LLVMContext::MD_access_group,
                   uniteAccessGroups(I->getMetadata(LLVMContext::MD_access_group), Group));
  MDNode *ID = L.getLoopID();
  SmallVector<Metadata *, 4> Ops{nullptr};
  if (ID)
    append_range(Ops, drop_begin(ID->operands()));
  Ops.push_back(MDNode::get(C, {MDString::get(C, "llvm.loop.parallel_accesses"), Group}));
  MDNode *New = MDNode::getDistinct(C, Ops);
  New->replaceOperandWith(0, New);
  L.setLoopID(New);
}

Loop *markedLoop(LoopInfo &LI) {
  for (Loop *Cand : LI.getLoopsInPreorder())
    if (Cand->isInnermost() && isMarked(*Cand))
      return Cand;
  return nullptr;
}

/// EdgeComparesFolded counts the fast copies' folded edge comparisons (collectEdgeCompares),
/// HullChecks the loops whose check is made once over the block's hull (ThreadHull.h).
bool versionThreadLoop(Function &F, Loop *L, LoopInfo &LI, FunctionAnalysisManager &FAM,
                       unsigned &EdgeComparesFolded, unsigned &HullChecks) {
  if (hasScalarOnlyCall(*L, FAM.getResult<TargetLibraryAnalysis>(F)))
    return false;
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  // SimplifyCFG may have folded the preheader away since the last LoopSimplify.
  bool Changed = simplifyLoop(L, &DT, &LI, &SE, &FAM.getResult<AssumptionAnalysis>(F), nullptr,
                              /*PreserveLCSSA=*/false);
  BasicBlock *Preheader = L->getLoopPreheader();
  BasicBlock *Latch = L->getLoopLatch();
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (!Preheader || !Latch || isa<SCEVCouldNotCompute>(BTC) ||
      BTC->getType()->getIntegerBitWidth() > 64)
    return Changed;
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);

  // Branches inside the body (not the loop's exits) that skip work: one side
  // post-dominates the branch, so the fast copy always takes the other.
  Versioner V(*L, SE, BTC);
  if (!V.safeToExpand(BTC))
    return Changed;
  SmallVector<Guard, 4> Guards;
  SmallVector<Leaf, 8> Leaves;
  for (BasicBlock *BB : L->blocks()) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional() || L->isLoopExiting(BB))
      continue;
    bool Dir;
    if (PDT.dominates(Br->getSuccessor(1), BB))
      Dir = true;
    else if (PDT.dominates(Br->getSuccessor(0), BB))
      Dir = false;
    else
      // Work on both sides: the same way for every thread where the condition is loop
      // invariant (in entries split at barriers: whether the block loads another tile or
      // finishes) or its leaves hold at both ends (a stencil's `0 < j && j < n - 1` inside a
      // flat row of blocks, FlatBlockRows.cpp): the fast copy takes the heavier side.
      Dir = sideWeight(*L, DT, Br->getSuccessor(0)) >= sideWeight(*L, DT, Br->getSuccessor(1));
    SmallVector<Leaf, 4> Mine;
    if (!collectLeaves(Br->getCondition(), Dir, Mine) ||
        !llvm::all_of(Mine, [&](const Leaf &Lf) { return V.analysable(Lf); }))
      continue;
    Guards.push_back({Br, Dir});
    Leaves.append(Mine);
  }
  // A loop whose only run-time facts are edge comparisons is versioned too: they make its
  // loads gathers (a stencil's interval loop, its guards folded by the barrier split).
  SmallVector<EdgeCompare, 4> Edges = collectEdgeCompares(*L, V);
  if (Guards.empty() && Edges.empty())
    return Changed;

  // The part of the check that holds over the block's hull (ThreadHull.h) is checked once
  // in an outer preheader; each row checks its own iterations only where that fails.
  SmallVector<ThreadHull, 2> Hulls = findThreadHulls(*L, SE, DT);
  // Outer loops are entered from one block (the check goes before its branch), though not
  // always from a preheader of their own at this point of the pipeline.
  Loop *Outer = Hulls.empty() ? nullptr : L->getParentLoop();
  if (Outer && !Outer->getLoopPredecessor())
    Outer = nullptr;
  // The hull that takes the most conditions out of the rows; those it cannot take (their
  // inputs change from row to row, or they fail over it) stay in the row's check.
  const ThreadHull *Hull = nullptr;
  SmallVector<const Leaf *, 8> HullLeaves;
  SmallVector<ICmpInst *, 4> HullEdges;
  for (const ThreadHull &H : Outer ? ArrayRef<ThreadHull>(Hulls) : ArrayRef<ThreadHull>()) {
    SmallVector<const Leaf *, 8> HL;
    SmallVector<ICmpInst *, 4> HE;
    // A leaf that fails at the hull's ends (`x > step` from x = 0) shows the loop covers
    // part of the hull only (the guards of a stretch the split did not fold): the hull then
    // takes no leaves, whose checks over it would fail in every block.
    bool LeafFails = false;
    for (const Leaf &Lf : Leaves)
      if (V.hullable(Lf.Cmp, H, *Outer)) {
        HL.push_back(&Lf);
        LeafFails |= V.failsOverHull(Lf, H);
      }
    if (LeafFails)
      HL.clear();
    for (const EdgeCompare &E : Edges)
      if (V.hullable(E.Cmp, H, *Outer))
        HE.push_back(E.Cmp);
    // Ties go to the later hull: the block's whole range, checked furthest out.
    if ((!HL.empty() || !HE.empty()) &&
        HL.size() + HE.size() >= HullLeaves.size() + HullEdges.size())
      Hull = &H, HullLeaves = HL, HullEdges = HE;
  }
  formLCSSA(*L, DT, &LI, &SE);
  IRBuilder<> B(Preheader->getTerminator());
  Span Row = V.rowSpan(B);
  Value *Check = V.assumptionsHold(B);
  for (const Leaf &Lf : Leaves)
    if (!is_contained(HullLeaves, &Lf))
      Check = B.CreateAnd(Check, V.holdsThroughout(B, Lf, Row));
  for (const EdgeCompare &E : Edges)
    if (!is_contained(HullEdges, E.Cmp))
      Check = B.CreateAnd(Check, V.neverEqualThroughout(B, E.Cmp, Row));
  BasicBlock *CheckBB = Preheader;
  if (!HullLeaves.empty() || !HullEdges.empty()) {
    // As far out as every input stays the same: once per block in a split entry.
    auto AllHullable = [&](const Loop &P) {
      return all_of(HullLeaves, [&](const Leaf *Lf) { return V.hullable(Lf->Cmp, *Hull, P); }) &&
             all_of(HullEdges, [&](ICmpInst *Cmp) { return V.hullable(Cmp, *Hull, P); });
    };
    while (Loop *P = Outer->getParentLoop())
      if (P->getLoopPredecessor() && AllHullable(*P))
        Outer = P;
      else
        break;
    IRBuilder<> HB(Outer->getLoopPredecessor()->getTerminator());
    Value *HullOK;
    Span HullSpan = V.hullSpan(HB, *Hull, HullOK);
    for (const Leaf *Lf : HullLeaves)
      HullOK = HB.CreateAnd(HullOK, V.holdsThroughout(HB, *Lf, HullSpan));
    for (ICmpInst *Cmp : HullEdges)
      HullOK = HB.CreateAnd(HullOK, V.neverEqualThroughout(HB, Cmp, HullSpan));
    HullOK->setName("kp.hull.ok");
    // hull || row: the row's own check of these only where the hull's fails (edge blocks).
    DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
    Instruction *RowTerm = SplitBlockAndInsertIfThen(B.CreateNot(HullOK),
                                                     Preheader->getTerminator(),
                                                     /*Unreachable=*/false, nullptr, &DTU, &LI);
    IRBuilder<> RB(RowTerm);
    Value *RowOK = RB.getTrue();
    for (const Leaf *Lf : HullLeaves)
      RowOK = RB.CreateAnd(RowOK, V.holdsThroughout(RB, *Lf, Row));
    for (ICmpInst *Cmp : HullEdges)
      RowOK = RB.CreateAnd(RowOK, V.neverEqualThroughout(RB, Cmp, Row));
    CheckBB = RowTerm->getSuccessor(0);
    PHINode *Either = PHINode::Create(RB.getInt1Ty(), 2, "kp.hull.or.row");
    Either->insertBefore(CheckBB->begin());
    Either->addIncoming(RB.getTrue(), Preheader);
    Either->addIncoming(RowOK, RowTerm->getParent());
    Check = BinaryOperator::CreateAnd(Check, Either, "", CheckBB->getTerminator()->getIterator());
    ++HullChecks;
  }
  SmallVector<std::pair<SExtInst *, const SCEVAddRecExpr *>, 4> Wide;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (auto *Ext = dyn_cast<SExtInst>(&I))
        if (const SCEVAddRecExpr *AR = V.wideRecurrence(Ext);
            AR && V.safeToExpand(AR->getStart()))
          Wide.push_back({Ext, AR});
  ValueToValueMapTy VMap;
  Loop *Fast = versionLoop(*L, CheckBB, Check, VMap, LI, DT);
  widenIndices(V, *Fast, VMap, Wide);
  dropMarker(*L);
  disableUnrolling(*L);
  for (const EdgeCompare &E : Edges) {
    auto *Copy = cast<Instruction>(VMap[E.Cmp]);
    Copy->replaceAllUsesWith(ConstantInt::getBool(F.getContext(), E.Unequal));
    Copy->eraseFromParent();
  }
  EdgeComparesFolded += Edges.size();
  for (const Guard &G : Guards) {
    auto *Br = cast<BranchInst>(VMap[G.Br]);
    Br->setCondition(ConstantInt::getBool(F.getContext(), G.Dir));
    ConstantFoldTerminator(Br->getParent(), /*DeleteDeadConditions=*/true);
  }
  removeUnreachableBlocks(F);
  return true;
}

} // namespace

PreservedAnalyses ThreadLoopVersioningPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(BlockEntryAttr) || F.isDeclaration())
    return PreservedAnalyses::all();
  // One thread loop per region in entries split at barriers (BarrierFission.cpp).
  bool Changed = false;
  unsigned EdgeComparesFolded = 0, HullChecks = 0;
  while (Loop *L = markedLoop(FAM.getResult<LoopAnalysis>(F))) {
    markParallelAccesses(*L); // before versioning: both copies keep it
    versionThreadLoop(F, L, FAM.getResult<LoopAnalysis>(F), FAM, EdgeComparesFolded, HullChecks);
    dropMarker(*L); // versioned or not, done with it
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  Changed |= eraseThreadHullFacts(F); // for this pass only: the vectoriser comes next
  if (HullChecks)
    remark(F, "ThreadLoopHull",
           "'" + F.getName() + "': " + Twine(HullChecks) +
               " thread loops check their guard-free copy's conditions once per block over "
               "the block's range of threadIdx.x (each row checks its own only where that "
               "fails)");
  if (EdgeComparesFolded)
    remark(F, "ThreadLoopEdges",
           "'" + F.getName() + "': " + Twine(EdgeComparesFolded) +
               " comparisons of the thread index with the domain's edge folded in the "
               "guard-free thread loops (they run where the check at the loop's ends proves "
               "the edge outside the block; the guarded loops elsewhere)");
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kernplug
