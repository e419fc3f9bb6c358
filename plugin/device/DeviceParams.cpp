//===- DeviceParams.cpp - kernel parameters PTX can declare -----*- C++ -*-===//
//
// Device and host share the IR signature of a kernel, but x86-64 passes a struct of 3, 5, 6
// or 7 bytes (or the last piece of one of 11 to 15 bytes) as i24, i40, i48 or i56, which
// NVPTX declares as `.param .u24`: ptxas rejects it, and no driver loads the PTX. The device
// kernel takes the integer of the host slot the stub fills instead (4 or 8 bytes, zero
// extended: HostSide.cpp's makeStub), which is also the size the parameter table gives the
// runtime, and truncates it.
//
//===----------------------------------------------------------------------===//
#include "device/DeviceParams.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

static Type *ptxParamType(Type *T) {
  auto *IT = dyn_cast<IntegerType>(T);
  if (!IT || IT->getBitWidth() >= 64 || isPowerOf2_32(IT->getBitWidth()))
    return T;
  return IntegerType::get(T->getContext(), std::max(8u, unsigned(PowerOf2Ceil(IT->getBitWidth()))));
}

Function *widenKernelParams(Function &K) {
  SmallVector<Type *, 8> Params;
  bool Changed = false;
  for (Argument &A : K.args()) {
    Params.push_back(ptxParamType(A.getType()));
    Changed |= Params.back() != A.getType();
  }
  if (!Changed || K.isDeclaration())
    return &K;
  auto *Ty = FunctionType::get(K.getReturnType(), Params, K.isVarArg());
  Function *NF = Function::Create(Ty, K.getLinkage(), K.getAddressSpace());
  K.getParent()->getFunctionList().insert(K.getIterator(), NF); // same place in the PTX
  NF->copyAttributesFrom(&K);
  NF->setSubprogram(K.getSubprogram());
  NF->splice(NF->begin(), &K);
  IRBuilder<> B(&*NF->getEntryBlock().getFirstInsertionPt());
  for (Argument &A : K.args()) {
    Argument *New = NF->getArg(A.getArgNo());
    New->takeName(&A);
    A.replaceAllUsesWith(New->getType() == A.getType() ? New : B.CreateTrunc(New, A.getType()));
  }
  NF->takeName(&K);
  K.replaceAllUsesWith(NF);
  K.eraseFromParent();
  return NF;
}

PreservedAnalyses WidenKernelParamsPass::run(Module &Dev, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : Dev)
    if (F.getCallingConv() == CallingConv::PTX_Kernel)
      Kernels.push_back(&F);
  bool Changed = false;
  for (Function *K : Kernels)
    Changed |= widenKernelParams(*K) != K;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kernplug
