//===- KernelParams.cpp - IR-level kernel parameters for the runtime -*- C++ -*-===//
//
// The host ABI may pass one C parameter as several IR arguments (x86-64 splits
// a struct of 9-16 bytes into two eightbytes) or in memory (byval). Device
// and host share the IR signature, so launching is right by construction; the
// table only needs names and kinds for messages and transfers.
//
//===----------------------------------------------------------------------===//
#include "DevicePass.h"

#include "abi/kp_abi.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

static unsigned irPiecesOf(const Function &F, unsigned ArgIdx, const ParamInfo &P) {
  if (P.TheKind != ParamInfo::Struct || ArgIdx >= F.arg_size())
    return 1;
  if (F.getArg(ArgIdx)->hasByValAttr())
    return 1;
  return P.Size == 0 ? 0 : P.Size <= 8 ? 1 : 2;
}

const char *const IndirectArgAttr = "kernplug-indirect";

void passIndirectArgsByValue(Function &F, const DeviceFunctionInfo &Info) {
  // Windows x64 maps each C parameter to one IR argument; nothing else passes one by reference.
  if (F.getCallingConv() != CallingConv::Win64 || Info.Params.size() != F.arg_size())
    return;
  LLVMContext &C = F.getContext();
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    const ParamInfo &P = Info.Params[I];
    Argument *A = F.getArg(I);
    if (P.TheKind == ParamInfo::Pointer || P.Size == 0 || !A->getType()->isPointerTy() ||
        A->hasByValAttr())
      continue;
    A->addAttr(Attribute::getWithByValType(C, ArrayType::get(Type::getInt8Ty(C), P.Size)));
    A->removeAttr(Attribute::Alignment);
    A->addAttr(Attribute::getWithAlignment(C, Align(P.Align)));
    A->addAttr(Attribute::get(C, IndirectArgAttr));
  }
}

std::vector<IRParam> describeKernelParams(const Function &F, const DeviceFunctionInfo &Info) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::vector<IRParam> Out;
  unsigned ArgIdx = 0;
  for (const ParamInfo &P : Info.Params) {
    unsigned Pieces = irPiecesOf(F, ArgIdx, P);
    for (unsigned K = 0; K < Pieces && ArgIdx < F.arg_size(); ++K, ++ArgIdx) {
      const Argument *A = F.getArg(ArgIdx);
      IRParam R;
      R.Name = Pieces > 1 ? P.Name + "." + std::to_string(K) : P.Name;
      if (A->hasByValAttr()) {
        R.Kind = KP_PARAM_BYVAL;
        R.Size = DL.getTypeAllocSize(A->getParamByValType());
      } else {
        R.Kind = P.TheKind == ParamInfo::Pointer ? KP_PARAM_POINTER : KP_PARAM_VALUE;
        R.Size = DL.getTypeAllocSize(A->getType());
        R.ElemSize = P.ElemSize;
        R.Flags = P.PointeeConst ? KP_PARAM_CONST : 0;
        if (P.TheKind == ParamInfo::Scalar)
          R.Flags |= (P.IsFloat ? KP_PARAM_FLOAT : 0) | (P.IsSigned ? KP_PARAM_SIGNED : 0);
      }
      Out.push_back(R);
    }
  }
  if (ArgIdx == F.arg_size() && Out.size() == F.arg_size())
    return Out;
  // An ABI shape the mapping above does not know: describe the IR as it is.
  Out.clear();
  for (const Argument &A : F.args()) {
    IRParam R;
    R.Name = "arg" + std::to_string(A.getArgNo());
    R.Kind = A.hasByValAttr() ? KP_PARAM_BYVAL
             : A.getType()->isPointerTy() ? KP_PARAM_POINTER
                                          : KP_PARAM_VALUE;
    R.Size = DL.getTypeAllocSize(A.hasByValAttr() ? A.getParamByValType() : A.getType());
    Out.push_back(R);
  }
  return Out;
}

} // namespace kernplug
