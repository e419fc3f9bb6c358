//===- HostStubsPass.cpp - kernplug-host-stubs -------------------*- C++ -*-===//
#include "DevicePass.h"
#include "KernelMetadata.h"
#include "Passes.h"
#include "cpu/CpuEntryPolicy.h"
#include "device/DeviceJob.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses HostStubsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  TranslationUnitInfo Info = readTranslationUnitInfo(M);
  if (Info.Functions.empty())
    return PreservedAnalyses::all();
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  if (any_of(Kernels, [](const KernelEntry &K) { return K.CpuEntry == CpuEntryKind::Undecided; })) {
    CpuEntryPolicyPass(S).run(M, MAM); // alone under opt
    Kernels = readKernelEntries(M);
  }
  if (!Kernels.empty()) {
    PendingDevice &Pending = *S.Pending;
    // Without a device job (this pass alone under opt) the tables get the placeholders of
    // the images the options ask for.
    std::vector<DeviceImage> Images =
        Pending.Job ? Pending.Job->placeholders() : expectedImages(*S.Opts);
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    rewriteHostModule(M, Kernels, Images, Info.MainFile, FAM);
    Pending.ImageTable = M.getNamedGlobal("__kp_images");
    if (!Pending.FinishScheduled)
      KernplugFinishPass(S.Pending).run(M, MAM);
  }
  removeMarkerAnnotations(M);
  eraseKernelMetadata(M);
  return PreservedAnalyses::none();
}

} // namespace kernplug
