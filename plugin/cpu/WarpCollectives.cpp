//===- WarpCollectives.cpp - warp collectives in a split kernel --*- C++ -*-===//
#include "cpu/WarpCollectives.h"
#include "Primitives.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

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

} // namespace

bool isWarpCollectiveCall(const Instruction &I) {
  auto *Call = dyn_cast<CallInst>(&I);
  return Call && isPrimitive(Call->getCalledFunction(), PrimitiveClass::Warp);
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
    B.CreateStore(N > 0 ? Call->getArgOperand(0) : B.getInt32(0), Mask);
    Value *V = N > 1 ? Call->getArgOperand(1) : B.getInt32(0);
    if (!isShuffle(K)) // a predicate: what matters is whether it is set
      V = B.CreateZExt(B.CreateICmpNE(V, B.getInt32(0)), B.getInt32Ty());
    B.CreateStore(V, Val);
    B.CreateStore(N > 2 ? Call->getArgOperand(2) : B.getInt32(0), Arg);
    B.SetInsertPoint(Call->getNextNode());
    CallInst *StandIn = B.CreateCall(standInFn(*F.getParent(), !isShuffle(K)),
                                     {B.getInt32(unsigned(K)), Mask, Val, Arg}, "kp.warp");
    Call->replaceAllUsesWith(StandIn);
    StandIns.insert(StandIn);
  }
}

Value *emitWarpPrologue(CallInst *StandIn, IRBuilder<> &B, const WarpFrame &W,
                        const WarpSlots &S) {
  Op K = opOfStandIn(StandIn);
  if (K == Op::ActiveMask)
    return nullptr;
  LLVMContext &C = B.getContext();
  Function *E = B.GetInsertBlock()->getParent();
  Value *Vals = S.Home(StandIn->getArgOperand(2));
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(C, "kp.warp.gather", E);
  BasicBlock *Exit = BasicBlock::Create(C, "kp.warp.gathered", E);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *L = B.CreatePHI(B.getInt32Ty(), 2, "kp.warp.l");
  PHINode *Ballot = B.CreatePHI(B.getInt32Ty(), 2, "kp.warp.ballot");
  Value *Lane = B.CreateAdd(W.FirstLinear, B.CreateZExt(L, B.getInt64Ty()));
  Value *V = B.CreateLoad(B.getInt32Ty(), B.CreateInBoundsGEP(B.getInt32Ty(), Vals, Lane));
  Value *NextBallot = Ballot;
  if (isShuffle(K))
    B.CreateStore(V, B.CreateInBoundsGEP(W.Snapshot->getAllocatedType(), W.Snapshot,
                                         {B.getInt32(0), L}));
  else
    NextBallot = B.CreateOr(Ballot, B.CreateShl(V, L)); // V is 0 or 1
  Value *NextL = B.CreateNUWAdd(L, B.getInt32(1));
  B.CreateCondBr(B.CreateICmpULT(NextL, W.Lanes), Loop, Exit);
  L->addIncoming(B.getInt32(0), Pre);
  L->addIncoming(NextL, Loop);
  Ballot->addIncoming(B.getInt32(0), Pre);
  Ballot->addIncoming(NextBallot, Loop);
  B.SetInsertPoint(Exit);
  return isShuffle(K) ? nullptr : NextBallot;
}

Value *emitWarpLaneResult(CallInst *StandIn, IRBuilder<> &B, const WarpFrame &W,
                          const WarpSlots &S, Value *Prologue, Value *Lane) {
  Op K = opOfStandIn(StandIn);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  // The same in every lane (the usual full mask, a constant offset): one read for the warp.
  auto Operand = [&](Value *A, const char *Name) {
    Value *Lead = S.Lead(A);
    return Lead ? Lead : B.CreateLoad(I32, S.Own(A), Name);
  };
  Value *Mask = Operand(StandIn->getArgOperand(1), "kp.warp.mask");
  // The lanes that exist: all 32 but in a block's last, partial warp.
  Value *Existing = B.CreateSelect(
      B.CreateICmpUGE(W.Lanes, B.getInt32(32)), B.getInt32(~0u),
      B.CreateSub(B.CreateShl(B.getInt32(1), B.CreateAnd(W.Lanes, B.getInt32(31))), B.getInt32(1)));
  if (K == Op::ActiveMask)
    return Existing; // the split proved that every lane of the warp reaches it
  Value *Group = B.CreateAnd(Mask, Existing);
  if (!isShuffle(K)) {
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
  Value *Arg = Operand(StandIn->getArgOperand(3), "kp.warp.arg");
  Value *L64 = B.CreateZExt(Lane, I64);
  Value *Src; // may be out of range: the rules of PTX shfl.sync, as cpu_block.c
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
  return B.CreateLoad(I32, B.CreateInBoundsGEP(W.Snapshot->getAllocatedType(), W.Snapshot,
                                               {B.getInt32(0), From}),
                      "kp.shuffled");
}

} // namespace kernplug
