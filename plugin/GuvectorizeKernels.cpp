//===- GuvectorizeKernels.cpp - loop kernels for gufunc() -------*- C++ -*-===//
//
// For a guvectorize function f(T0 *p0, …, Tk *pk, I0 d0, …) with layout L this
// adds, to the host module,
//
//   void __kp_guvec_<f>(i64 n, T0 *p0, …, Tk *pk, I0 d0, …)
//
// a grid-stride loop over k < n that calls f(p0 + k * s0, …, d0, …), where
// sj is the number of elements of operand j's core block (the product of its
// core dimensions, named or fixed). The kernel is then compiled like any user
// kernel, for both backends; f stays an ordinary host function too.
//
//===----------------------------------------------------------------------===//
#include "DevicePass.h"

#include "../attributes/Layout.h"
#include "../runtime/kp_abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {
namespace {

/// The absolute thread index and the grid size along x, as i64.
std::pair<Value *, Value *> gridIndexAndStride(IRBuilder<> &B, Module &M) {
  auto Read = [&](const char *Name) {
    FunctionCallee F = M.getOrInsertFunction(Name, FunctionType::get(B.getInt32Ty(), false));
    if (auto *Fn = dyn_cast<Function>(F.getCallee()))
      Fn->setDoesNotAccessMemory();
    return B.CreateZExt(B.CreateCall(F), B.getInt64Ty());
  };
  Value *Tid = Read("kp_dev_tid_x"), *Ctaid = Read("kp_dev_ctaid_x");
  Value *Ntid = Read("kp_dev_ntid_x"), *Nctaid = Read("kp_dev_nctaid_x");
  return {B.CreateAdd(B.CreateMul(Ctaid, Ntid), Tid), B.CreateMul(Nctaid, Ntid)};
}

/// Bytes of one core block of operand Op: element size times its core sizes.
Value *blockBytes(IRBuilder<> &B, const LayoutOperand &Op, uint64_t ElemSize,
                  ArrayRef<Value *> Sizes) {
  Value *Bytes = B.getInt64(ElemSize);
  for (const CoreDim &D : Op.Dims)
    Bytes = B.CreateMul(Bytes, D.Name >= 0 ? Sizes[D.Name] : B.getInt64(D.Fixed));
  return Bytes;
}

Function *buildKernel(Module &M, Function *F, const DeviceFunctionInfo &Info, const Layout &L,
                      const std::string &Name) {
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 8> Params = {Type::getInt64Ty(C)};
  append_range(Params, F->getFunctionType()->params());
  Function *K = Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                                 GlobalValue::InternalLinkage, Name, M);
  K->addFnAttr(Attribute::NoUnwind);
  size_t NOps = L.numOperands();
  Value *N = K->getArg(0);

  BasicBlock *Entry = BasicBlock::Create(C, "entry", K);
  BasicBlock *Check = BasicBlock::Create(C, "check", K);
  BasicBlock *Body = BasicBlock::Create(C, "body", K);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", K);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 4> Sizes;
  for (size_t D = 0; D < L.DimNames.size(); ++D)
    Sizes.push_back(B.CreateIntCast(K->getArg(1 + NOps + D), B.getInt64Ty(),
                                    Info.Params[NOps + D].IsSigned));
  SmallVector<Value *, 4> Strides;
  for (size_t J = 0; J < NOps; ++J)
    Strides.push_back(blockBytes(B, L.operand(J), Info.Params[J].ElemSize, Sizes));
  auto [Start, Stride] = gridIndexAndStride(B, M);
  B.CreateBr(Check);

  B.SetInsertPoint(Check);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "k");
  I->addIncoming(Start, Entry);
  B.CreateCondBr(B.CreateICmpSLT(I, N), Body, Exit);

  B.SetInsertPoint(Body);
  SmallVector<Value *, 8> CallArgs;
  for (size_t J = 0; J < NOps; ++J)
    CallArgs.push_back(
        B.CreateInBoundsGEP(B.getInt8Ty(), K->getArg(1 + J), B.CreateMul(I, Strides[J])));
  for (size_t D = 0; D < L.DimNames.size(); ++D)
    CallArgs.push_back(K->getArg(1 + NOps + D));
  CallInst *R = B.CreateCall(F, CallArgs);
  copyParamAttrs(F, R);
  I->addIncoming(B.CreateAdd(I, Stride), B.GetInsertBlock());
  B.CreateBr(Check);

  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return K;
}

} // namespace

void addGuvectorizeKernels(Module &M, const TranslationUnitInfo &Info,
                           std::vector<KernelEntry> &Kernels, const PassReporter &Report) {
  for (const DeviceFunctionInfo &GI : Info.Functions) {
    if (GI.TheRole != DeviceFunctionInfo::Guvectorize)
      continue;
    Function *F = M.getFunction(GI.IRName);
    if (!F || F->isDeclaration())
      continue;
    Layout L;
    LayoutError Err;
    std::string Text = GI.Signatures.empty() ? "" : GI.Signatures.front();
    if (!parseLayout(Text, L, Err) || F->arg_size() != GI.Params.size() ||
        GI.Params.size() != L.numOperands() + L.DimNames.size()) {
      Report.Error("internal error: guvectorize layout '" + Text + "' of '" + GI.IRName +
                   "' does not describe its IR parameters");
      continue;
    }
    KernelEntry E;
    E.Name = "__kp_guvec_" + GI.IRName;
    E.Fn = buildKernel(M, F, GI, L, E.Name);
    E.HostFn = F;
    E.Signature = L.canonical();
    E.Flags = KP_KERNEL_GUVECTORIZE;
    E.File = GI.File;
    E.Line = GI.Line;
    E.Params.push_back({"n", KP_PARAM_VALUE, 0, 8, 0});
    append_range(E.Params, describeKernelParams(*F, GI));
    Kernels.push_back(std::move(E));
  }
}

} // namespace kernplug
