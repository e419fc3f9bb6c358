//===- CpuEntryPolicy.cpp - kernplug-cpu-entry-policy ------------*- C++ -*-===//
#include "cpu/CpuEntryPolicy.h"
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "abi/kp_abi.h"
#include "analysis/KernelCallGraph.h"
#include "generated/CpuRangeEntry.h"

#include "llvm/IR/DebugInfoMetadata.h"
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
    // ufunc and gufunc kernels run on the CPU through their range entries (generated/
    // CpuRangeEntry.h): a block entry would be host compile time for nothing, and the
    // per-thread entry, which no CPU launch takes (the descriptor needs one), is left
    // unoptimised: the range entry calls the element function itself, not this body.
    if (M.getFunction(cpuRangeEntryName(K.Name))) {
      K.CpuEntry = CpuEntryKind::Fibers;
      K.CpuEntryWhy = "it runs through its range entry";
      for (Attribute::AttrKind A :
           {Attribute::AlwaysInline, Attribute::MinSize, Attribute::OptimizeForSize})
        K.Fn->removeFnAttr(A); // optnone excludes them
      K.Fn->addFnAttr(Attribute::NoInline);
      K.Fn->addFnAttr(Attribute::OptimizeNone);
      remark(*K.HostFn, "CpuEntry", "kernel '" + K.Name + "': CPU entry = range entry");
      continue;
    }
    if ((K.Flags & KP_KERNEL_COOPERATIVE) || R.GridBarrier) {
      // grid_sync() waits for every thread of the grid: the runtime keeps all of them alive
      // at once as fibers (a block entry runs one block's threads to completion).
      K.CpuEntry = CpuEntryKind::Fibers;
      K.Flags |= KP_KERNEL_USES_BARRIER | KP_KERNEL_COOPERATIVE;
      if (R.ExternalDevice)
        K.Flags |= KP_KERNEL_USES_WARP; // another file's code may use either
      K.CpuEntryWhy = "grid_sync() needs every thread of the grid alive at once";
      remark(*K.HostFn, "GridSync",
             "kernel '" + K.Name + "': CPU entry = fibers, launched cooperatively: " +
                 K.CpuEntryWhy);
      continue;
    }
    if (R.ExternalDevice) {
      // Another file's device function may wait at a barrier or read the thread's indices,
      // which only the fibers' per-thread state answers outside this file's code.
      K.CpuEntry = CpuEntryKind::Fibers;
      K.Flags |= KP_KERNEL_USES_BARRIER | KP_KERNEL_USES_WARP; // what the runtime's fibers serve
      K.CpuEntryWhy = "it calls a device function of another file, whose barriers and "
                      "indices only fibers serve";
      remark(*K.HostFn, "ExternalDevice",
             "kernel '" + K.Name + "': CPU entry = fibers: " + K.CpuEntryWhy);
      continue;
    }
    if (!Warp && !Barrier) {
      K.CpuEntry = CpuEntryKind::BlockLoop;
      remark(*K.HostFn, "CpuEntry", "kernel '" + K.Name + "': CPU entry = block loop");
      continue;
    }
    if (S.Opts->CpuBarrierFibers)
      K.CpuEntryWhy = "cpu-barriers=fibers";
    else if (K.HostFn->hasFnAttribute(Attribute::OptimizeNone) && K.HostFn->getSubprogram() &&
             K.HostFn->getSubprogram()->getUnit()->getEmissionKind() ==
                 DICompileUnit::FullDebug)
      // -O0 -g is a debugging build: on fibers every line and local of the kernel is there
      // for gdb; the split regions keep few of them.
      K.CpuEntryWhy = "-O0 -g: fibers keep every line and variable for the debugger";
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
