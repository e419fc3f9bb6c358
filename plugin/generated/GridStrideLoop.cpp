//===- GridStrideLoop.cpp - the loop of generated kernels -------*- C++ -*-===//
#include "generated/GridStrideLoop.h"
#include "Primitives.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

/// The absolute thread index and the grid size along x, as IndexTy.
static std::pair<Value *, Value *> gridIndexAndStride(IRBuilder<> &B, Module &M,
                                                      Type *IndexTy) {
  auto Read = [&](unsigned Slot) {
    StringRef Name = indexPrimitiveName(Slot);
    FunctionCallee F = M.getOrInsertFunction(Name, FunctionType::get(B.getInt32Ty(), false));
    if (auto *Fn = dyn_cast<Function>(F.getCallee()))
      Fn->setDoesNotAccessMemory();
    return B.CreateZExt(B.CreateCall(F), IndexTy);
  };
  Value *Tid = Read(SlotTid), *Ctaid = Read(SlotCtaid);
  Value *Ntid = Read(SlotNtid), *Nctaid = Read(SlotNctaid);
  return {B.CreateAdd(B.CreateMul(Ctaid, Ntid), Tid), B.CreateMul(Nctaid, Ntid)};
}

Function *buildGridStrideKernel(Module &M, FunctionType *Ty, const Twine &Name,
                                LoopPrologue Prologue, LoopBody Body, unsigned IndexBits) {
  LLVMContext &C = M.getContext();
  Function *K = Function::Create(Ty, GlobalValue::InternalLinkage, Name, M);
  K->addFnAttr(Attribute::NoUnwind);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", K);
  BasicBlock *Check = BasicBlock::Create(C, "check", K);
  BasicBlock *Loop = BasicBlock::Create(C, "body", K);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", K);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 8> Args;
  for (Argument &A : K->args())
    Args.push_back(&A);
  Prologue(B, Args);
  Type *IndexTy = B.getIntNTy(IndexBits);
  auto [Start, Stride] = gridIndexAndStride(B, M, IndexTy);
  Value *N = B.CreateTrunc(K->getArg(0), IndexTy, "n");
  BasicBlock *Preheader = B.GetInsertBlock();
  B.CreateBr(Check);

  B.SetInsertPoint(Check);
  PHINode *I = B.CreatePHI(IndexTy, 2, "i");
  I->addIncoming(Start, Preheader);
  // 32-bit: unsigned, since I + stride may pass 2^31 (never 2^32) on the last trip.
  B.CreateCondBr(IndexBits == 64 ? B.CreateICmpSLT(I, N) : B.CreateICmpULT(I, N), Loop, Exit);

  B.SetInsertPoint(Loop);
  Body(B, Args, I);
  I->addIncoming(B.CreateAdd(I, Stride, "i.next", /*HasNUW=*/IndexBits < 64),
                 B.GetInsertBlock());
  B.CreateBr(Check);

  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return K;
}

} // namespace kernplug
