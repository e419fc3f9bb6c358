//===- CpuEntryPolicy.cpp - kernplug-cpu-entry-policy ------------*- C++ -*-===//
#include "cpu/CpuEntryPolicy.h"
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "abi/kp_abi.h"
#include "analysis/KernelCallGraph.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

PreservedAnalyses CpuEntryPolicyPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  if (Kernels.empty())
    return PreservedAnalyses::all();
  const KernelCallGraph &Graph = MAM.getResult<KernelCallGraphAnalysis>(M);
  for (KernelEntry &K : Kernels) {
    const KernelCallGraph::Reach &R = Graph.reachOf(K.Fn);
    // The flags extract-device set (through globals and constants too) or what the calls reach.
    bool Warp = (K.Flags & KP_KERNEL_USES_WARP) || R.Warp;
    bool Barrier = (K.Flags & KP_KERNEL_USES_BARRIER) || R.Barrier;
    K.CpuEntryWhy.clear();
    if (!Warp && !Barrier) {
      K.CpuEntry = CpuEntryKind::BlockLoop;
      remark(*K.HostFn, "CpuEntry", "kernel '" + K.Name + "': CPU entry = block loop");
      continue;
    }
    if (S.Opts->CpuBarrierFibers)
      K.CpuEntryWhy = "cpu-barriers=fibers";
    if (K.CpuEntryWhy.empty()) {
      K.CpuEntry = CpuEntryKind::Split; // host-stubs says whether it could
      continue;
    }
    K.CpuEntry = CpuEntryKind::Fibers;
    remark(*K.HostFn, "BarrierFibers",
           "kernel '" + K.Name + "': barriers kept on fibers on the CPU: " + K.CpuEntryWhy);
  }
  writeKernelEntries(M, Kernels);
  PreservedAnalyses PA;
  PA.preserve<KernelCallGraphAnalysis>(); // metadata only
  return PA;
}

} // namespace kernplug
