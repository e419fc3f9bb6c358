//===- HostStubsPass.cpp - kernplug-host-stubs -------------------*- C++ -*-===//
#include "DevicePass.h"
#include "KernelMetadata.h"
#include "Passes.h"
#include "cpu/BarrierFission.h"
#include "cpu/CpuBlockEntry.h"
#include "cpu/CpuEntryPolicy.h"
#include "device/DeviceJob.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses HostStubsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  TranslationUnitInfo Info = readTranslationUnitInfo(M);
  if (Info.Functions.empty() && Info.DeviceExports.empty())
    return PreservedAnalyses::all();
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  // Alone under opt: the CPU entries' passes that have not run.
  auto Unbuilt = [&](CpuEntryKind Kind) {
    return any_of(Kernels,
                  [&](const KernelEntry &K) { return K.CpuEntry == Kind && !K.CpuEntriesBuilt; });
  };
  if (Unbuilt(CpuEntryKind::Undecided)) {
    CpuEntryPolicyPass(S).run(M, MAM);
    Kernels = readKernelEntries(M);
  }
  if (Unbuilt(CpuEntryKind::BlockLoop) || Unbuilt(CpuEntryKind::Split)) {
    MAM.invalidate(M, CpuBlockEntryPass().run(M, MAM));
    MAM.invalidate(M, BarrierFissionPass().run(M, MAM));
    Kernels = readKernelEntries(M);
  }
  // A file of device functions only (no kernels) still registers its GPU code, which the
  // runtime links into the modules that call those functions.
  if (!Kernels.empty() || S.Pending->Job) {
    PendingDevice &Pending = *S.Pending;
    // Without a device job (this pass alone under opt) the tables get the placeholders of
    // the images the options ask for.
    std::vector<DeviceImage> Images =
        Pending.Job ? Pending.Job->placeholders() : expectedImages(*S.Opts);
    rewriteHostModule(M, Kernels, Images, Info.MainFile);
    Pending.ImageTable = M.getNamedGlobal("__kp_images");
    if (!Pending.FinishScheduled)
      KernplugFinishPass(S.Pending).run(M, MAM);
  }
  removeMarkerAnnotations(M);
  eraseKernelMetadata(M);
  dropIndexedCloneLinks(M);
  return PreservedAnalyses::none();
}

} // namespace kernplug
