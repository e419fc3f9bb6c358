//===- GridStrideRounds.cpp - grid-stride loops of split kernels in rounds -*- C++ -*-===//
//
// See GridStrideRounds.h for what and why. The copy is simplified first (inlined, SSA,
// loop-invariant code hoisted: GridStrideInterchange.cpp's form), so that a loop's step is
// seen to be fixed and its pointers' origins are visible.
//
//===----------------------------------------------------------------------===//
#include "cpu/GridStrideRounds.h"
#include "ClangCompat.h"
#include "DevicePass.h"
#include "Diagnostics.h"
#include "Primitives.h"
#include "cpu/GridStrideInterchange.h"

#include "attributes/Attributes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <optional>

using namespace llvm;

namespace kernplug {
namespace {

/// How many rounds ahead a round's loads are prefetched (prefetchedArrays).
const unsigned PrefetchRounds = 16;

/// The kinds of read-modify-write that commute with each other (add and sub are one kind).
std::optional<unsigned> commutingKind(AtomicRMWInst::BinOp Op) {
  switch (Op) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
    return 0;
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub:
    return 1;
  case AtomicRMWInst::Or:
  case AtomicRMWInst::And:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::Max:
  case AtomicRMWInst::Min:
  case AtomicRMWInst::UMax:
  case AtomicRMWInst::UMin:
  case AtomicRMWInst::FMax:
  case AtomicRMWInst::FMin:
    return 2 + unsigned(Op);
  default: // xchg, nand, inc/dec with wrap: the order of two of them shows
    return std::nullopt;
  }
}

bool strongerThanMonotonic(AtomicOrdering O) {
  return O != AtomicOrdering::NotAtomic && O != AtomicOrdering::Unordered &&
         O != AtomicOrdering::Monotonic;
}

/// Reads a grid dimension (gridDim.*): what makes a step a grid stride.
bool readsGridDim(const Value *V, unsigned Depth = 0) {
  if (auto *Call = dyn_cast<CallBase>(V)) {
    const Primitive *P = primitiveOf(Call->getCalledFunction());
    if (P && P->Class == PrimitiveClass::Index && P->Slot >= SlotNctaid &&
        P->Slot < SlotNctaid + 3)
      return true;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return false;
  return any_of(I->operands(), [&](const Use &Op) { return readsGridDim(Op.get(), Depth + 1); });
}

/// The checks of one loop: what it does with shared memory, and why it must keep its order.
class LoopCheck {
public:
  LoopCheck(const SmallPtrSetImpl<const Value *> &SharedVars, LoopInfo &LI)
      : SharedVars(SharedVars), LI(&LI) {}

  /// Why the rounds are not legal for L, or "".
  std::string whyNot(const Loop &L) {
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB) {
        std::string Why = whyInstruction(I);
        if (!Why.empty())
          return Why;
      }
    if (SharedRead && SharedKind)
      return "it reads shared memory that its atomics write";
    return "";
  }

private:
  /// Whether P may point into shared memory: anything but a kernel parameter, a local
  /// variable or a global that is not `shared`.
  bool maybeShared(const Value *P) const {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(P, Objects, LI);
    return any_of(Objects, [&](const Value *O) {
      if (isa<Argument>(O) || isa<AllocaInst>(O) || isa<ConstantPointerNull>(O))
        return false;
      if (auto *GV = dyn_cast<GlobalVariable>(O))
        return SharedVars.contains(GV);
      return true; // a loaded pointer, dynamic shared memory, ...: perhaps
    });
  }

  std::string sharedRMW(AtomicRMWInst::BinOp Op, bool ResultUsed) {
    if (ResultUsed)
      return "the result of an atomic on shared memory is used";
    std::optional<unsigned> Kind = commutingKind(Op);
    if (!Kind)
      return "it has an atomic on shared memory whose order shows (exchange, wrap)";
    if (SharedKind && *SharedKind != *Kind)
      return "it mixes kinds of atomics on shared memory";
    SharedKind = Kind;
    return "";
  }

  std::string whyCall(CallBase &Call) {
    if (Call.isInlineAsm())
      return "it has inline assembly";
    if (isa<DbgInfoIntrinsic>(Call) || isa<AssumeInst>(Call) || isa<NoAliasScopeDeclInst>(Call))
      return "";
    if (auto *II = dyn_cast<IntrinsicInst>(&Call)) {
      if (II->isLifetimeStartOrEnd() || II->getIntrinsicID() == Intrinsic::sideeffect)
        return "";
      if (auto *MI = dyn_cast<MemIntrinsic>(II)) {
        if (MI->isVolatile())
          return "it has a volatile memory copy";
        if (maybeShared(MI->getDest()))
          return "it copies into shared memory";
        if (auto *MT = dyn_cast<MemTransferInst>(MI); MT && maybeShared(MT->getSource()))
          SharedRead = true;
        return "";
      }
      if (II->doesNotAccessMemory())
        return "";
      return ("it calls " + II->getCalledFunction()->getName()).str();
    }
    Function *Callee = Call.getCalledFunction();
    if (!Callee)
      return "it makes an indirect call";
    if (const Primitive *P = primitiveOf(Callee)) {
      switch (P->Class) {
      case PrimitiveClass::Index:
      case PrimitiveClass::LaneId:
      case PrimitiveClass::DynamicShared:
        return "";
      case PrimitiveClass::Atomic:
        if (Call.arg_size() > 0 && maybeShared(Call.getArgOperand(0)))
          return ("it calls " + P->ShortName + "() on shared memory").str();
        return "";
      default:
        return ("it calls " + P->ShortName + "()").str();
      }
    }
    if (!Callee->isDeclaration())
      return ("it calls " + Callee->getName() + ", which was not inlined").str();
    if (Callee->doesNotAccessMemory() || isMathFunctionName(Callee->getName()))
      return "";
    return ("it calls " + Callee->getName() + ", which the analysis cannot see into").str();
  }

  std::string whyInstruction(Instruction &I) {
    if (isa<FenceInst>(I))
      return "it has a fence";
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (RMW->isVolatile() || strongerThanMonotonic(RMW->getOrdering()))
        return "it has an atomic stronger than relaxed";
      return maybeShared(RMW->getPointerOperand())
                 ? sharedRMW(RMW->getOperation(), !RMW->use_empty())
                 : "";
    }
    if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      if (CX->isVolatile() || strongerThanMonotonic(CX->getSuccessOrdering()) ||
          strongerThanMonotonic(CX->getFailureOrdering()))
        return "it has an atomic stronger than relaxed";
      return maybeShared(CX->getPointerOperand()) ? "it has a compare-and-swap on shared memory"
                                                   : "";
    }
    if (auto *Ld = dyn_cast<LoadInst>(&I)) {
      if (Ld->isVolatile() || strongerThanMonotonic(Ld->getOrdering()))
        return "it has a volatile or ordered load";
      if (maybeShared(Ld->getPointerOperand())) {
        if (Ld->isAtomic())
          return "it has an atomic load of shared memory";
        SharedRead = true;
      }
      return "";
    }
    if (auto *St = dyn_cast<StoreInst>(&I)) {
      if (St->isVolatile() || strongerThanMonotonic(St->getOrdering()))
        return "it has a volatile or ordered store";
      return maybeShared(St->getPointerOperand()) ? "it has a plain store to shared memory" : "";
    }
    if (auto *Call = dyn_cast<CallBase>(&I))
      return whyCall(*Call);
    if (I.mayReadOrWriteMemory())
      return "it has an access the analysis cannot see into";
    return "";
  }

  const SmallPtrSetImpl<const Value *> &SharedVars;
  LoopInfo *LI;
  bool SharedRead = false;
  std::optional<unsigned> SharedKind;
};

/// Whether V has the same value in every iteration of L: defined outside it, or pure
/// arithmetic on such values and the thread's indices (calls the optimiser may not hoist out
/// of a loop's conditional code, but constant for the thread).
bool isFixedIn(const Loop &L, const Value *V, unsigned Depth = 0) {
  if (L.isLoopInvariant(V))
    return true;
  if (auto *Call = dyn_cast<CallBase>(V)) {
    const Primitive *P = primitiveOf(Call->getCalledFunction());
    return P && P->Class == PrimitiveClass::Index;
  }
  auto *I = dyn_cast<Instruction>(V);
  // Also computed again where the loop did not (materialize): nothing that may trap.
  if (!I || Depth > 8 || isa<PHINode>(I) || !isSafeToSpeculativelyExecute(I))
    return false;
  return all_of(I->operands(), [&](const Use &Op) { return isFixedIn(L, Op.get(), Depth + 1); });
}

/// The counter of a grid-stride loop: a phi of its header stepped by a fixed amount that
/// reads gridDim. Only such loops walk memory a stride apart in every thread.
struct GridStrideCounter {
  PHINode *IV = nullptr;
  BinaryOperator *Next = nullptr; // IV + Step, on the way back to the header
  Value *Step = nullptr;
};

std::optional<GridStrideCounter> gridStrideCounter(const Loop &L) {
  BasicBlock *H = L.getHeader();
  for (PHINode &Phi : H->phis())
    for (unsigned K = 0; K < Phi.getNumIncomingValues(); ++K) {
      if (!L.contains(Phi.getIncomingBlock(K)))
        continue;
      auto *Next = dyn_cast<BinaryOperator>(Phi.getIncomingValue(K));
      if (!Next || Next->getOpcode() != Instruction::Add || !Phi.getType()->isIntegerTy())
        continue;
      Value *Step = Next->getOperand(0) == &Phi   ? Next->getOperand(1)
                    : Next->getOperand(1) == &Phi ? Next->getOperand(0)
                                                  : nullptr;
      if (Step && isFixedIn(L, Step) && readsGridDim(Step))
        return GridStrideCounter{&Phi, Next, Step};
    }
  return std::nullopt;
}

/// Why L's shape does not allow the rounds: its only way out is its header's test, and
/// the header, run again by a thread that waits, changes nothing.
std::string whyNotShape(const Loop &L) {
  BasicBlock *H = L.getHeader();
  if (L.getExitingBlock() != H || !L.getExitBlock())
    return "its loop has exits other than its condition (break or return in the loop)";
  auto *Br = dyn_cast<BranchInst>(H->getTerminator());
  if (!Br || !Br->isConditional())
    return "its loop condition is not a branch";
  for (Instruction &I : *H) {
    if (isa<PHINode>(I) || I.isTerminator() || isa<DbgInfoIntrinsic>(I))
      continue;
    if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
      return "its loop condition reads memory or has side effects";
  }
  return "";
}

/// while (syncthreads_or(runs)) if (runs) { body } : the header's exit branch becomes a
/// vote of the block's threads; a thread whose test failed loops back to the header with
/// its values unchanged until no thread has an iteration left.
void putInRounds(Loop &L, FunctionCallee Vote) {
  BasicBlock *H = L.getHeader();
  auto *Br = cast<BranchInst>(H->getTerminator());
  bool InOnTrue = L.contains(Br->getSuccessor(0));
  BasicBlock *In = Br->getSuccessor(InOnTrue ? 0 : 1), *Out = Br->getSuccessor(InOnTrue ? 1 : 0);
  LLVMContext &C = H->getContext();
  IRBuilder<> B(Br);
  Value *Runs = InOnTrue ? Br->getCondition() : B.CreateNot(Br->getCondition(), "gs.runs");
  Value *Any = B.CreateCall(Vote, {B.CreateZExt(Runs, B.getInt32Ty())}, "gs.round");
  auto *Go = BasicBlock::Create(C, H->getName() + ".gs.round", H->getParent(), In);
  B.CreateCondBr(B.CreateICmpNE(Any, B.getInt32(0)), Go, Out);
  Br->eraseFromParent();
  BranchInst::Create(In, H, Runs, Go);
  for (PHINode &Phi : In->phis())
    Phi.replaceIncomingBlockWith(H, Go);
  for (PHINode &Phi : H->phis())
    Phi.addIncoming(&Phi, Go);
}

/// A copy at Before of V, a value fixed in L (isFixedIn): what is defined in L is cloned.
Value *materialize(const Loop &L, Value *V, Instruction *Before) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || L.isLoopInvariant(I))
    return V;
  Instruction *Copy = I->clone();
  for (Use &Op : Copy->operands())
    Op.set(materialize(L, Op.get(), Before));
  Copy->insertBefore(Before->getIterator());
  return Copy;
}

/// Whether V is the same in every thread of a block: constants, arguments, the block's and
/// grid's indices and sizes, and pure arithmetic on them.
bool isBlockUniform(const Value *V, unsigned Depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  if (auto *Call = dyn_cast<CallBase>(V)) {
    const Primitive *P = primitiveOf(Call->getCalledFunction());
    return P && P->Class == PrimitiveClass::Index && P->Slot >= SlotCtaid;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || isa<PHINode>(I) || !isSafeToSpeculativelyExecute(I))
    return false;
  return all_of(I->operands(), [&](const Use &Op) { return isBlockUniform(Op.get(), Depth + 1); });
}

/// For start = X + threadIdx.x with X the same in the whole block: X; else null.
Value *blockFirstStart(Value *Start) {
  auto *Add = dyn_cast<BinaryOperator>(Start);
  if (!Add || (Add->getOpcode() != Instruction::Add &&
               !(Add->getOpcode() == Instruction::Or && cast<PossiblyDisjointInst>(Add)->isDisjoint())))
    return nullptr;
  for (unsigned Side = 0; Side < 2; ++Side) {
    auto *Call = dyn_cast<CallBase>(Add->getOperand(Side));
    const Primitive *P = Call ? primitiveOf(Call->getCalledFunction()) : nullptr;
    if (P && P->Class == PrimitiveClass::Index && P->Slot == SlotTid &&
        isBlockUniform(Add->getOperand(1 - Side)))
      return Add->getOperand(1 - Side);
  }
  return nullptr;
}

/// In rounds, a worker runs round k of a block's threads (blockDim consecutive elements),
/// then round k+1 a grid stride further on: a jump the hardware prefetchers do not follow,
/// so that each round would wait for memory. Each iteration asks for what the same thread
/// reads PrefetchRounds rounds later: for each array the loop reads at its counter (a[i]),
/// a prefetch of a[i + PrefetchRounds * step], computed in 64 bits (a prefetch past the end
/// of an array does nothing). The arrays: the loads' addresses a[i].
SmallVector<GetElementPtrInst *, 4> prefetchedArrays(Loop &L, const GridStrideCounter &Counter) {
  const unsigned MaxPrefetches = 4;
  SmallVector<GetElementPtrInst *, 4> Arrays;
  SmallPtrSet<const Value *, 4> Bases;
  auto IsCounter = [&](const Value *V) {
    if (auto *Ext = dyn_cast<CastInst>(V); Ext && (isa<SExtInst>(Ext) || isa<ZExtInst>(Ext)))
      V = Ext->getOperand(0);
    return V == Counter.IV;
  };
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Ld = dyn_cast<LoadInst>(&I); Ld && Ld->isSimple())
        if (auto *GEP = dyn_cast<GetElementPtrInst>(Ld->getPointerOperand());
            GEP && GEP->getNumIndices() == 1 && L.isLoopInvariant(GEP->getPointerOperand()) &&
            IsCounter(GEP->getOperand(1)) && Arrays.size() < MaxPrefetches &&
            Bases.insert(GEP->getPointerOperand()).second)
          Arrays.push_back(GEP);
  return Arrays;
}

/// A prefetch, at B, of each array's element Ahead (a 64-bit index).
void emitPrefetches(ArrayRef<GetElementPtrInst *> Arrays, IRBuilder<> &B, Value *Ahead) {
  Module &M = *B.GetInsertBlock()->getModule();
  Function *Prefetch = compat::intrinsic(M, Intrinsic::prefetch, {B.getPtrTy()});
  for (GetElementPtrInst *GEP : Arrays) {
    Value *Addr = B.CreateGEP(GEP->getSourceElementType(), GEP->getPointerOperand(), Ahead);
    B.CreateCall(Prefetch, {Addr, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
  }
}

/// The prefetches of the voting rounds (putInRounds): after the counter's step, from it.
void prefetchAfterStep(const GridStrideCounter &Counter, ArrayRef<GetElementPtrInst *> Arrays) {
  if (Arrays.empty())
    return;
  IRBuilder<> B(Counter.Next->getNextNode());
  Type *I64 = B.getInt64Ty();
  auto Wide = [&](Value *V) { return B.CreateSExtOrTrunc(V, I64); };
  Value *Ahead = B.CreateAdd(Wide(Counter.Next),
                             B.CreateMul(Wide(Counter.Step), B.getInt64(PrefetchRounds - 1)),
                             "gs.ahead");
  emitPrefetches(Arrays, B, Ahead);
}

/// A grid-stride loop `for (i = X + threadIdx.x; i < n; i += step)` in signed arithmetic that
/// may not wrap (nsw), on a counter of fewer than 64 bits, with X, n and step the same in the
/// whole block, its counter unused after it and its header's code safe to run on an i the
/// thread never had: its parts (blockStartLoop).
struct BlockStartLoop {
  BranchInst *Br = nullptr; // the header's exit test
  BasicBlock *Pre = nullptr, *In = nullptr, *Out = nullptr;
  Value *Start = nullptr, *X = nullptr, *Bound = nullptr;
  ICmpInst::Predicate Pred = ICmpInst::ICMP_SLT; // i Pred Bound: stay in the loop
  IntegerType *IntTy = nullptr;
};

std::optional<BlockStartLoop> blockStartLoop(Loop &L, const GridStrideCounter &Counter) {
  BasicBlock *H = L.getHeader();
  auto *Br = cast<BranchInst>(H->getTerminator());
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  BasicBlock *Pre = L.getLoopPreheader();
  if (!Cmp || !Pre || !Counter.Next->hasNoSignedWrap() || Counter.Next->getParent() == H)
    return std::nullopt;
  // The counter is recomputed after the test, which a use past the loop would not see.
  for (User *U : Counter.IV->users())
    if (!L.contains(cast<Instruction>(U)))
      return std::nullopt;
  // 64-bit arithmetic bounds every value only for narrower counters.
  if (Counter.IV->getType()->getIntegerBitWidth() >= 64)
    return std::nullopt;
  Value *Start = Counter.IV->getIncomingValueForBlock(Pre);
  Value *X = blockFirstStart(Start);
  if (!X || !isBlockUniform(Counter.Step))
    return std::nullopt;
  bool InOnTrue = L.contains(Br->getSuccessor(0));
  ICmpInst::Predicate Pred = InOnTrue ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *Bound = Cmp->getOperand(1);
  if (Cmp->getOperand(1) == Counter.IV) {
    Pred = ICmpInst::getSwappedPredicate(Pred);
    Bound = Cmp->getOperand(0);
  } else if (Cmp->getOperand(0) != Counter.IV) {
    return std::nullopt;
  }
  if ((Pred != ICmpInst::ICMP_SLT && Pred != ICmpInst::ICMP_SLE) || !isBlockUniform(Bound))
    return std::nullopt;
  // The header's other instructions (pure: whyNotShape) move after the test, where a thread
  // that has no iteration left computes them on an i it never had: none may trap, and none
  // may be used outside the loop.
  for (Instruction &I : *H) {
    if (!isa<PHINode>(I) && !I.isTerminator() && !isSafeToSpeculativelyExecute(&I))
      return std::nullopt;
    for (User *U : I.users())
      if (!L.contains(cast<Instruction>(U)))
        return std::nullopt;
  }
  BlockStartLoop S;
  S.Br = Br, S.Pre = Pre, S.Start = Start, S.X = X, S.Bound = Bound, S.Pred = Pred;
  S.In = Br->getSuccessor(InOnTrue ? 0 : 1), S.Out = Br->getSuccessor(InOnTrue ? 1 : 0);
  S.IntTy = cast<IntegerType>(Counter.IV->getType());
  return S;
}

/// The rounds without a vote, when the loop is `for (i = X + threadIdx.x; i < n; i += step)`
/// in signed arithmetic that may not wrap (nsw: a wrap would be undefined), on a counter of
/// fewer than 64 bits, with X, n and step the same in the whole block. Round k's i is start +
/// k * step, computed in 64 bits where it cannot wrap; some thread has iteration k exactly
/// when the block's lowest start, X (thread x = 0), has: so the rounds go on while X + k *
/// step < n, a test the same in every thread, after a plain barrier:
///
///   for (k = 0; syncthreads(), X + k * step < n; k++)
///     if (start + k * step < n) { body with i = start + k * step }
///
/// The loop keeps only k, one value for the block (the split keeps nothing per thread for
/// it); for each thread's own iterations i is what the repeated additions give. Where X +
/// threadIdx.x may wrap (X within blockDim.x of the largest int), the lowest start may be any
/// int: the test then starts from INT_MIN, so that it still holds while any thread has an
/// iteration left (extra rounds do nothing). Other values the loop carries stay in the
/// header's phis. The body's 64-bit i is start + k * step itself, and the prefetches of
/// Prefetched's arrays are made from it. False if the loop is not of that form.
bool putInRoundsByBlockStart(Loop &L, const GridStrideCounter &Counter, FunctionCallee Barrier,
                             ArrayRef<GetElementPtrInst *> Prefetched) {
  std::optional<BlockStartLoop> S = blockStartLoop(L, Counter);
  if (!S)
    return false;
  BasicBlock *H = L.getHeader();
  BranchInst *Br = S->Br;
  BasicBlock *Pre = S->Pre;
  Value *Start = S->Start, *X = S->X, *Bound = S->Bound;
  ICmpInst::Predicate Pred = S->Pred;
  LLVMContext &C = H->getContext();
  Function &F = *H->getParent();
  Module &M = *F.getParent();
  BasicBlock *In = S->In, *Out = S->Out;
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);
  SmallVector<Instruction *, 8> HeaderCode;
  for (Instruction &I : *H)
    if (!isa<PHINode>(I) && !I.isTerminator())
      HeaderCode.push_back(&I);
  auto *Go = BasicBlock::Create(C, H->getName() + ".gs.round", &F, In);
  auto *Join = BasicBlock::Create(C, H->getName() + ".gs.next", &F, In);
  Type *I64 = Type::getInt64Ty(C);
  IntegerType *IntTy = S->IntTy;
  auto Test = [&](IRBuilder<> &B, Value *Wide, Value *N) {
    return Pred == ICmpInst::ICMP_SLT ? B.CreateICmpSLT(Wide, N) : B.CreateICmpSLE(Wide, N);
  };

  // The header: k, the barrier, the block's test.
  PHINode *K = PHINode::Create(I64, 2, "gs.k");
  K->insertBefore(H->getFirstNonPHIIt());
  IRBuilder<> B(Br);
  B.CreateCall(Barrier);
  Value *Step64 = B.CreateSExt(materialize(L, Counter.Step, Br), I64);
  Value *N64 = B.CreateSExt(materialize(L, Bound, Br), I64);
  Value *X64 = B.CreateSExt(materialize(L, X, Br), I64);
  CallInst *NtidX =
      B.CreateCall(M.getOrInsertFunction(indexPrimitiveName(SlotNtid), B.getInt32Ty()));
  NtidX->setDoesNotAccessMemory();
  NtidX->setDoesNotThrow();
  NtidX->addFnAttr(Attribute::WillReturn);
  APInt Limit = APInt::getSignedMaxValue(IntTy->getBitWidth()).sext(64) + 1;
  Value *NoWrap = B.CreateICmpSLE(B.CreateAdd(X64, B.CreateZExt(NtidX, I64)), B.getInt(Limit));
  Value *IntMin = B.getInt(APInt::getSignedMinValue(IntTy->getBitWidth()).sext(64));
  Value *Lowest = B.CreateSelect(NoWrap, X64, IntMin, "gs.lowest");
  Value *KStep = B.CreateMul(K, Step64, "gs.kstep", false, true);
  B.CreateCondBr(Test(B, B.CreateAdd(Lowest, KStep, "", false, true), N64), Go, Out);
  Br->eraseFromParent();

  // After the test: the thread's i in round k, whether it has that iteration, and the
  // header's own (pure) code on that i.
  IRBuilder<> BG(Go);
  Value *Wide = BG.CreateAdd(BG.CreateSExt(Start, I64), KStep, "gs.i.wide", false, true);
  Value *Runs = Test(BG, Wide, N64);
  Value *I = BG.CreateTrunc(Wide, IntTy, "gs.i");
  BranchInst *GoBr = BG.CreateCondBr(Runs, In, Join);
  for (Instruction *Inst : HeaderCode)
    Inst->moveBefore(*GoBr->getParent(), GoBr->getIterator());
  for (PHINode &Phi : In->phis())
    Phi.replaceIncomingBlockWith(H, Go);

  // The latches go to Join, which steps k for every thread; the carried values meet there.
  IRBuilder<> BJ(Join);
  Value *KNext = BJ.CreateAdd(K, BJ.getInt64(1), "gs.k.next");
  BJ.CreateBr(H);
  K->addIncoming(BJ.getInt64(0), Pre);
  K->addIncoming(KNext, Join);
  for (PHINode &Phi : H->phis()) {
    if (&Phi == K || &Phi == Counter.IV)
      continue;
    PHINode *Meet = PHINode::Create(Phi.getType(), Latches.size() + 1, Phi.getName() + ".gs");
    Meet->insertBefore(Join->getFirstNonPHIIt());
    for (BasicBlock *Latch : Latches)
      Meet->addIncoming(Phi.getIncomingValueForBlock(Latch), Latch);
    Meet->addIncoming(&Phi, Go);
    for (BasicBlock *Latch : Latches)
      Phi.removeIncomingValue(Latch, /*DeletePHIIfEmpty=*/false);
    Phi.addIncoming(Meet, Join);
  }
  for (BasicBlock *Latch : Latches)
    Latch->getTerminator()->replaceSuccessorWith(H, Join);
  // In the thread's own iterations (the blocks after In) the 64-bit i is the counter's value
  // itself: the original reached it by additions that may not wrap (nsw), so it fits in the
  // counter's type, and its sign extension there is Wide. Without the extension of the
  // truncated value per element, the guard-free copy of the thread loop
  // (ThreadLoopVersioning.cpp) computes the index as one 64-bit induction variable.
  SmallVector<SExtInst *, 4> Widened;
  for (User *U : Counter.IV->users())
    if (auto *Ext = dyn_cast<SExtInst>(U);
        Ext && Ext->getType() == I64 && Ext->getParent() != Go)
      Widened.push_back(Ext);
  for (SExtInst *Ext : Widened) {
    Ext->replaceAllUsesWith(Wide);
    Ext->eraseFromParent();
  }
  Counter.IV->replaceAllUsesWith(I);
  Counter.IV->eraseFromParent();
  // The prefetches of what the thread reads PrefetchRounds rounds later, from Wide: no
  // 32-bit sum to extend per element.
  if (!Prefetched.empty()) {
    IRBuilder<> BP(&*In->getFirstInsertionPt());
    Value *Ahead = BP.CreateAdd(
        Wide, BP.CreateMul(Step64, BP.getInt64(PrefetchRounds), "", false, true), "gs.ahead");
    emitPrefetches(Prefetched, BP, Ahead);
  }
  return true;
}

/// Why the iterations of a block-start loop (S) may not be run by another thread of the
/// block than their own, or "": the loop carries nothing but its counter and leaves nothing
/// used after it, and its code does the same in every thread given i: what it takes from
/// before it is the same in the whole block (isBlockUniform), it never reads the thread's own
/// index and has no local array (a thread's stack is its own).
std::string whyNotRowRun(const Loop &L, const GridStrideCounter &Counter,
                         const BlockStartLoop &S) {
  for (PHINode &Phi : L.getHeader()->phis())
    if (&Phi != Counter.IV)
      return "it carries values other than its counter";
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);
  if (is_contained(Latches, L.getHeader()))
    return "its header steps the counter";
  for (PHINode &Phi : S.Out->phis())
    for (unsigned K = 0; K < Phi.getNumIncomingValues(); ++K)
      if (auto *I = dyn_cast<Instruction>(Phi.getIncomingValue(K)); I && L.contains(I))
        return "a value of the loop is used after it";
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<AllocaInst>(I))
        return "it has a local array";
      for (User *U : I.users())
        if (!L.contains(cast<Instruction>(U)))
          return "a value of the loop is used after it";
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (const Primitive *P = primitiveOf(Call->getCalledFunction());
            P && ((P->Class == PrimitiveClass::Index && P->Slot < SlotCtaid) ||
                  P->Class == PrimitiveClass::LaneId))
          return "it reads the thread's index";
      if (&I == Counter.IV)
        continue; // its start, X + threadIdx.x, is what the rows' loop replaces
      for (const Use &Op : I.operands()) {
        Value *V = Op.get();
        if (isa<BasicBlock>(V) || isa<Constant>(V) || isa<MetadataAsValue>(V) ||
            isa<InlineAsm>(V))
          continue;
        if (auto *OpI = dyn_cast<Instruction>(V); OpI && L.contains(OpI))
          continue;
        if (isa<AllocaInst>(getUnderlyingObject(V)) || !isBlockUniform(V))
          return "it uses a value that differs between the block's threads";
      }
    }
  return "";
}

/// How many times the span's loop (runByRowsFirstThread) is unrolled: LLVM's runtime
/// unrolling leaves it whole (inside the rows' loops), where OpenMP's `bins[v[i]]++` loop gets
/// four; unrolled, its counter's step and test are paid once per four elements.
const unsigned SpanUnroll = 4;

/// Gives the span's loop, whose latches end with Latches' branches, its own loop ID (the
/// thread-by-thread copy keeps the original's) asking for SpanUnroll.
void unrollSpanLoop(ArrayRef<BasicBlock *> Latches) {
  if (Latches.empty())
    return;
  LLVMContext &C = Latches.front()->getContext();
  SmallVector<Metadata *, 4> Ops{nullptr};
  if (MDNode *ID = Latches.front()->getTerminator()->getMetadata(LLVMContext::MD_loop))
    for (const MDOperand &Op : drop_begin(ID->operands()))
      if (auto *N = dyn_cast<MDNode>(Op.get());
          !N || N->getNumOperands() == 0 || !isa<MDString>(N->getOperand(0)) ||
          !cast<MDString>(N->getOperand(0))->getString().starts_with("llvm.loop.unroll"))
        Ops.push_back(Op.get());
  Ops.push_back(MDNode::get(
      C, {MDString::get(C, "llvm.loop.unroll.count"),
          ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), SpanUnroll))}));
  MDNode *New = MDNode::getDistinct(C, Ops);
  New->replaceOperandWith(0, New);
  for (BasicBlock *Latch : Latches)
    Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, New);
}

/// The iterations of a block-start loop S (whyNotRowRun: they do the same in any thread) run
/// by the first thread of each row of the block, between two barriers that every thread
/// reaches once, in rounds with the threads innermost, as one loop over each round's
/// elements:
///
///   syncthreads();
///   if (X + blockDim.x <= INT_MAX + 1 && step > 0) {   // the block's starts do not wrap
///     if (threadIdx.x == 0)
///       for (base = X; base < n; base += step)          // round k: base = X + k * step
///         for (i = base; i < min(base + blockDim.x, n); i++) body with i
///   } else {
///     the loop as it was, thread by thread
///   }
///   syncthreads();
///
/// i in 64 bits. Thread t's iteration k is i = X + t + k * step: the original reached it by
/// additions that may not wrap, so its sign extension is the 64-bit i; thread t has iteration
/// k exactly when X + t + k * step < n (step > 0: the values increase), and each thread's
/// iterations run in its order, k after k. The barriers keep every thread's code before the
/// loop before its iterations and its code after after them (a barrier that every thread
/// reaches equally often only restricts the interleavings; where the split cannot prove that
/// they all reach it, the split of this copy fails and the kernel's own is built). The
/// iterations are the only work of the rows' first threads between the barriers, with no
/// dispatch per round nor loop over the threads: a loop as it is written by hand. Each round
/// prefetches the lines its arrays (Prefetched) have PrefetchRounds rounds later, one
/// prefetch per 64 bytes.
void runByRowsFirstThread(Loop &L, const GridStrideCounter &Counter, FunctionCallee Barrier,
                          ArrayRef<GetElementPtrInst *> Prefetched, const BlockStartLoop &S) {
  BasicBlock *H = L.getHeader();
  Function &F = *H->getParent();
  Module &M = *F.getParent();
  LLVMContext &C = F.getContext();
  Type *I64 = Type::getInt64Ty(C);
  SmallVector<BasicBlock *, 16> Blocks(L.blocks());
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);

  // The loop as it is, thread by thread, for blocks whose starts may wrap.
  ValueToValueMapTy VM;
  SmallVector<BasicBlock *, 16> Copies;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *Copy = CloneBasicBlock(BB, VM, ".gs.thread", &F);
    VM[BB] = Copy;
    Copies.push_back(Copy);
  }
  remapInstructionsInBlocks(Copies, VM);

  auto Block = [&](const Twine &Name) { return BasicBlock::Create(C, H->getName() + Name, &F, H); };
  BasicBlock *Entry = Block(".gs.rows"), *First = Block(".gs.first"),
             *RoundH = Block(".gs.base"), *RoundBody = Block(".gs.span"),
             *ThreadByThread = Block(".gs.threads"), *After = Block(".gs.done");
  S.Pre->getTerminator()->replaceSuccessorWith(H, Entry);

  // The barrier, the block's values in 64 bits, the choice.
  BranchInst *Tmp = BranchInst::Create(H, Entry);
  IRBuilder<> B(Tmp);
  B.CreateCall(Barrier);
  Value *Step64 = B.CreateSExt(materialize(L, Counter.Step, Tmp), I64, "gs.step");
  Value *N64 = B.CreateSExt(materialize(L, S.Bound, Tmp), I64, "gs.n");
  Value *X64 = B.CreateSExt(materialize(L, S.X, Tmp), I64, "gs.x");
  auto ReadIndex = [&](IRBuilder<> &At, unsigned Slot) {
    CallInst *Call =
        At.CreateCall(M.getOrInsertFunction(indexPrimitiveName(Slot), At.getInt32Ty()));
    Call->setDoesNotAccessMemory();
    Call->setDoesNotThrow();
    Call->addFnAttr(Attribute::WillReturn);
    return Call;
  };
  Value *Ntid64 = B.CreateZExt(ReadIndex(B, SlotNtid), I64, "gs.ntid");
  APInt Limit = APInt::getSignedMaxValue(S.IntTy->getBitWidth()).sext(64) + 1;
  Value *NoWrap = B.CreateICmpSLE(B.CreateAdd(X64, Ntid64, "", false, true), B.getInt(Limit));
  Value *Rising = B.CreateICmpSGT(Step64, B.getInt64(0));
  B.CreateCondBr(B.CreateAnd(NoWrap, Rising, "gs.rows.ok"), First, ThreadByThread);
  Tmp->eraseFromParent();

  IRBuilder<> BF(First);
  BF.CreateCondBr(BF.CreateICmpEQ(ReadIndex(BF, SlotTid), BF.getInt32(0), "gs.row.first"),
                  RoundH, After);

  // The rounds: base = X + k * step while some thread has iteration k (thread 0 has).
  IRBuilder<> BR(RoundH);
  PHINode *Base = BR.CreatePHI(I64, 2, "gs.base");
  Value *More = S.Pred == ICmpInst::ICMP_SLT ? BR.CreateICmpSLT(Base, N64)
                                             : BR.CreateICmpSLE(Base, N64);
  BR.CreateCondBr(More, RoundBody, After);
  auto *RoundLatch = BasicBlock::Create(C, H->getName() + ".gs.base.next", &F, S.Out);
  IRBuilder<> BL(RoundLatch);
  Value *BaseNext = BL.CreateAdd(Base, Step64, "gs.base.next", false, true);
  BL.CreateBr(RoundH);
  Base->addIncoming(X64, First);
  Base->addIncoming(BaseNext, RoundLatch);

  // The round's span: [base, min(base + blockDim.x, n)) (n + 1 for i <= n).
  IRBuilder<> BS(RoundBody);
  Value *NEnd = S.Pred == ICmpInst::ICMP_SLT ? N64 : BS.CreateAdd(N64, BS.getInt64(1));
  Value *End = BS.CreateBinaryIntrinsic(Intrinsic::smin,
                                        BS.CreateAdd(Base, Ntid64, "", false, true), NEnd,
                                        nullptr, "gs.end");
  BasicBlock *ToLoop = RoundBody;
  if (!Prefetched.empty()) {
    // One prefetch per 64 bytes of what the round PrefetchRounds later reads.
    const DataLayout &DL = M.getDataLayout();
    uint64_t Widest = 0;
    for (GetElementPtrInst *GEP : Prefetched)
      Widest = std::max(Widest, DL.getTypeAllocSize(GEP->getSourceElementType()).getFixedValue());
    Value *Ahead = BS.CreateAdd(
        Base, BS.CreateMul(Step64, BS.getInt64(PrefetchRounds), "", false, true), "gs.ahead");
    SmallVector<Value *, 4> Lines;
    for (GetElementPtrInst *GEP : Prefetched)
      Lines.push_back(BS.CreateGEP(GEP->getSourceElementType(), GEP->getPointerOperand(), Ahead));
    Value *Bytes = BS.CreateMul(Ntid64, BS.getInt64(Widest), "gs.span.bytes");
    auto *Fetch = BasicBlock::Create(C, H->getName() + ".gs.prefetch", &F, H);
    BS.CreateBr(Fetch);
    IRBuilder<> BP(Fetch);
    PHINode *Off = BP.CreatePHI(I64, 2, "gs.line");
    Function *Prefetch = compat::intrinsic(M, Intrinsic::prefetch, {BP.getPtrTy()});
    for (Value *Line : Lines)
      BP.CreateCall(Prefetch, {BP.CreateGEP(BP.getInt8Ty(), Line, Off), BP.getInt32(0),
                               BP.getInt32(3), BP.getInt32(1)});
    Value *OffNext = BP.CreateAdd(Off, BP.getInt64(64), "gs.line.next", true, true);
    BP.CreateCondBr(BP.CreateICmpULT(OffNext, Bytes), Fetch, H);
    Off->addIncoming(BP.getInt64(0), RoundBody);
    Off->addIncoming(OffNext, Fetch);
    ToLoop = Fetch;
  } else {
    BS.CreateBr(H);
  }

  // The span's loop: the header counts i in 64 bits; the thread's counter is its truncation,
  // and its sign extensions are i itself.
  PHINode *I = PHINode::Create(I64, Latches.size() + 1, "gs.i");
  I->insertBefore(H->getFirstNonPHIIt());
  I->addIncoming(Base, ToLoop);
  for (BasicBlock *Latch : Latches) {
    IRBuilder<> BN(Latch->getTerminator());
    I->addIncoming(BN.CreateAdd(I, BN.getInt64(1), "gs.i.next", false, true), Latch);
  }
  Instruction *Narrow = CastInst::Create(Instruction::Trunc, I, S.IntTy, "gs.i.narrow");
  Narrow->insertBefore(H->getFirstNonPHIIt());
  SmallVector<SExtInst *, 4> Widened;
  for (User *U : Counter.IV->users())
    if (auto *Ext = dyn_cast<SExtInst>(U); Ext && Ext->getType() == I64)
      Widened.push_back(Ext);
  for (SExtInst *Ext : Widened) {
    Ext->replaceAllUsesWith(I);
    Ext->eraseFromParent();
  }
  Counter.IV->replaceAllUsesWith(Narrow);
  Counter.IV->eraseFromParent();
  if (Counter.Next->use_empty())
    Counter.Next->eraseFromParent();
  IRBuilder<> BH(S.Br);
  BH.CreateCondBr(BH.CreateICmpSLT(I, End, "gs.in.span"), S.In, RoundLatch);
  S.Br->eraseFromParent();
  unrollSpanLoop(Latches);

  // The thread-by-thread copy, from its own block; both leave through After.
  auto *CopyH = cast<BasicBlock>(VM[H]);
  BranchInst::Create(CopyH, ThreadByThread);
  for (PHINode &Phi : CopyH->phis())
    Phi.replaceIncomingBlockWith(S.Pre, ThreadByThread);
  for (BasicBlock *Copy : Copies)
    Copy->getTerminator()->replaceSuccessorWith(S.Out, After);
  // Out's values from the loop are from before it (whyNotRowRun): they come through After.
  for (PHINode &Phi : S.Out->phis())
    Phi.replaceIncomingBlockWith(H, After);
  IRBuilder<> BA(After);
  BA.CreateCall(Barrier);
  BA.CreateBr(S.Out);
}

/// Puts the outermost legal grid-stride loops under L in rounds; counts them, and keeps the
/// first reason a grid-stride loop was refused.
void visit(Loop &L, LoopCheck Proto, FunctionCallee Vote, FunctionCallee Barrier,
           GridStrideRounds &R) {
  if (std::optional<GridStrideCounter> Counter = gridStrideCounter(L)) {
    LoopCheck Check = Proto;
    std::string Why = whyNotShape(L);
    if (Why.empty())
      Why = Check.whyNot(L);
    if (Why.empty()) {
      SmallVector<GetElementPtrInst *, 4> Arrays = prefetchedArrays(L, *Counter);
      std::optional<BlockStartLoop> S = blockStartLoop(L, *Counter);
      std::string WhyNotRows = S ? whyNotRowRun(L, *Counter, *S) : "";
      if (S && WhyNotRows.empty()) {
        runByRowsFirstThread(L, *Counter, Barrier, Arrays, *S);
        ++R.RowRuns;
      } else if (putInRoundsByBlockStart(L, *Counter, Barrier, Arrays)) {
        ++R.Counted;
        if (R.WhyNotRowRun.empty())
          R.WhyNotRowRun = WhyNotRows;
      } else {
        prefetchAfterStep(*Counter, Arrays);
        putInRounds(L, Vote);
      }
      ++R.Loops;
      return;
    }
    if (R.WhyNot.empty())
      R.WhyNot = Why;
  }
  for (Loop *Sub : L.getSubLoops())
    visit(*Sub, Proto, Vote, Barrier, R);
}

/// Whether F, or a function it calls, reads gridDim: a cheap test before the copy, which
/// most kernels with barriers fail.
bool mayHaveGridStride(Function &Root) {
  SetVector<Function *> Reach;
  Reach.insert(&Root);
  for (size_t N = 0; N < Reach.size(); ++N)
    for (Instruction &I : instructions(*Reach[N]))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction()) {
          if (readsGridDim(Call))
            return true;
          if (!Callee->isDeclaration())
            Reach.insert(Callee);
        }
  return false;
}

/// The declarations of the barriers the copy called, when nothing calls them any more.
void dropUnusedDeclarations(Module &M) {
  for (StringRef Short : {"syncthreads_or", "syncthreads"})
    if (const Primitive *P = primitiveShortNamed(Short))
      if (Function *F = M.getFunction(P->Name); F && F->isDeclaration() && F->use_empty())
        F->eraseFromParent();
}

} // namespace

GridStrideRounds gridStrideRoundsBody(Function &Kernel, FunctionAnalysisManager &FAM) {
  GridStrideRounds R;
  if (Kernel.hasOptNone() || Kernel.isDeclaration() || !mayHaveGridStride(Kernel))
    return R; // -O0, or no grid-stride loop: the split stays as it is
  Module &M = *Kernel.getParent();
  const Primitive *Or = primitiveShortNamed("syncthreads_or");
  const Primitive *Sync = primitiveShortNamed("syncthreads");
  if (!Or || !Sync)
    return R;
  ValueToValueMapTy VMap;
  Function *Work = CloneFunction(&Kernel, VMap);
  Work->setName(Kernel.getName() + ".kp.rounds");
  auto Drop = [&] {
    FAM.clear(*Work, Work->getName());
    Work->eraseFromParent();
  };
  if (!simplifyGridStrideBody(*Work, FAM)) {
    Drop();
    return R;
  }
  SmallPtrSet<const Value *, 8> SharedVars;
  for (GlobalValue *GV : annotatedGlobals(M, AnnotShared, /*Remove=*/false))
    SharedVars.insert(GV);
  Type *I32 = Type::getInt32Ty(M.getContext());
  FunctionCallee Vote =
      M.getOrInsertFunction(Or->Name, FunctionType::get(I32, {I32}, false));
  FunctionCallee Barrier = M.getOrInsertFunction(
      Sync->Name, FunctionType::get(Type::getVoidTy(M.getContext()), false));
  for (FunctionCallee Fn : {Vote, Barrier})
    cast<Function>(Fn.getCallee())->addFnAttr(Attribute::Convergent);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(*Work);
  LoopCheck Proto(SharedVars, LI);
  SmallVector<Loop *, 4> Top(LI.begin(), LI.end());
  for (Loop *L : Top)
    visit(*L, Proto, Vote, Barrier, R);
  if (!R.Loops) {
    Drop();
    dropUnusedDeclarations(M);
    return R;
  }
  FAM.invalidate(*Work, PreservedAnalyses::none());
  R.Body = Work;
  return R;
}

void remarkGridStrideRounds(Function &HostFn, StringRef Kernel, const GridStrideRounds &R,
                            StringRef SplitWhyNot) {
  std::string Name = ("kernel '" + Kernel + "': ").str();
  if (R.Loops && SplitWhyNot.empty()) {
    // Each path with its count where the loops took more than one.
    unsigned Votes = R.Loops - R.RowRuns - R.Counted;
    bool Mixed = (R.RowRuns != 0) + (R.Counted != 0) + (Votes != 0) > 1;
    SmallVector<std::string, 3> Paths;
    auto Count = [&](unsigned N) { return Mixed ? std::to_string(N) + " " : std::string(); };
    if (R.RowRuns)
      Paths.push_back(Count(R.RowRuns) +
                      "one loop over each round's elements, run by the row's first thread, the "
                      "index in 64 bits (thread by thread where the block's starts would wrap)");
    if (R.Counted)
      Paths.push_back(Count(R.Counted) + "threads innermost; counted by the block, the index "
                                         "in 64 bits" +
                      (R.WhyNotRowRun.empty()
                           ? std::string()
                           : " (not one loop per row: " + R.WhyNotRowRun + ")"));
    if (Votes)
      Paths.push_back(Count(Votes) + "threads innermost; a vote of the threads each round");
    std::string Joined;
    for (const std::string &P : Paths)
      Joined += (Joined.empty() ? "" : "; ") + P;
    remark(HostFn, "GridStrideRounds",
           Name + std::to_string(R.Loops) +
               (R.Loops == 1 ? " grid-stride loop runs" : " grid-stride loops run") +
               " in rounds of the block's threads in the barrier split (" + Joined + ")");
  }
  else if (R.Loops)
    remark(HostFn, "GridStrideRounds",
           Name + "grid-stride loop kept thread by thread in the barrier split (the split of "
                  "the rounds failed: " +
               SplitWhyNot.str() + ")");
  else if (!R.WhyNot.empty())
    remark(HostFn, "GridStrideRounds",
           Name + "grid-stride loop kept thread by thread in the barrier split (" + R.WhyNot +
               ")");
}

void eraseGridStrideRoundsBody(GridStrideRounds &R, FunctionAnalysisManager &FAM) {
  if (!R.Body)
    return;
  Module &M = *R.Body->getParent();
  FAM.clear(*R.Body, R.Body->getName());
  R.Body->eraseFromParent();
  R.Body = nullptr;
  dropUnusedDeclarations(M);
}

} // namespace kernplug
