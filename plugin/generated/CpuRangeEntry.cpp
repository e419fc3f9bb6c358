//===- CpuRangeEntry.cpp - generated kernels' CPU range entries -*- C++ -*-===//
#include "generated/CpuRangeEntry.h"
#include "ClangCompat.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

std::string cpuRangeEntryName(StringRef KernelName) { return (KernelName + ".kp.cpu_range").str(); }

/// The user's code generation choices (target-cpu, target-features, the
/// floating-point string attributes clang sets from -f options): an entry
/// without them could not inline a function built for AVX2, and would not
/// know -ffast-math.
static void copyCodegenAttributes(const Function &From, Function &To) {
  for (const Attribute &A : From.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      To.addFnAttr(A);
  if (From.hasFnAttribute(Attribute::OptimizeNone)) { // -O0: nothing inlined or vectorised
    To.addFnAttr(Attribute::OptimizeNone);
    To.addFnAttr(Attribute::NoInline);
  }
}

Function *buildCpuRangeEntry(Function &Kernel, const Function &ElementFn, LoopPrologue Prologue,
                             LoopBody Body) {
  Module &M = *Kernel.getParent();
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::get(C, 0);
  Type *I64 = Type::getInt64Ty(C);
  auto *Ty = FunctionType::get(Type::getVoidTy(C), {Ptr, I64, I64}, false);
  Function *R =
      Function::Create(Ty, GlobalValue::InternalLinkage, cpuRangeEntryName(Kernel.getName()), M);
  R->addFnAttr(Attribute::NoUnwind);
  copyCodegenAttributes(ElementFn, *R);
  Argument *ArgsArray = R->getArg(0), *Begin = R->getArg(1), *End = R->getArg(2);
  ArgsArray->setName("args");
  Begin->setName("begin");
  End->setName("end");
  compat::addNoCapture(*R, 0);
  R->addParamAttr(0, Attribute::ReadOnly);

  BasicBlock *Entry = BasicBlock::Create(C, "entry", R);
  BasicBlock *Loop = BasicBlock::Create(C, "loop", R);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", R);
  IRBuilder<> B(Entry);
  // The kernel's parameters, each behind its args[] slot (the runtime passes the array it
  // would give the kernel's trampoline).
  SmallVector<Value *, 8> Args;
  for (Argument &A : Kernel.args()) {
    Value *Slot = B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(Ptr, ArgsArray, A.getArgNo()));
    Args.push_back(B.CreateLoad(A.getType(), Slot, "arg" + Twine(A.getArgNo())));
  }
  Prologue(B, Args);
  B.CreateCondBr(B.CreateICmpSLT(Begin, End), Loop, Exit);
  BasicBlock *Preheader = B.GetInsertBlock();

  // A rotated loop (the body, then the test), as LoopRotate would make it.
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2, "i");
  I->addIncoming(Begin, Preheader);
  Body(B, Args, I);
  // begin >= 0 and end <= n < 2^63: the increment never wraps.
  Value *Next = B.CreateAdd(I, ConstantInt::get(I64, 1), "i.next", /*HasNUW=*/true,
                            /*HasNSW=*/true);
  I->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpSLT(Next, End), Loop, Exit);

  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return R;
}

} // namespace kernplug
