//===- ExtractDevicePass.cpp - kernplug-extract-device -----------*- C++ -*-===//
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Passes.h"
#include "device/DeviceJob.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses ExtractDevicePass::run(Module &M, ModuleAnalysisManager &) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  if (Kernels.empty())
    return PreservedAnalyses::all();
  std::unique_ptr<Module> Dev =
      buildDeviceModule(M, Kernels, *S.Opts, contextReporter(M.getContext()));
  if (!Dev) {
    writeKernelEntries(M, {}); // reported: nothing for the later passes to do
    return PreservedAnalyses::none();
  }
  lowerPrintf(*Dev);
  lowerMemoryCalls(*Dev);
  lowerMathToLibdevice(*Dev);
  std::vector<std::string> Names;
  for (const KernelEntry &K : Kernels)
    Names.push_back(K.Name);
  // The device job runs while the host module is rewritten and optimised; the images
  // are placeholders until KernplugFinishPass fills them in.
  S.Pending->Job = DeviceJob::start(*Dev, std::move(Names), *S.Opts);
  Dev.reset();
  useReduceHostCopies(M, *S.Opts, Kernels);
  writeKernelEntries(M, Kernels);
  return PreservedAnalyses::none();
}

PreservedAnalyses LowerPrintfPass::run(Module &M, ModuleAnalysisManager &) {
  lowerPrintf(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses LowerMemoryCallsPass::run(Module &M, ModuleAnalysisManager &) {
  lowerMemoryCalls(M);
  return PreservedAnalyses::none();
}

PreservedAnalyses LowerMathPass::run(Module &M, ModuleAnalysisManager &) {
  lowerMathToLibdevice(M);
  return PreservedAnalyses::none();
}

} // namespace kernplug
