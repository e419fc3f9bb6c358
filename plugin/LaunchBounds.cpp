//===- LaunchBounds.cpp - launch_bounds and maxrregcount in the IR -*- C++ -*-===//
#include "LaunchBounds.h"
#include "DevicePass.h"

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
  takeAnnotations(M, Remove, [&](GlobalValue *GV, StringRef Text) {
    auto *F = dyn_cast<Function>(GV);
    LaunchBounds B;
    StringRef Max, Min;
    if (!F || !Text.consume_front(AnnotLaunchBoundsPrefix))
      return false;
    std::tie(Max, Min) = Text.split(',');
    if (Max.getAsInteger(10, B.MaxThreads) || Min.getAsInteger(10, B.MinBlocks))
      return false;
    Found[F] = B;
    return true;
  });
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
