//===- VectorizeKernels.cpp - element-wise kernels for ufunc() --*- C++ -*-===//
//
// For each signature of a vectorize function f this adds, to the host module,
//
//   void __kp_vec_<f>_<k>(i64 n, R *out, T0 *in0, T0 s0, …, i32 scalar_mask)
//
// a grid-stride loop computing out[i] = f(x0, …) where xj is sj when bit j
// of scalar_mask is set (a broadcast scalar) and inj[i] otherwise, and, with
// the same parameters, variants for the two common shapes of a call that test
// nothing (nvcc's code for `out[i] = f(in0[i], …)`): __kp_vec_<f>_<k>_arrays
// loads every inj[i] (no scalar input), and, for two inputs or more,
// __kp_vec_<f>_<k>_first_array loads in0[i] and takes every other input from
// its scalar (`gaussian_pdf(x, mean, sigma)`). All index with 32 bits (the
// runtime launches at most 2^30 elements at a time). Values are converted
// between the signature's element types and f's C parameter types. The kernels
// are then compiled like any user kernel, for both backends. Each also gets a
// CPU range entry (CpuRangeEntry.h), the same work as a plain loop over a
// range of indices, which the CPU backend runs instead of the grid.
//
//===----------------------------------------------------------------------===//
#include "DevicePass.h"
#include "generated/CpuRangeEntry.h"

#include "attributes/Signature.h"
#include "abi/kp_abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {
namespace {

Type *irType(LLVMContext &C, const ElemType &E) {
  if (E.Kind == ElemKind::Float)
    return E.Bits == 16   ? Type::getHalfTy(C)
           : E.Bits == 32 ? Type::getFloatTy(C)
                          : Type::getDoubleTy(C);
  return Type::getIntNTy(C, E.Bits);
}

/// Converts V as C would: int<->int with the source's signedness, int<->float
/// with the integer's signedness, a conversion to _Bool compares with zero.
Value *convert(IRBuilder<> &B, Value *V, bool SrcSigned, Type *Dst, bool DstSigned) {
  Type *Src = V->getType();
  if (Src == Dst)
    return V;
  if (Dst->isIntegerTy(1))
    return Src->isFloatingPointTy() ? B.CreateFCmpUNE(V, ConstantFP::get(Src, 0.0))
                                    : B.CreateICmpNE(V, ConstantInt::get(Src, 0));
  if (Src->isFloatingPointTy() && Dst->isFloatingPointTy())
    return B.CreateFPCast(V, Dst);
  if (Src->isFloatingPointTy())
    return DstSigned ? B.CreateFPToSI(V, Dst) : B.CreateFPToUI(V, Dst);
  if (Dst->isFloatingPointTy())
    return SrcSigned ? B.CreateSIToFP(V, Dst) : B.CreateUIToFP(V, Dst);
  return B.CreateIntCast(V, Dst, SrcSigned);
}

/// Which inputs a kernel reads from arrays: the mask decides per element
/// (Tested), or the kernel is specialised for one shape of call.
enum class Inputs { Tested, AllArrays, FirstArray };

/// out[i] = f(x0, ...) for index I (i32 or i64), with Input(J, ElemTy) giving
/// xj in the signature's type j; converts between the signature's types and f's.
void emitElement(IRBuilder<> &B, Function *F, const DeviceFunctionInfo &Info,
                 const Signature &Sig, ArrayRef<Value *> Args, Value *I,
                 function_ref<Value *(unsigned J, Type *ElemTy, Value *I64)> Input,
                 bool AlwaysInline) {
  LLVMContext &C = B.getContext();
  Value *Out = Args[1];
  Value *I64 = B.CreateZExt(I, B.getInt64Ty());
  SmallVector<Value *, 8> CallArgs;
  for (unsigned J = 0; J < Sig.Params.size(); ++J)
    CallArgs.push_back(convert(B, Input(J, irType(C, Sig.Params[J]), I64),
                               Sig.Params[J].Kind == ElemKind::Int,
                               F->getFunctionType()->getParamType(J), Info.Params[J].IsSigned));
  CallInst *R = B.CreateCall(F, CallArgs);
  useCalleeABI(F, R);
  if (AlwaysInline && !F->hasFnAttribute(Attribute::NoInline))
    R->addFnAttr(Attribute::AlwaysInline);
  Type *ResTy = irType(C, Sig.Result);
  Value *Res = convert(B, R, Info.Result.IsSigned, ResTy, Sig.Result.Kind == ElemKind::Int);
  B.CreateStore(Res, B.CreateInBoundsGEP(ResTy, Out, I64));
}

/// Input j of a kernel specialised for one shape of call (AllArrays, FirstArray):
/// inj[i] or sj, decided at compile time. nullptr for Tested.
Value *fixedInput(IRBuilder<> &B, Inputs Shape, ArrayRef<Value *> Args, unsigned J,
                  Type *ElemTy, Value *I) {
  if (Shape == Inputs::AllArrays || (Shape == Inputs::FirstArray && J == 0))
    return B.CreateLoad(ElemTy, B.CreateInBoundsGEP(ElemTy, Args[2 + 2 * J], I));
  if (Shape == Inputs::FirstArray)
    return Args[3 + 2 * J];
  return nullptr;
}

/// The grid-stride kernel (both backends). Tested inputs take a uniform branch
/// per operand, which loads only from arrays that exist.
Function *buildKernel(Module &M, Function *F, const DeviceFunctionInfo &Info,
                      const Signature &Sig, const std::string &Name, Inputs Shape) {
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::get(C, 0);
  SmallVector<Type *, 8> Params = {Type::getInt64Ty(C), Ptr};
  for (const ElemType &E : Sig.Params)
    Params.append({Ptr, irType(C, E)});
  Params.push_back(Type::getInt32Ty(C));
  auto *Ty = FunctionType::get(Type::getVoidTy(C), Params, false);
  auto Element = [&](IRBuilder<> &B, ArrayRef<Value *> Args, Value *I32) {
    Function *K = B.GetInsertBlock()->getParent();
    Value *Mask = Args.back();
    auto Input = [&](unsigned J, Type *ElemTy, Value *I) -> Value * {
      if (Value *X = fixedInput(B, Shape, Args, J, ElemTy, I))
        return X;
      Value *IsScalar = B.CreateTrunc(B.CreateLShr(Mask, J), B.getInt1Ty());
      BasicBlock *Load = BasicBlock::Create(C, "load", K);
      BasicBlock *Join = BasicBlock::Create(C, "join", K);
      BasicBlock *From = B.GetInsertBlock();
      B.CreateCondBr(IsScalar, Join, Load);
      B.SetInsertPoint(Load);
      Value *Loaded = B.CreateLoad(ElemTy, B.CreateInBoundsGEP(ElemTy, Args[2 + 2 * J], I));
      B.CreateBr(Join);
      B.SetInsertPoint(Join);
      PHINode *Phi = B.CreatePHI(ElemTy, 2);
      Phi->addIncoming(Args[3 + 2 * J], From);
      Phi->addIncoming(Loaded, Load);
      return Phi;
    };
    emitElement(B, F, Info, Sig, Args, I32, Input, /*AlwaysInline=*/false);
  };
  return buildGridStrideKernel(M, Ty, Name, [](IRBuilder<> &, ArrayRef<Value *>) {}, Element,
                               /*IndexBits=*/32);
}

/// The kernel's CPU range entry (CpuRangeEntry.h). The variants' loops
/// vectorise. Tested inputs read base_j[i * stride_j], with base_j = inj and
/// stride 1 for an array, a copy of sj and stride 0 for a broadcast scalar: no
/// branch in the loop, which vectorises only with gathers (AVX2). The general
/// kernel runs only mixes that put a scalar before an array; a vector loop per
/// mix would cost compile time for every signature.
Function *buildRangeEntry(Function &K, Function *F, const DeviceFunctionInfo &Info,
                          const Signature &Sig, Inputs Shape) {
  SmallVector<Value *, 8> Bases, Strides;
  auto Prologue = [&](IRBuilder<> &B, ArrayRef<Value *> Args) {
    if (Shape != Inputs::Tested)
      return;
    Value *Mask = Args.back();
    for (unsigned J = 0; J < Sig.Params.size(); ++J) {
      Value *Scalar = Args[3 + 2 * J];
      AllocaInst *Slot = B.CreateAlloca(Scalar->getType(), nullptr, "scalar" + Twine(J));
      B.CreateStore(Scalar, Slot);
      Value *IsScalar = B.CreateTrunc(B.CreateLShr(Mask, J), B.getInt1Ty());
      Bases.push_back(B.CreateSelect(IsScalar, Slot, Args[2 + 2 * J], "base" + Twine(J)));
      Strides.push_back(
          B.CreateSelect(IsScalar, B.getInt64(0), B.getInt64(1), "stride" + Twine(J)));
    }
  };
  auto Element = [&](IRBuilder<> &B, ArrayRef<Value *> Args, Value *I) {
    auto Input = [&](unsigned J, Type *ElemTy, Value *I64) -> Value * {
      if (Value *X = fixedInput(B, Shape, Args, J, ElemTy, I64))
        return X;
      return B.CreateLoad(ElemTy,
                          B.CreateInBoundsGEP(ElemTy, Bases[J], B.CreateMul(I64, Strides[J])));
    };
    emitElement(B, F, Info, Sig, Args, I, Input, /*AlwaysInline=*/true);
  };
  return buildCpuRangeEntry(K, *F, Prologue, Element);
}

uint64_t elemBytes(const ElemType &E) { return kp_elem_size(E.code()); } // abi/types.def

/// The kernel and its descriptor entry; all variants share the parameter table.
KernelEntry makeEntry(Module &M, Function *F, const DeviceFunctionInfo &VI, const Signature &Sig,
                      const std::string &Name, Inputs Shape) {
  static const uint64_t ShapeFlags[] = {0, KP_KERNEL_VECTORIZE_ARRAYS,
                                        KP_KERNEL_VECTORIZE_FIRST_ARRAY};
  KernelEntry E;
  E.Name = Name;
  E.Fn = buildKernel(M, F, VI, Sig, Name, Shape);
  buildRangeEntry(*E.Fn, F, VI, Sig, Shape);
  E.HostFn = F;
  E.IsVectorize = true;
  E.Signature = Sig.canonical();
  E.Flags = KP_KERNEL_VECTORIZE | ShapeFlags[static_cast<int>(Shape)];
  E.File = VI.File;
  E.Line = VI.Line;
  E.Params.push_back({"n", KP_PARAM_VALUE, 0, 8, 0});
  E.Params.push_back({"out", KP_PARAM_POINTER, 0, 8, elemBytes(Sig.Result)});
  for (size_t J = 0; J < Sig.Params.size(); ++J) {
    std::string PName = J < VI.Params.size() ? VI.Params[J].Name : std::to_string(J);
    E.Params.push_back({PName, KP_PARAM_POINTER, KP_PARAM_CONST, 8, elemBytes(Sig.Params[J])});
    E.Params.push_back({PName + ".scalar", KP_PARAM_VALUE, 0, elemBytes(Sig.Params[J]), 0});
  }
  E.Params.push_back({"scalar_mask", KP_PARAM_VALUE, 0, 4, 0});
  return E;
}

} // namespace

void addVectorizeKernels(Module &M, const TranslationUnitInfo &Info,
                         std::vector<KernelEntry> &Kernels, const PassReporter &Report) {
  for (const DeviceFunctionInfo &VI : Info.Functions) {
    if (VI.TheRole != DeviceFunctionInfo::Vectorize)
      continue;
    Function *F = M.getFunction(VI.IRName);
    if (!F || F->isDeclaration())
      continue;
    for (size_t S = 0; S < VI.Signatures.size(); ++S) {
      Signature Sig;
      SignatureError Err;
      if (!parseSignature(VI.Signatures[S], Sig, Err)) {
        Report.Error("internal error: signature '" + VI.Signatures[S] + "' of '" + VI.IRName +
                     "' did not parse: " + Err.Message);
        continue;
      }
      std::string Name = "__kp_vec_" + VI.IRName + "_" + std::to_string(S);
      Kernels.push_back(makeEntry(M, F, VI, Sig, Name, Inputs::Tested));
      Kernels.push_back(makeEntry(M, F, VI, Sig, Name + "_arrays", Inputs::AllArrays));
      if (Sig.Params.size() >= 2)
        Kernels.push_back(makeEntry(M, F, VI, Sig, Name + "_first_array", Inputs::FirstArray));
    }
  }
}

} // namespace kernplug
