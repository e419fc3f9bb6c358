//===- Passes.h - kernplug's IR passes, one job each ------------*- C++ -*-===//
//
// Each pass reads its input from the IR (KernelMetadata.h, the kernplug.*
// annotations, attributes it or an earlier pass set) and reports through
// LLVMContext::diagnose (Diagnostics.h), so each runs alone under
// `opt -load-pass-plugin kernplug.so -passes=kernplug-<name>` (PassRegistry.def).
// clang's pipeline runs them in this order at its start:
//
//   collect-kernels, generate-ufunc-kernels, extract-device, probe-stacks,
//   cpu-entry-policy (cpu/CpuEntryPolicy.h), cpu-block-entry (cpu/CpuBlockEntry.h),
//   barrier-fission (cpu/BarrierFission.h), host-stubs, cpu-debug-info (cpu/CpuDebugInfo.h)
//
// and kernplug-finish at its end (DeviceJob.h), with thread-loop-versioning
// before the loop vectoriser (ThreadLoopVersioning.h).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_PASSES_H
#define KERNPLUG_PLUGIN_PASSES_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

#include <memory>

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace kernplug {

struct PendingDevice;

/// What the passes of one pipeline share: the options, and the device job
/// from extract-device to finish.
struct PassState {
  std::shared_ptr<const PluginOptions> Opts;
  std::shared_ptr<PendingDevice> Pending;
};

/// Records the user kernels named in !kernplug.functions as !kernplug.kernels,
/// with their parameter tables; parameters the Windows x64 convention passes by
/// pointer become byval (KernelParams.cpp).
class CollectKernelsPass : public llvm::PassInfoMixin<CollectKernelsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Adds the kernels of the vectorize, guvectorize and reduce functions to the
/// module and to !kernplug.kernels.
class GenerateUfuncKernelsPass : public llvm::PassInfoMixin<GenerateUfuncKernelsPass> {
public:
  explicit GenerateUfuncKernelsPass(PassState S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  PassState S;
};

/// Clones what the kernels reach into the NVPTX device module, lowers it
/// (printf, memory calls, math) and starts compiling it beside the host
/// pipeline (DeviceJob.h); sets the kernels' KP_KERNEL_USES_* flags.
class ExtractDevicePass : public llvm::PassInfoMixin<ExtractDevicePass> {
public:
  explicit ExtractDevicePass(PassState S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  PassState S;
};

/// printf -> vprintf, on a device module.
class LowerPrintfPass : public llvm::PassInfoMixin<LowerPrintfPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// memset/memcpy/memmove calls -> LLVM's intrinsics, on a device module.
class LowerMemoryCallsPass : public llvm::PassInfoMixin<LowerMemoryCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// Math calls and intrinsics -> libdevice, on a device module.
class LowerMathPass : public llvm::PassInfoMixin<LowerMathPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// Stack probes in every host function the kernels reach (ProbeStacksPass.cpp says why;
/// KernelCallGraph.h says which).
class ProbeStacksPass : public llvm::PassInfoMixin<ProbeStacksPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// The host side of the kernels: launch stubs, per-thread CPU entries, descriptors
/// naming the entries kernplug-cpu-block-entry and kernplug-barrier-fission built, with
/// placeholder images, and the registration constructor (HostSide.cpp); then takes the
/// kernplug markers out of the module. Alone under opt it runs the CPU entries' passes
/// first.
class HostStubsPass : public llvm::PassInfoMixin<HostStubsPass> {
public:
  explicit HostStubsPass(PassState S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  PassState S;
};

/// Adds kernplug's passes to PB's pipelines and makes them known by name.
void registerKernplugPasses(llvm::PassBuilder &PB, const PassState &S);

} // namespace kernplug

#endif
