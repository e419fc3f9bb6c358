//===- ExtractDevicePass.cpp - kernplug-extract-device -----------*- C++ -*-===//
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Passes.h"
#include "device/DeviceJob.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

/// The `device` functions this file defines for other files' device code (KernelCollector's
/// list, as functions; those clang did not emit are not there to export).
static std::vector<Function *> deviceExports(const Module &M) {
  std::vector<Function *> Exports;
  for (const std::string &Name : readTranslationUnitInfo(M).DeviceExports)
    if (Function *F = M.getFunction(Name); F && !F->isDeclaration())
      Exports.push_back(F);
  return Exports;
}

PreservedAnalyses ExtractDevicePass::run(Module &M, ModuleAnalysisManager &) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  std::vector<Function *> Exports = deviceExports(M);
  if (Kernels.empty() && Exports.empty())
    return PreservedAnalyses::all();
  std::unique_ptr<Module> Dev =
      buildDeviceModule(M, Kernels, Exports, *S.Opts, contextReporter(M.getContext()));
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
  for (Function *F : Exports)
    Names.push_back(F->getName().str()); // kept external too
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
