//===- ConstantMemory.cpp - file-scope `constant` variables in the IR -*- C++ -*-===//
#include "ConstantMemory.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

std::string ptxSymbolOf(StringRef IRName) {
  std::string Out;
  for (char C : IRName) {
    if (isAlnum(C) || C == '_' || C == '$')
      Out += C;
    else
      Out += "_$_";
  }
  return Out;
}

void moveToConstantSpace(GlobalVariable *GV) {
  Module &M = *GV->getParent();
  Constant *Init = GV->hasInitializer() ? GV->getInitializer()
                                        : Constant::getNullValue(GV->getValueType());
  auto *NewGV = new GlobalVariable(M, GV->getValueType(), /*isConstant=*/false,
                                   GlobalValue::ExternalLinkage, Init, "", nullptr,
                                   GlobalValue::NotThreadLocal, /*AddressSpace=*/4);
  NewGV->setAlignment(GV->getAlign());
  NewGV->setVisibility(GlobalValue::DefaultVisibility);
  NewGV->addAttribute(ConstantMemoryAttr);
  std::string Name = ptxSymbolOf(GV->getName());
  GV->replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(NewGV, GV->getType()));
  GV->eraseFromParent();
  NewGV->setName(Name);
}

} // namespace kernplug
