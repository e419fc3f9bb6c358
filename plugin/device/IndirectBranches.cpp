//===- IndirectBranches.cpp - computed goto as a switch ---------*- C++ -*-===//
//
// NVPTX has no indirect branch: LLVM 19 dies selecting `brind`. LLVM's own
// IndirectBrExpandPass does this rewrite, but only for targets that ask for
// it (retpoline X86), so it never runs for NVPTX. The CPU copies need it too:
// the per-block entries clone kernel bodies, and a label address stored in a
// table (`static void *const tbl[] = {&&a}`) names the original function's
// block, which a clone must not jump to. Integers work in every copy.
//
//===----------------------------------------------------------------------===//
#include "device/IndirectBranches.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace kernplug {

bool expandIndirectBranches(Function &F) {
  // Numbered in block order from 1, so that a null label pointer matches none.
  DenseMap<BasicBlock *, uint64_t> Index;
  for (BasicBlock &BB : F)
    if (BB.hasAddressTaken()) {
      uint64_t Next = Index.size() + 1;
      Index[&BB] = Next;
    }
  if (Index.empty())
    return false;

  LLVMContext &C = F.getContext();
  Type *IntTy = Type::getInt64Ty(C);
  for (BasicBlock &BB : F) {
    auto *IBr = dyn_cast<IndirectBrInst>(BB.getTerminator());
    if (!IBr)
      continue;
    IRBuilder<> B(IBr);
    // A target the label list does not name is undefined behaviour in C.
    BasicBlock *Bad = BasicBlock::Create(C, "goto.bad", &F);
    new UnreachableInst(C, Bad);
    Value *Key = B.CreatePtrToInt(IBr->getAddress(), IntTy);
    SwitchInst *SI = B.CreateSwitch(Key, Bad, IBr->getNumDestinations());
    SmallPtrSet<BasicBlock *, 8> Seen;
    for (BasicBlock *Dest : IBr->successors()) {
      if (!Seen.insert(Dest).second) {
        Dest->removePredecessor(&BB, /*KeepOneInputPHIs=*/true); // one edge per block now
        continue;
      }
      if (uint64_t I = Index.lookup(Dest))
        SI->addCase(ConstantInt::get(cast<IntegerType>(IntTy), I), Dest);
      else
        Dest->removePredecessor(&BB, /*KeepOneInputPHIs=*/true); // unreachable by address
    }
    IBr->eraseFromParent();
  }

  for (auto &[BB, I] : Index) {
    BlockAddress *BA = BlockAddress::lookup(BB);
    if (!BA)
      continue;
    BA->replaceAllUsesWith(
        ConstantExpr::getIntToPtr(ConstantInt::get(IntTy, I), BA->getType()));
    BA->destroyConstant();
  }
  return true;
}

PreservedAnalyses IndirectBranchesPass::run(Function &F, FunctionAnalysisManager &) {
  return expandIndirectBranches(F) ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kernplug
