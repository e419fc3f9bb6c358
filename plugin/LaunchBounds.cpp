//===- LaunchBounds.cpp - launch_bounds and maxrregcount in the IR -*- C++ -*-===//
#include "LaunchBounds.h"

#include "attributes/Attributes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <vector>

using namespace llvm;

namespace kernplug {

std::map<const Function *, LaunchBounds> readLaunchBounds(Module &M, bool Remove) {
  std::map<const Function *, LaunchBounds> Found;
  GlobalVariable *Table = M.getGlobalVariable("llvm.global.annotations");
  auto *Arr = Table && Table->hasInitializer()
                  ? dyn_cast<ConstantArray>(Table->getInitializer())
                  : nullptr;
  if (!Arr)
    return Found;
  std::vector<Constant *> Kept;
  for (Use &U : Arr->operands()) {
    auto *Entry = cast<ConstantStruct>(U.get());
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    auto *Str = dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    StringRef Text;
    if (Str && Str->hasInitializer())
      if (auto *CDA = dyn_cast<ConstantDataArray>(Str->getInitializer()))
        Text = CDA->getAsCString();
    StringRef Max, Min;
    if (F && Text.consume_front(AnnotLaunchBoundsPrefix)) {
      std::tie(Max, Min) = Text.split(',');
      LaunchBounds B;
      if (!Max.getAsInteger(10, B.MaxThreads) && !Min.getAsInteger(10, B.MinBlocks)) {
        Found[F] = B;
        continue;
      }
    }
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

void annotateDeviceKernel(Function &F, const LaunchBounds &B, unsigned MaxRegisters) {
  LLVMContext &C = F.getContext();
  NamedMDNode *Annotations = F.getParent()->getOrInsertNamedMetadata("nvvm.annotations");
  auto Add = [&](StringRef Key, uint64_t Value) {
    Metadata *Ops[] = {ValueAsMetadata::get(&F), MDString::get(C, Key),
                       ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), Value))};
    Annotations->addOperand(MDNode::get(C, Ops));
  };
  if (B.MaxThreads) // .maxntid N, 1, 1, as nvcc writes __launch_bounds__(N)
    Add("maxntidx", B.MaxThreads);
  if (B.MinBlocks)
    Add("minctasm", B.MinBlocks);
  if (MaxRegisters)
    Add("maxnreg", MaxRegisters);
}

} // namespace kernplug
