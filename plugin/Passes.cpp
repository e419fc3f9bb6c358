//===- Passes.cpp - kernplug's passes in the pass manager -------*- C++ -*-===//
#include "Passes.h"
#include "ClangCompat.h"
#include "analysis/KernelCallGraph.h"
#include "cpu/BarrierFission.h"
#include "cpu/CheckedAccess.h"
#include "cpu/CpuBlockEntry.h"
#include "cpu/CpuDebugInfo.h"
#include "cpu/CpuEntryPolicy.h"
#include "cpu/FlatBlockRows.h"
#include "cpu/GridStrideInterchange.h"
#include "cpu/SharedAtomics.h"
#include "cpu/ThreadLoopVersioning.h"
#include "device/DeviceAtomics.h"
#include "device/DeviceInstrumentation.h"
#include "device/DeviceJob.h"
#include "device/DeviceParams.h"
#include "device/DeviceUnroll.h"
#include "device/IndirectBranches.h"
#include "split/SplitPass.h"

#include "llvm/Passes/PassBuilder.h"
#include KP_PASS_PLUGIN_H
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace kernplug {
namespace {

void registerPassNames(PassBuilder &PB, const PassState &S) {
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
#define MODULE_ANALYSIS(NAME, CREATE) MAM.registerPass([] { return CREATE; });
#include "PassRegistry.def"
  });
  PB.registerPipelineParsingCallback(
      [S](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "kernplug-finish")
          S.Pending->FinishScheduled = true; // host-stubs leaves the job to it
#define MODULE_PASS(NAME, CREATE)                                                              \
  if (Name == NAME) {                                                                          \
    MPM.addPass(CREATE);                                                                       \
    return true;                                                                               \
  }
#include "PassRegistry.def"
        return false;
      });
  PB.registerPipelineParsingCallback(
      [S](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
#define FUNCTION_PASS(NAME, CREATE)                                                            \
  if (Name == NAME) {                                                                          \
    FPM.addPass(CREATE);                                                                       \
    return true;                                                                               \
  }
#include "PassRegistry.def"
        return false;
      });
}

} // namespace

void registerKernplugPasses(PassBuilder &PB, const PassState &S) {
  registerPassNames(PB, S);
  PB.registerPipelineStartEPCallback([S](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(CollectKernelsPass());
    MPM.addPass(GenerateUfuncKernelsPass(S));
    MPM.addPass(ExtractDevicePass(S));
    MPM.addPass(ProbeStacksPass());
    MPM.addPass(CpuEntryPolicyPass(S));
    MPM.addPass(CpuBlockEntryPass());
    MPM.addPass(GridStrideInterchangePass());
    MPM.addPass(CpuFlatBlockRowsPass());
    MPM.addPass(BarrierFissionPass());
    if (S.Opts->Check) // KP_CHECK's entries, only when asked for
      MPM.addPass(CpuCheckedAccessPass());
    MPM.addPass(HostStubsPass(S));
    MPM.addPass(CpuDebugInfoPass());
    if (!S.Opts->SplitId.empty()) // split mode: the kernel side only (split/SplitPass.h)
      MPM.addPass(SplitHostPass(S));
  });
  // After inlining and SROA (the CPU entries' addresses are SSA values by then), before the
  // vectoriser and the loop passes of the optimisation pipeline.
  compat::registerOptimizerEarlyEP(PB, [](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(CpuSharedAtomicsPass());
  });
  // Every pipeline clang builds (-O0 to -O3, LTO and ThinLTO pre-link) has this point; the
  // device job has run beside the host pipeline until here.
  compat::registerOptimizerLastEP(PB, [S](ModulePassManager &MPM, OptimizationLevel) {
    S.Pending->FinishScheduled = true;
    MPM.addPass(KernplugFinishPass(S.Pending));
    if (!S.Opts->SplitId.empty())
      MPM.addPass(SplitNamesPass(S));
  });
  PB.registerVectorizerStartEPCallback([](FunctionPassManager &FPM, OptimizationLevel) {
    FPM.addPass(ThreadLoopVersioningPass());
  });
}

} // namespace kernplug

/// opt-19 (or opt-22) -load-pass-plugin kernplug.so -passes=kernplug-<name>: the passes by name only,
/// with the default options.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "kernplug", "1", [](PassBuilder &PB) {
            auto Opts = std::make_shared<kernplug::PluginOptions>();
            Opts->resolvePaths();
            kernplug::PassState S{Opts, std::make_shared<kernplug::PendingDevice>()};
            kernplug::registerPassNames(PB, S);
          }};
}
