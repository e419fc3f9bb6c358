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
// A load from a uniform address is uniform when no write in its barrier interval
// (the code that may run between the same two block barriers) may alias it:
// every write an other thread makes before the barrier it follows is seen by all
// threads, none made after the next barrier is, and one made in between by
// another thread would race with the load (undefined on the GPU too); one the
// thread itself made in between would make its value its own, so any such write
// keeps the load divergent. Volatile and atomic loads stay divergent (another
// block or the host may be writing), as do reads of the thread's index array.
//
//===----------------------------------------------------------------------===//
#include "cpu/Divergence.h"
#include "cpu/CpuBlockEntry.h"
#include "Primitives.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
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

/// A block barrier: every thread of the block waits there, and sees the others' writes after.
static bool isBlockBarrierCall(const Instruction &I) {
  auto *Call = dyn_cast<CallBase>(&I);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return isPrimitive(Callee, PrimitiveClass::Barrier) ||
         isPrimitive(Callee, PrimitiveClass::Collective);
}

void Divergence::findBarrierIntervals(Function &F) {
  SmallVector<const BasicBlock *, 8> Starts{&F.getEntryBlock()};
  SmallPtrSet<const BasicBlock *, 8> BarrierBlocks;
  for (BasicBlock &BB : F)
    if (any_of(BB, isBlockBarrierCall)) {
      BarrierBlocks.insert(&BB);
      Starts.push_back(&BB);
    }
  // A region: from a start to the next barriers, both ends included (code may share a block
  // with its barrier); a block's interval is the union of the regions holding it.
  SmallVector<SmallPtrSet<const BasicBlock *, 16>, 8> Regions;
  for (const BasicBlock *Start : Starts) {
    SmallPtrSet<const BasicBlock *, 16> &R = Regions.emplace_back();
    R.insert(Start);
    SmallVector<const BasicBlock *, 16> Work(successors(Start));
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (!R.insert(BB).second || BarrierBlocks.contains(BB))
        continue;
      append_range(Work, successors(BB));
    }
  }
  for (const auto &R : Regions)
    for (const BasicBlock *BB : R)
      if (!BarrierBlocks.contains(BB))
        Interval[BB].insert(R.begin(), R.end());
}

/// An object whose every pointer the function can name: two different ones are two
/// different ranges of memory unless the caller passed the same pointer twice.
static bool isNamedObject(const Value *V) {
  if (isa<Argument, GlobalVariable, AllocaInst>(V))
    return true;
  auto *Call = dyn_cast<CallBase>(V);
  return Call && isPrimitive(Call->getCalledFunction(), PrimitiveClass::DynamicShared);
}

/// The object P points into; a shared array (a thread-local global here) is its global.
static const Value *objectOf(const Value *P) {
  const Value *O = getUnderlyingObject(P);
  if (auto *II = dyn_cast<IntrinsicInst>(O);
      II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
    return getUnderlyingObject(II->getArgOperand(0));
  return O;
}

bool Divergence::uniformLoad(const LoadInst &L) const {
  const Value *Object = objectOf(L.getPointerOperand());
  if (!AA || !L.isSimple() || Object == Idx)
    return false;
  auto It = Interval.find(L.getParent());
  if (It == Interval.end())
    return false; // in a barrier's block: the interval after it is not tracked
  MemoryLocation Loc = MemoryLocation::get(&L);
  for (const BasicBlock *BB : It->second)
    for (const Instruction &I : *BB) {
      if (!I.mayWriteToMemory())
        continue;
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (const Primitive *P = primitiveOf(Call->getCalledFunction());
            P && P->Class != PrimitiveClass::Atomic)
          continue; // barriers, fences and warp collectives order memory, write none
      if (!isModSet(AA->getModRefInfo(&I, Loc)))
        continue;
      // A plain store into another named object (another pointer parameter, another array)
      // could only meet the load if the caller passed overlapping arrays, and then it would
      // race with the other threads' loads on the GPU too: not a reason to give up. One into
      // the same object, through an unknown pointer, an atomic or a call is.
      const Value *Dest = nullptr;
      if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isSimple())
        Dest = SI->getPointerOperand();
      else if (auto *MI = dyn_cast<MemIntrinsic>(&I); MI && !MI->isVolatile())
        Dest = MI->getRawDest();
      const Value *DestObject = Dest ? objectOf(Dest) : nullptr;
      if (!DestObject || DestObject == Object || !isNamedObject(DestObject) ||
          !isNamedObject(Object) || AA->isMustAlias(Dest, L.getPointerOperand()))
        return false;
    }
  return true;
}

/// A value that is 0 in a block of one row: threadIdx.y or z, sums of such and products
/// with them (the row's number, y + blockDim.y * z).
static bool isRowIndex(const Value *V, const Argument *Idx, unsigned Depth = 0) {
  if (auto *Cast = dyn_cast<ZExtInst>(V))
    V = Cast->getOperand(0);
  if (std::optional<unsigned> Slot = indexLoadSlot(V, Idx))
    return *Slot == SlotTid + 1 || *Slot == SlotTid + 2;
  auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || Depth > 4)
    return false;
  auto Row = [&](unsigned I) { return isRowIndex(BO->getOperand(I), Idx, Depth + 1); };
  switch (BO->getOpcode()) {
  case Instruction::Add:
  case Instruction::Or:
    return Row(0) && Row(1);
  case Instruction::Mul:
    return Row(0) || Row(1);
  default:
    return false;
  }
}

/// blockDim.x * (a row index): a multiple of 32 when blockDim.x is, 0 in a block of one row.
static bool isRowStart(const Value *V, const Argument *Idx) {
  if (auto *Cast = dyn_cast<ZExtInst>(V))
    V = Cast->getOperand(0);
  auto *Mul = dyn_cast<BinaryOperator>(V);
  if (!Mul || Mul->getOpcode() != Instruction::Mul)
    return false;
  auto IsNtidX = [&](const Value *Op) {
    std::optional<unsigned> Slot = indexLoadSlot(Op, Idx);
    return Slot && *Slot == SlotNtid;
  };
  return (IsNtidX(Mul->getOperand(0)) && isRowIndex(Mul->getOperand(1), Idx)) ||
         (IsNtidX(Mul->getOperand(1)) && isRowIndex(Mul->getOperand(0), Idx));
}

/// threadIdx.x or the linear thread id (the runtime's, or x + blockDim.x * row computed by
/// the kernel), widened or not: 32 * (the warp's place in the row) + lane at warp granularity.
bool Divergence::isLaneIndex(const Value *V) const {
  if (auto *Cast = dyn_cast<CastInst>(V); Cast && isa<ZExtInst, SExtInst>(Cast))
    V = Cast->getOperand(0);
  if (auto *BO = dyn_cast<BinaryOperator>(V);
      BO && (BO->getOpcode() == Instruction::Add || BO->getOpcode() == Instruction::Or))
    return (isLaneIndex(BO->getOperand(0)) && isRowStart(BO->getOperand(1), Idx)) ||
           (isLaneIndex(BO->getOperand(1)) && isRowStart(BO->getOperand(0), Idx));
  std::optional<unsigned> Slot = indexLoadSlot(V, Idx);
  return Slot && (*Slot == SlotTid || *Slot == SlotLinear);
}

/// At warp granularity, I is the same across a warp although it reads the lane index: it
/// drops the lane's 5 bits (x >> 5, x / 32k, x & ~31) or compares x with a multiple of 32.
bool Divergence::isWarpAligned(const Instruction &I) const {
  if (G != Granularity::Warp || I.getNumOperands() != 2 || !isLaneIndex(I.getOperand(0)))
    return false;
  auto *C = dyn_cast<ConstantInt>(I.getOperand(1));
  if (!C || C->getValue().getActiveBits() > 32)
    return false;
  uint64_t K = C->getZExtValue();
  switch (I.getOpcode()) {
  case Instruction::LShr:
  case Instruction::AShr:
    return K >= 5;
  case Instruction::UDiv:
  case Instruction::SDiv:
    return K != 0 && K % 32 == 0;
  case Instruction::And:
    return (K & 31) == 0;
  case Instruction::ICmp:
    switch (cast<ICmpInst>(I).getPredicate()) {
    case CmpInst::ICMP_ULT:
    case CmpInst::ICMP_UGE:
    case CmpInst::ICMP_SLT:
    case CmpInst::ICMP_SGE:
      return K % 32 == 0; // x < 32k
    case CmpInst::ICMP_UGT:
    case CmpInst::ICMP_ULE:
    case CmpInst::ICMP_SGT:
    case CmpInst::ICMP_SLE:
      return (K + 1) % 32 == 0; // x > 32k - 1
    default:
      return false;
    }
  default:
    return false;
  }
}

/// What the split made of a vote (BarrierFission.cpp, WarpCollectives.cpp): one value for the
/// whole block (or warp) wherever its operands, a pointer to every thread's predicate, come
/// from; the barrier it follows is checked to be reached by all threads or none.
static bool isVoteResult(const Instruction &I, Divergence::Granularity G) {
  auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && (Callee->hasFnAttribute("kernplug-block-uniform") ||
                    (G == Divergence::Granularity::Warp &&
                     Callee->hasFnAttribute("kernplug-warp-uniform")));
}

Divergence::Divergence(Function &F, const Argument *Idx, const PostDominatorTree &PDT,
                       AAResults *AA, Granularity G)
    : Idx(Idx), AA(AA), G(G) {
  if (AA)
    findBarrierIntervals(F);
  SmallPtrSet<const Instruction *, 8> Processed;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        if (!Div.contains(&I) && !isWarpAligned(I) && !isVoteResult(I, G) &&
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
    // At warp granularity a warp lies in one (y, z) row.
    if (Slot && G == Granularity::Warp)
      return *Slot == SlotTid || *Slot == SlotLinear;
    if (Slot)
      return *Slot < SlotCtaid || *Slot == SlotLinear;
    return !uniformLoad(cast<LoadInst>(I));
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
    // What the split made of a block vote: one result for the whole block.
    if (Callee && Callee->hasFnAttribute("kernplug-block-uniform"))
      return false;
    // What the split made of a warp vote (ballot, all, any, activemask): one per warp.
    if (Callee && Callee->hasFnAttribute("kernplug-warp-uniform"))
      return G == Granularity::Block;
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
