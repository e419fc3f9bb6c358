//===- GenerateUfuncKernelsPass.cpp - kernplug-generate-ufunc-kernels -*- C++ -*-===//
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Passes.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses GenerateUfuncKernelsPass::run(Module &M, ModuleAnalysisManager &) {
  TranslationUnitInfo Info = readTranslationUnitInfo(M);
  if (Info.Functions.empty())
    return PreservedAnalyses::all();
  PassReporter Report = contextReporter(M.getContext());
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  addVectorizeKernels(M, Info, Kernels, Report);
  addGuvectorizeKernels(M, Info, Kernels, Report);
  addReduceKernels(M, Info, *S.Opts, Kernels, Report);
  writeKernelEntries(M, Kernels);
  return PreservedAnalyses::none();
}

} // namespace kernplug
