//===- DeviceLowering.cpp - printf and math for the GPU ---------*- C++ -*-===//
#include "DevicePass.h"
#include "device/MathFunctions.h"
#include "ClangCompat.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

void lowerPrintf(Module &Dev) {
  Function *Printf = Dev.getFunction("printf");
  if (!Printf)
    return;
  LLVMContext &C = Dev.getContext();
  auto *PtrTy = PointerType::get(C, 0);
  FunctionCallee VPrintf = Dev.getOrInsertFunction(
      "vprintf", FunctionType::get(Type::getInt32Ty(C), {PtrTy, PtrTy}, false));
  for (User *U : make_early_inc_range(Printf->users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != Printf)
      continue;
    // CUDA's vprintf takes the arguments packed in a buffer, each at its
    // natural alignment (C's promotions already made floats doubles).
    SmallVector<Type *, 8> Types;
    for (unsigned I = 1; I < Call->arg_size(); ++I)
      Types.push_back(Call->getArgOperand(I)->getType());
    IRBuilder<> B(Call);
    Value *Buf = ConstantPointerNull::get(PtrTy);
    if (!Types.empty()) {
      auto *ST = StructType::get(C, Types);
      Function *F = Call->getFunction();
      IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
      AllocaInst *A = Entry.CreateAlloca(ST, nullptr, "printf.args");
      for (unsigned I = 0; I < Types.size(); ++I)
        B.CreateStore(Call->getArgOperand(I + 1), B.CreateStructGEP(ST, A, I));
      Buf = A;
    }
    CallInst *New = B.CreateCall(VPrintf, {Call->getArgOperand(0), Buf});
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
  if (Printf->use_empty())
    Printf->eraseFromParent();
}

void lowerMemoryCalls(Module &Dev) {
  for (StringRef Name : {"memset", "memcpy", "memmove"}) {
    Function *F = Dev.getFunction(Name);
    // Under -fno-builtin clang leaves these as calls; no device library defines them.
    if (!F || !F->isDeclaration() || F->arg_size() != 3 ||
        !F->getFunctionType()->getParamType(2)->isIntegerTy())
      continue;
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != F)
        continue;
      IRBuilder<> B(Call);
      Value *Dst = Call->getArgOperand(0), *Src = Call->getArgOperand(1);
      Value *Len = Call->getArgOperand(2);
      if (Name == "memset")
        B.CreateMemSet(Dst, B.CreateTrunc(Src, B.getInt8Ty()), Len, MaybeAlign());
      else if (Name == "memcpy")
        B.CreateMemCpy(Dst, MaybeAlign(), Src, MaybeAlign(), Len);
      else
        B.CreateMemMove(Dst, MaybeAlign(), Src, MaybeAlign(), Len);
      Call->replaceAllUsesWith(Dst); // all three return their first argument
      Call->eraseFromParent();
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
}

/// Points every use of F at the libdevice function NvName (same type).
static void redirect(Module &Dev, Function &F, const std::string &NvName) {
  if (Function *Existing = Dev.getFunction(NvName)) {
    F.replaceAllUsesWith(Existing);
    F.eraseFromParent();
    return;
  }
  if (F.isIntrinsic()) {
    Function *New = Function::Create(F.getFunctionType(), GlobalValue::ExternalLinkage,
                                     NvName, Dev);
    F.replaceAllUsesWith(New);
    F.eraseFromParent();
    return;
  }
  F.setName(NvName);
}

/// -ffast-math (nvcc's --use_fast_math): float calls that carry the approximate-functions
/// flag go to libdevice's fast version (expf -> __nv_fast_expf, ex2.approx); calls without it
/// (from code compiled without -ffast-math, or -fno-approx-func) keep the accurate one.
static void useFastVersions(Module &Dev, Function &F, StringRef CName) {
  std::string Fast = fastLibdeviceNameFor(CName);
  if (Fast.empty())
    return;
  FunctionCallee FastFn;
  for (User *U : make_early_inc_range(F.users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != &F || !isa<FPMathOperator>(Call) ||
        !Call->hasApproxFunc())
      continue;
    if (!FastFn)
      FastFn = Dev.getOrInsertFunction(Fast, F.getFunctionType());
    Call->setCalledFunction(FastFn);
  }
}

/// -ffast-math's float divisions (flags afn and arcp) are nvcc's -prec-div=false: __fdividef.
/// (NVPTX would select div.approx only for functions still marked unsafe-fp-math after
/// libdevice is inlined into them, which clears the mark.)
static void useFastDivisions(Module &Dev) {
  FunctionCallee FastDiv;
  for (Function &F : Dev.functions())
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      auto *Div = dyn_cast<BinaryOperator>(&I);
      if (!Div || Div->getOpcode() != Instruction::FDiv || !Div->getType()->isFloatTy() ||
          !Div->hasApproxFunc() || !Div->hasAllowReciprocal())
        continue;
      if (!FastDiv)
        FastDiv = Dev.getOrInsertFunction("__nv_fast_fdividef", Div->getType(),
                                          Div->getType(), Div->getType());
      CallInst *Call = CallInst::Create(FastDiv, {Div->getOperand(0), Div->getOperand(1)},
                                        "", Div->getIterator());
      Call->copyFastMathFlags(Div);
      Call->setDebugLoc(Div->getDebugLoc());
      Call->takeName(Div);
      Div->replaceAllUsesWith(Call);
      Div->eraseFromParent();
    }
}

/// llvm.modf and llvm.sincos return both results as a pair, which NVPTX cannot select and
/// libdevice returns through pointers (clang 22 emits them for modf, and for sincos without
/// errno; clang 19 calls the C functions, which libdeviceNameFor maps). Each call becomes a
/// call of __nv_modf[f](x, &whole) or __nv_sincos[f](x, &sin, &cos) and the pair is rebuilt.
/// Returns whether F was one of them.
static bool lowerPairMathIntrinsic(Module &Dev, Function &F) {
  Intrinsic::ID ID = F.getIntrinsicID();
  auto *Pair = dyn_cast<StructType>(F.getReturnType());
  if (ID == Intrinsic::not_intrinsic ||
      (ID != compat::ModfIntrinsic && ID != compat::SincosIntrinsic) || !Pair ||
      Pair->getNumElements() != 2 || F.arg_size() != 1)
    return false;
  Type *FP = F.getFunctionType()->getParamType(0);
  if (!FP->isFloatTy() && !FP->isDoubleTy())
    return false; // vectors and other widths: left to the backend, which reports them
  bool Modf = ID == compat::ModfIntrinsic;
  std::string NvName = std::string(Modf ? "__nv_modf" : "__nv_sincos") +
                       (FP->isFloatTy() ? "f" : "");
  LLVMContext &C = Dev.getContext();
  auto *PtrTy = PointerType::get(C, 0);
  FunctionCallee Nv =
      Modf ? Dev.getOrInsertFunction(NvName, FunctionType::get(FP, {FP, PtrTy}, false))
           : Dev.getOrInsertFunction(
                 NvName, FunctionType::get(Type::getVoidTy(C), {FP, PtrTy, PtrTy}, false));
  for (User *U : make_early_inc_range(F.users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledFunction() != &F)
      continue;
    Function *Caller = Call->getFunction();
    IRBuilder<> Entry(&Caller->getEntryBlock(), Caller->getEntryBlock().begin());
    AllocaInst *First = Entry.CreateAlloca(FP, nullptr, Modf ? "modf.whole" : "sincos.sin");
    AllocaInst *Second = Modf ? nullptr : Entry.CreateAlloca(FP, nullptr, "sincos.cos");
    IRBuilder<> B(Call);
    Value *X = Call->getArgOperand(0);
    Value *Result = PoisonValue::get(Pair);
    if (Modf) {
      Value *Frac = B.CreateCall(Nv, {X, First});
      Result = B.CreateInsertValue(Result, Frac, 0);
      Result = B.CreateInsertValue(Result, B.CreateLoad(FP, First), 1);
    } else {
      B.CreateCall(Nv, {X, First, Second});
      Result = B.CreateInsertValue(Result, B.CreateLoad(FP, First), 0);
      Result = B.CreateInsertValue(Result, B.CreateLoad(FP, Second), 1);
    }
    Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
  }
  if (F.use_empty())
    F.eraseFromParent();
  return true;
}

void lowerMathToLibdevice(Module &Dev) {
  useFastDivisions(Dev);
  for (Function &F : make_early_inc_range(Dev.functions())) {
    if (!F.isDeclaration())
      continue;
    if (F.getReturnType()->isFloatTy()) {
      StringRef Name = F.getName();
      if (F.isIntrinsic())
        useFastVersions(Dev, F, (Name.drop_front(strlen("llvm.")).split('.').first + "f").str());
      else
        useFastVersions(Dev, F, Name);
      if (F.use_empty()) {
        F.eraseFromParent();
        continue;
      }
    }
    std::string NvName;
    if (F.isIntrinsic() && lowerPairMathIntrinsic(Dev, F))
      continue;
    if (F.isIntrinsic()) {
      // llvm.<base>.<type>…: -ffast-math and builtins produce these.
      StringRef Name = F.getName().drop_front(strlen("llvm."));
      // The floating-point type is the result's, or the operand's for the
      // intrinsics that return an integer (llvm.lround.i64.f32, …).
      Type *FP = F.getReturnType();
      if (!FP->isFloatTy() && !FP->isDoubleTy() && F.arg_size() == 1)
        FP = F.getFunctionType()->getParamType(0);
      if (!FP->isFloatTy() && !FP->isDoubleTy())
        continue;
      NvName = libdeviceNameForIntrinsic(Name.split('.').first, FP->getScalarSizeInBits());
    } else {
      NvName = libdeviceNameFor(F.getName());
    }
    if (!NvName.empty())
      redirect(Dev, F, NvName);
  }
}

} // namespace kernplug
