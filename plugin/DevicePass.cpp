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

void takeAnnotations(Module &M, bool Remove,
                     function_ref<bool(GlobalValue *, StringRef)> Take) {
  GlobalVariable *Table = M.getGlobalVariable("llvm.global.annotations");
  auto *Arr = Table && Table->hasInitializer()
                  ? dyn_cast<ConstantArray>(Table->getInitializer())
                  : nullptr;
  if (!Arr)
    return;
  std::vector<Constant *> Kept;
  for (Use &U : Arr->operands()) {
    auto *Entry = cast<ConstantStruct>(U.get());
    auto *GV = dyn_cast<GlobalValue>(Entry->getOperand(0)->stripPointerCasts());
    auto *Str = dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    StringRef Annotation;
    if (Str && Str->hasInitializer())
      if (auto *CDA = dyn_cast<ConstantDataArray>(Str->getInitializer()))
        Annotation = CDA->getAsCString();
    if (!(GV && Take(GV, Annotation)))
      Kept.push_back(Entry);
  }
  if (!Remove || Kept.size() == Arr->getNumOperands())
    return;
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
}

std::vector<GlobalValue *> annotatedGlobals(Module &M, StringRef Name, bool Remove) {
  std::vector<GlobalValue *> Found;
  takeAnnotations(M, Remove, [&](GlobalValue *GV, StringRef Annotation) {
    if (Annotation != Name)
      return false;
    Found.push_back(GV);
    return true;
  });
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
