//===- WarpCollectives.cpp - warp collectives in a split kernel --*- C++ -*-===//
#include "cpu/WarpCollectives.h"
#include "Primitives.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace kernplug {
namespace {

/// What a collective computes; Shfl* take (mask, value, lane argument), votes (mask,
/// predicate), activemask nothing; syncwarp has no result and needs no stand-in.
enum class Op : unsigned { ShflIdx, ShflUp, ShflDown, ShflXor, Ballot, All, Any, ActiveMask, Sync };

Op opOf(const Primitive &P) {
  return StringSwitch<Op>(P.ShortName)
      .Case("shfl_idx", Op::ShflIdx)
      .Case("shfl_up", Op::ShflUp)
      .Case("shfl_down", Op::ShflDown)
      .Case("shfl_xor", Op::ShflXor)
      .Case("ballot", Op::Ballot)
      .Case("all", Op::All)
      .Case("any", Op::Any)
      .Case("activemask", Op::ActiveMask)
      .Default(Op::Sync);
}

bool isShuffle(Op K) { return unsigned(K) <= unsigned(Op::ShflXor); }

/// i32 kernplug.cpu.warp_collective(i32 op, ptr mask, ptr value, ptr arg): the stand-in.
/// Shuffle results differ between lanes; votes are one per warp ("kernplug-warp-uniform",
/// which Divergence.cpp reads).
Function *standInFn(Module &M, bool Vote) {
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *Ptr = PointerType::get(C, 0);
  StringRef Name = Vote ? "kernplug.cpu.warp_vote" : "kernplug.cpu.warp_shuffle";
  auto *F = cast<Function>(
      M.getOrInsertFunction(Name, FunctionType::get(I32, {I32, Ptr, Ptr, Ptr}, false))
          .getCallee());
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref));
  if (Vote)
    F->addFnAttr("kernplug-warp-uniform");
  return F;
}

Op opOfStandIn(const CallInst *StandIn) {
  return Op(cast<ConstantInt>(StandIn->getArgOperand(0))->getZExtValue());
}

/// A collective's mask or lane argument for the stand-in: where it is a constant, a
/// constant global holding it (the lanes store nothing: in the tree reduction's shuffles
/// that was two stores per lane), Slot erased; else Slot, with the operand stored into it
/// at B.
Value *storedOrConstant(IRBuilder<> &B, Value *Op, Value *Slot) {
  auto *C = dyn_cast<ConstantInt>(Op);
  if (!C) {
    B.CreateStore(Op, Slot);
    return Slot;
  }
  cast<AllocaInst>(Slot)->eraseFromParent();
  Module &M = *B.GetInsertBlock()->getModule();
  std::string Name = "kp.warp.const." + std::to_string(C->getSExtValue());
  if (GlobalVariable *G = M.getNamedGlobal(Name))
    return G;
  auto *G = new GlobalVariable(M, C->getType(), /*isConstant=*/true,
                               GlobalValue::PrivateLinkage, C, Name);
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return G;
}

/// The value of a collective's mask or lane argument that every lane of the warp has, where
/// known before the lanes run: the constant (storedOrConstant), or the warp's first lane's
/// (WarpSlots::Lead); else nullptr.
Value *warpUniformOperand(const WarpSlots &S, Value *Slot) {
  if (auto *G = dyn_cast<GlobalVariable>(Slot))
    return G->getInitializer();
  return S.Lead(Slot);
}

} // namespace

bool isWarpCollectiveCall(const Instruction &I) {
  auto *Call = dyn_cast<CallInst>(&I);
  return Call && isPrimitive(Call->getCalledFunction(), PrimitiveClass::Warp);
}

AllocaInst *shuffleOperandHolding(CallInst *StandIn, Value *V) {
  if (!isShuffle(opOfStandIn(StandIn)))
    return nullptr; // a vote stores whether its predicate is set
  auto *Slot = dyn_cast<AllocaInst>(StandIn->getArgOperand(2));
  if (!Slot)
    return nullptr;
  // Its one store, made by lowerWarpCollectives right before the collective.
  StoreInst *Only = nullptr;
  for (User *U : Slot->users())
    if (auto *St = dyn_cast<StoreInst>(U)) {
      if (Only || St->getPointerOperand() != Slot)
        return nullptr;
      Only = St;
    } else if (U != StandIn) {
      return nullptr;
    }
  if (!Only)
    return nullptr;
  Value *Stored = Only->getValueOperand();
  if (auto *Cast = dyn_cast<BitCastInst>(Stored))
    Stored = Cast->getOperand(0);
  return Stored == V ? Slot : nullptr;
}

unsigned warpSlotPadding(const AllocaInst &Slot) {
  for (const User *U : Slot.users())
    if (auto *Call = dyn_cast<CallInst>(U);
        Call && Call->getCalledFunction() &&
        Call->getCalledFunction()->getName() == "kernplug.cpu.warp_shuffle" &&
        opOfStandIn(Call) == Op::ShflDown && Call->getArgOperand(2) == &Slot)
      return 32;
  return 0;
}

void lowerWarpCollectives(Function &F, SmallPtrSetImpl<Instruction *> &StandIns) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (isWarpCollectiveCall(I))
      Calls.push_back(cast<CallInst>(&I));
  IRBuilder<> B(F.getContext());
  for (CallInst *Call : Calls) {
    Op K = opOf(*primitiveOf(Call->getCalledFunction()));
    if (K == Op::Sync)
      continue; // the split itself is the synchronisation
    B.SetInsertPoint(&*F.getEntryBlock().getFirstInsertionPt());
    auto Local = [&](const char *Name) { return B.CreateAlloca(B.getInt32Ty(), nullptr, Name); };
    Value *Mask = Local("kp.warp.mask"), *Val = Local("kp.warp.value");
    Value *Arg = Local("kp.warp.arg");
    B.SetInsertPoint(Call);
    unsigned N = Call->arg_size();
    // The mask and lane argument go into slots the lanes store, or, where a constant,
    // into a constant global nobody stores (the same in every lane by definition).
    Value *MaskOp = N > 0 ? Call->getArgOperand(0) : B.getInt32(0);
    Value *ArgOp = N > 2 ? Call->getArgOperand(2) : B.getInt32(0);
    Value *V = N > 1 ? Call->getArgOperand(1) : B.getInt32(0);
    if (!isShuffle(K)) // a predicate: what matters is whether it is set
      V = B.CreateZExt(B.CreateICmpNE(V, B.getInt32(0)), B.getInt32Ty());
    B.CreateStore(V, Val);
    Mask = storedOrConstant(B, MaskOp, Mask);
    Arg = storedOrConstant(B, ArgOp, Arg);
    B.SetInsertPoint(Call->getNextNode());
    CallInst *StandIn = B.CreateCall(standInFn(*F.getParent(), !isShuffle(K)),
                                     {B.getInt32(unsigned(K)), Mask, Val, Arg}, "kp.warp");
    Call->replaceAllUsesWith(StandIn);
    StandIns.insert(StandIn);
  }
}

void emitLaneLoop(IRBuilder<> &B, Value *From, Value *To, const Twine &Name,
                  function_ref<void(Value *)> Body) {
  LLVMContext &C = B.getContext();
  Function *E = B.GetInsertBlock()->getParent();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Head = BasicBlock::Create(C, Name, E);
  BasicBlock *Loop = BasicBlock::Create(C, Name + ".body", E);
  BasicBlock *Exit = BasicBlock::Create(C, Name + ".done", E);
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  PHINode *L = B.CreatePHI(B.getInt32Ty(), 2, Name + ".l");
  L->addIncoming(From, Pre);
  B.CreateCondBr(B.CreateICmpULT(L, To), Loop, Exit);
  B.SetInsertPoint(Loop);
  Body(L);
  L->addIncoming(B.CreateNUWAdd(L, B.getInt32(1)), B.GetInsertBlock());
  B.CreateBr(Head);
  B.SetInsertPoint(Exit);
}

namespace {

/// The lanes that exist: all 32 but in a block's last, partial warp.
Value *existingLanes(IRBuilder<> &B, const WarpFrame &W) {
  return B.CreateSelect(
      B.CreateICmpUGE(W.Lanes, B.getInt32(32)), B.getInt32(~0u),
      B.CreateSub(B.CreateShl(B.getInt32(1), B.CreateAnd(W.Lanes, B.getInt32(31))),
                  B.getInt32(1)));
}

Value *laneElement(IRBuilder<> &B, AllocaInst *A, Value *L) {
  return B.CreateInBoundsGEP(A->getAllocatedType(), A, {B.getInt32(0), L});
}

/// Lane L's shuffle result by the rules of PTX shfl.sync (as cpu_block.c): the value of the
/// source lane where it is in the warp and in the mask, else the lane's own.
Value *shuffleResult(IRBuilder<> &B, Op K, const WarpFrame &W, Value *Mask, Value *Arg,
                     Value *Lane) {
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Value *Group = B.CreateAnd(Mask, existingLanes(B, W));
  Value *L64 = B.CreateZExt(Lane, I64);
  Value *Src; // may be out of range
  switch (K) {
  case Op::ShflIdx:
    Src = B.CreateZExt(B.CreateAnd(Arg, B.getInt32(31)), I64);
    break;
  case Op::ShflUp:
    Src = B.CreateSub(L64, B.CreateZExt(Arg, I64));
    break;
  case Op::ShflDown:
    Src = B.CreateAdd(L64, B.CreateZExt(Arg, I64));
    break;
  default:
    Src = B.CreateZExt(B.CreateXor(Lane, Arg), I64);
    break;
  }
  // Unsigned: a negative source is huge. In the warp and the group, or the lane's own value.
  Value *InWarp = B.CreateICmpULT(Src, B.CreateZExt(W.Lanes, I64));
  Value *Src32 = B.CreateSelect(InWarp, B.CreateTrunc(Src, I32), Lane);
  Value *InGroup = B.CreateTrunc(B.CreateLShr(Group, Src32), B.getInt1Ty());
  Value *From = B.CreateSelect(B.CreateAnd(InWarp, InGroup), Src32, Lane);
  return B.CreateLoad(I32, laneElement(B, W.Snapshot, From));
}

/// Every lane's result of a shfl_up whose mask and offset are the same in all lanes and
/// whose mask takes every lane of the warp: copies of two ranges of the snapshot, [0, d) the
/// lanes' own values and [d, N) lane - d's, loops the vectoriser takes.
void emitUniformShuffleUp(IRBuilder<> &B, const WarpFrame &W, Value *Arg) {
  Value *N = W.Lanes;
  auto Copy = [&](Value *From, Value *To, Value *Shift) {
    emitLaneLoop(B, From, To, "kp.warp.copy", [&](Value *L) {
      Value *Src = Shift ? B.CreateNUWSub(L, Shift) : L;
      B.CreateStore(B.CreateLoad(B.getInt32Ty(), laneElement(B, W.Snapshot, Src)),
                    laneElement(B, W.Results, L));
    });
  };
  Value *D = B.CreateBinaryIntrinsic(Intrinsic::umin, Arg, N);
  Copy(B.getInt32(0), D, nullptr);
  Copy(D, N, D);
}

/// Whether the lanes of shuffle StandIn whose mask Mask and lane Arg are the same in all lanes
/// (else nullptr) take lane (Arg & 31)'s value, read before they run (emitWarpPrologue), or
/// their own: shfl_idx with both uniform.
bool isUniformIndexShuffle(Op K, Value *Mask, Value *Arg) {
  return K == Op::ShflIdx && Mask && Arg;
}

/// Where a uniform shfl_idx's lanes take the source lane's value: it exists and is in the
/// mask. An i1, the same for all lanes.
Value *indexSourceTaken(IRBuilder<> &B, const WarpFrame &W, Value *Mask, Value *Src) {
  Value *Group = B.CreateAnd(Mask, existingLanes(B, W));
  Value *InGroup = B.CreateTrunc(B.CreateLShr(Group, Src), B.getInt1Ty()); // Src < 32
  return B.CreateAnd(B.CreateICmpULT(Src, W.Lanes), InGroup);
}

/// Whether lane Lane's shfl_down source Src = Lane + D (D <= 32) is in the warp: Src < Lanes.
/// Where the lane is x - x0 (the lane loop's counter less the warp's first x, as the split
/// passes it), the same test is x < x0 + Lanes - D, signed: the lane loop's counter against a
/// bound fixed for the loop, which the vectorised loop compares with its vector of x as it
/// is, instead of working out each lane, adding D and flipping the sign bits for an
/// unsigned compare (the tree reduction's five shuffle rounds, 4 of 28 instructions per 8
/// lanes). Exact: x, x0 + Lanes <= blockDim.x <= 1024 (the CPU backend's limit) and
/// D <= 32, so nothing wraps in i32. Else the compare of Src with Lanes.
Value *sourceInWarp(IRBuilder<> &B, const WarpFrame &W, Value *Lane, Value *D, Value *Src) {
  using namespace PatternMatch;
  Value *X, *X0;
  if (!match(Lane, m_Sub(m_Value(X), m_Value(X0))))
    return B.CreateICmpULT(Src, W.Lanes);
  Value *Bound = B.CreateSub(B.CreateNUWAdd(X0, W.Lanes), D, "kp.warp.source.end");
  return B.CreateICmpSLT(X, Bound, "kp.warp.source.in");
}

/// Lane Lane's shfl_down result read in place: lane + d's stored value where that lane is in
/// the warp and the mask, else the lane's own. The source is read whatever it is (d clamped
/// to 32, the array padded by warpSlotPadding) and then chosen, so that with the mask and
/// offset the same in all lanes the lane loop has no branch and vectorises: the read is of
/// a later element than the lane's own stores, which the vectoriser's dependence check sees.
Value *shuffleDownInPlace(IRBuilder<> &B, const WarpFrame &W, Value *OwnSlot, Value *Mask,
                          Value *Arg, Value *Lane) {
  Type *I32 = B.getInt32Ty();
  Value *Own = B.CreateLoad(I32, OwnSlot, "kp.warp.own");
  Value *D = B.CreateBinaryIntrinsic(Intrinsic::umin, Arg, B.getInt32(32));
  Value *Src = B.CreateNUWAdd(Lane, D); // < 64
  Value *Read = B.CreateLoad(
      I32, B.CreateInBoundsGEP(I32, OwnSlot, B.CreateZExt(D, B.getInt64Ty())), "kp.warp.source");
  Value *Taken = sourceInWarp(B, W, Lane, D, Src);
  if (auto *C = dyn_cast<ConstantInt>(Mask); !C || !C->isAllOnesValue()) {
    // Src < 32 where it matters; the shift is kept below 32 either way.
    Value *Group = B.CreateAnd(Mask, existingLanes(B, W));
    Value *Bit = B.CreateLShr(Group, B.CreateAnd(Src, B.getInt32(31)));
    Taken = B.CreateAnd(Taken, B.CreateTrunc(Bit, B.getInt1Ty()));
  }
  return B.CreateSelect(Taken, Read, Own, "kp.shuffled");
}

} // namespace

Value *emitWarpPrologue(CallInst *StandIn, IRBuilder<> &B, const WarpFrame &W,
                        const WarpSlots &S, WarpShufflePaths &Paths) {
  Op K = opOfStandIn(StandIn);
  if (K == Op::ActiveMask)
    return nullptr;
  LLVMContext &C = B.getContext();
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Value *Vals = S.Home(StandIn->getArgOperand(2));
  auto OfLane = [&](Value *Home, Value *L) {
    return B.CreateInBoundsGEP(I32, Home, B.CreateAdd(W.FirstLinear, B.CreateZExt(L, I64)));
  };
  if (!isShuffle(K)) {
    Function *E = B.GetInsertBlock()->getParent();
    BasicBlock *Pre = B.GetInsertBlock();
    BasicBlock *Loop = BasicBlock::Create(C, "kp.warp.gather", E);
    BasicBlock *Exit = BasicBlock::Create(C, "kp.warp.gathered", E);
    B.CreateBr(Loop);
    B.SetInsertPoint(Loop);
    PHINode *L = B.CreatePHI(I32, 2, "kp.warp.l");
    PHINode *Acc = B.CreatePHI(I32, 2, "kp.warp.ballot");
    Value *V = B.CreateLoad(I32, OfLane(Vals, L));
    Value *Ballot = B.CreateOr(Acc, B.CreateShl(V, L)); // V is 0 or 1
    Value *NextL = B.CreateNUWAdd(L, B.getInt32(1));
    B.CreateCondBr(B.CreateICmpULT(NextL, W.Lanes), Loop, Exit);
    L->addIncoming(B.getInt32(0), Pre);
    L->addIncoming(NextL, Loop);
    Acc->addIncoming(B.getInt32(0), Pre);
    Acc->addIncoming(Ballot, Loop);
    B.SetInsertPoint(Exit);
    return Ballot;
  }
  Value *MaskSlot = StandIn->getArgOperand(1), *ArgSlot = StandIn->getArgOperand(3);
  Value *LeadMask = warpUniformOperand(S, MaskSlot);
  Value *LeadArg = warpUniformOperand(S, ArgSlot);
  if (K == Op::ShflDown) { // read in place by each lane (shuffleDownInPlace)
    ++Paths.InPlace;
    return nullptr;
  }
  if (isUniformIndexShuffle(K, LeadMask, LeadArg)) {
    // The one value every taking lane gets, read before the source lane runs.
    ++Paths.InPlace;
    Value *Src = B.CreateAnd(LeadArg, B.getInt32(31));
    Value *Exists = B.CreateICmpULT(Src, W.Lanes);
    return B.CreateLoad(I32, OfLane(Vals, B.CreateSelect(Exists, Src, B.getInt32(0))),
                        "kp.warp.bcast");
  }
  ++Paths.Snapshot;
  // The lanes' values, then each lane's result from them.
  emitLaneLoop(B, B.getInt32(0), W.Lanes, "kp.warp.gather", [&](Value *L) {
    B.CreateStore(B.CreateLoad(I32, OfLane(Vals, L)), laneElement(B, W.Snapshot, L));
  });
  auto General = [&] {
    emitLaneLoop(B, B.getInt32(0), W.Lanes, "kp.warp.shuffle", [&](Value *L) {
      Value *Mask = LeadMask ? LeadMask : B.CreateLoad(I32, OfLane(S.Home(MaskSlot), L));
      Value *Arg = LeadArg ? LeadArg : B.CreateLoad(I32, OfLane(S.Home(ArgSlot), L));
      B.CreateStore(shuffleResult(B, K, W, Mask, Arg, L), laneElement(B, W.Results, L));
    });
  };
  if (!LeadMask || !LeadArg || K != Op::ShflUp) {
    General();
    return nullptr;
  }
  Function *E = B.GetInsertBlock()->getParent();
  Value *Existing = existingLanes(B, W);
  Value *Full = B.CreateICmpEQ(B.CreateAnd(LeadMask, Existing), Existing, "kp.warp.full");
  BasicBlock *Fast = BasicBlock::Create(C, "kp.warp.uniform", E);
  BasicBlock *Slow = BasicBlock::Create(C, "kp.warp.masked", E);
  BasicBlock *Join = BasicBlock::Create(C, "kp.warp.shuffled", E);
  B.CreateCondBr(Full, Fast, Slow);
  B.SetInsertPoint(Fast);
  emitUniformShuffleUp(B, W, LeadArg);
  B.CreateBr(Join);
  B.SetInsertPoint(Slow);
  General();
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
  return nullptr;
}

Value *emitWarpLaneResult(CallInst *StandIn, IRBuilder<> &B, const WarpFrame &W,
                          const WarpSlots &S, Value *Prologue, Value *Lane) {
  Op K = opOfStandIn(StandIn);
  Type *I32 = B.getInt32Ty();
  // A mask or lane argument: the warp's (constant or first lane's) or the lane's own.
  auto Operand = [&](unsigned I, const char *Name) {
    Value *Slot = StandIn->getArgOperand(I);
    if (Value *Uniform = warpUniformOperand(S, Slot))
      return Uniform;
    return static_cast<Value *>(B.CreateLoad(I32, S.Own(Slot), Name));
  };
  Value *OwnValue = S.Own(StandIn->getArgOperand(2));
  if (K == Op::ShflDown)
    return shuffleDownInPlace(B, W, OwnValue, Operand(1, "kp.warp.mask"),
                              Operand(3, "kp.warp.arg"), Lane);
  Value *LeadMask = warpUniformOperand(S, StandIn->getArgOperand(1));
  Value *LeadArg = warpUniformOperand(S, StandIn->getArgOperand(3));
  if (isUniformIndexShuffle(K, LeadMask, LeadArg)) {
    Value *Src = B.CreateAnd(LeadArg, B.getInt32(31));
    return B.CreateSelect(indexSourceTaken(B, W, LeadMask, Src), Prologue,
                          B.CreateLoad(I32, OwnValue, "kp.warp.own"), "kp.shuffled");
  }
  if (isShuffle(K)) // computed before the lanes run (emitWarpPrologue)
    return B.CreateLoad(I32, laneElement(B, W.Results, Lane), "kp.shuffled");
  Value *Existing = existingLanes(B, W);
  if (K == Op::ActiveMask)
    return Existing; // the split proved that every lane of the warp reaches it
  Value *Mask = Operand(1, "kp.warp.mask");
  Value *Group = B.CreateAnd(Mask, Existing);
  Value *Set = B.CreateAnd(Prologue, Group);
  switch (K) {
  case Op::Ballot:
    return Set;
  case Op::All:
    return B.CreateZExt(B.CreateICmpEQ(Set, Group), I32);
  default:
    return B.CreateZExt(B.CreateICmpNE(Set, B.getInt32(0)), I32);
  }
}

} // namespace kernplug
