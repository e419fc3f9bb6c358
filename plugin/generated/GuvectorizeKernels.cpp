//===- GuvectorizeKernels.cpp - loop kernels for gufunc() -------*- C++ -*-===//
//
// For a guvectorize function f(T0 *p0, …, Tk *pk, I0 d0, …) with layout L this
// adds, to the host module,
//
//   void __kp_guvec_<f>(i64 n, T0 *p0, …, Tk *pk, I0 d0, …)
//
// a grid-stride loop over k < n that calls f(p0 + k * s0, …, d0, …), where
// sj is the number of elements of operand j's core block (the product of its
// core dimensions, named or fixed); a "()" input that f takes by value is
// passed as it is to every call. The kernel is then compiled like any user
// kernel, for both backends; f stays an ordinary host function too. The same
// loop over a range of k is its CPU range entry (CpuRangeEntry.h).
//
//===----------------------------------------------------------------------===//
#include "DevicePass.h"
#include "generated/CpuRangeEntry.h"

#include "attributes/Layout.h"
#include "abi/kp_abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {
namespace {

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
  size_t NOps = L.numOperands();
  SmallVector<Value *, 4> Strides; // bytes from one loop index to the next, per operand
  auto Prologue = [&](IRBuilder<> &B, ArrayRef<Value *> Args) {
    Strides.clear();
    SmallVector<Value *, 4> Sizes;
    for (size_t D = 0; D < L.DimNames.size(); ++D)
      Sizes.push_back(B.CreateIntCast(Args[1 + NOps + D], B.getInt64Ty(),
                                      Info.Params[NOps + D].IsSigned));
    for (size_t J = 0; J < NOps; ++J)
      Strides.push_back(blockBytes(B, L.operand(J), Info.Params[J].ElemSize, Sizes));
  };
  auto Loop = [&](IRBuilder<> &B, ArrayRef<Value *> Args, Value *I) {
    SmallVector<Value *, 8> CallArgs;
    for (size_t J = 0; J < NOps; ++J)
      CallArgs.push_back(Info.Params[J].TheKind == ParamInfo::Scalar
                             ? Args[1 + J] // a "()" input by value: the same for every block
                             : B.CreateInBoundsGEP(B.getInt8Ty(), Args[1 + J],
                                                   B.CreateMul(I, Strides[J])));
    for (size_t D = 0; D < L.DimNames.size(); ++D)
      CallArgs.push_back(Args[1 + NOps + D]);
    CallInst *R = B.CreateCall(F, CallArgs);
    useCalleeABI(F, R);
  };
  Function *K = buildGridStrideKernel(
      M, FunctionType::get(Type::getVoidTy(C), Params, false), Name, Prologue, Loop);
  buildCpuRangeEntry(*K, *F, Prologue, Loop);
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
