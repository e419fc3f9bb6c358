//===- DevicePass.cpp - IR helpers the passes share --------------*- C++ -*-===//
#include "LaunchBounds.h"
#include "DevicePass.h"

#include "attributes/Attributes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

void useCalleeABI(const Function *Callee, CallBase *Call) {
  // A call whose convention is not its callee's is undefined behaviour, which the optimiser
  // turns into no call at all (ms_abi, vectorcall, preserve_most, … kernels did nothing).
  Call->setCallingConv(Callee->getCallingConv());
  AttributeList FA = Callee->getAttributes();
  SmallVector<AttributeSet, 8> Params;
  for (unsigned I = 0; I < Callee->arg_size(); ++I)
    Params.push_back(FA.getParamAttrs(I));
  Call->setAttributes(AttributeList::get(Callee->getContext(), AttributeSet(), FA.getRetAttrs(),
                                         Params));
}

std::vector<GlobalValue *> annotatedGlobals(Module &M, StringRef Name, bool Remove) {
  std::vector<GlobalValue *> Found;
  GlobalVariable *Table = M.getGlobalVariable("llvm.global.annotations");
  if (!Table || !Table->hasInitializer())
    return Found;
  auto *Arr = dyn_cast<ConstantArray>(Table->getInitializer());
  if (!Arr)
    return Found;
  std::vector<Constant *> Kept;
  for (Use &U : Arr->operands()) {
    auto *Entry = cast<ConstantStruct>(U.get());
    auto *GV = dyn_cast<GlobalValue>(Entry->getOperand(0)->stripPointerCasts());
    auto *Str = dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    StringRef Annotation;
    if (Str && Str->hasInitializer())
      if (auto *CDA = dyn_cast<ConstantDataArray>(Str->getInitializer()))
        Annotation = CDA->getAsCString();
    if (GV && Annotation == Name)
      Found.push_back(GV);
    else
      Kept.push_back(Entry);
  }
  if (!Remove || Found.empty())
    return Found;
  if (Kept.empty()) {
    Table->eraseFromParent();
  } else {
    auto *Ty = ArrayType::get(Arr->getType()->getElementType(), Kept.size());
    auto *NewTable = new GlobalVariable(M, Ty, Table->isConstant(), Table->getLinkage(),
                                        ConstantArray::get(Ty, Kept), "", Table);
    NewTable->setSection(Table->getSection());
    NewTable->takeName(Table);
    Table->eraseFromParent();
  }
  return Found;
}

void removeMarkerAnnotations(Module &M) {
  for (const char *Name : {AnnotKernel, AnnotVectorize, AnnotGuvectorize, AnnotReduce, AnnotConstant})
    annotatedGlobals(M, Name, /*Remove=*/true);
  readLaunchBounds(M, /*Remove=*/true);
  // The annotation strings are now unused private globals.
  for (GlobalVariable &GV : make_early_inc_range(M.globals()))
    if (GV.getSection() == "llvm.metadata" && GV.use_empty() && GV.hasPrivateLinkage())
      GV.eraseFromParent();
}

} // namespace kernplug
