//===- CollectKernelsPass.cpp - kernplug-collect-kernels ----------*- C++ -*-===//
#include "DevicePass.h"
#include "KernelMetadata.h"
#include "Passes.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses CollectKernelsPass::run(Module &M, ModuleAnalysisManager &) {
  TranslationUnitInfo Info = readTranslationUnitInfo(M);
  if (Info.Functions.empty())
    return PreservedAnalyses::all(); // no annotations: exactly as without the plugin
  std::vector<KernelEntry> Kernels;
  for (const DeviceFunctionInfo &F : Info.Functions) {
    if (F.TheRole != DeviceFunctionInfo::Kernel)
      continue;
    Function *Fn = M.getFunction(F.IRName);
    if (!Fn || Fn->isDeclaration())
      continue; // defined elsewhere, or unused and not emitted
    KernelEntry E;
    E.Name = F.IRName;
    E.Fn = E.HostFn = Fn;
    passIndirectArgsByValue(*Fn, F);
    E.Params = describeKernelParams(*Fn, F);
    E.File = F.File;
    E.Line = F.Line;
    Kernels.push_back(std::move(E));
  }
  writeKernelEntries(M, Kernels);
  return PreservedAnalyses::none();
}

} // namespace kernplug
