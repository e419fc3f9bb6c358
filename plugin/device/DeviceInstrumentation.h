//===- DeviceInstrumentation.h - host instrumentation in device code -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DEVICEINSTRUMENTATION_H
#define KERNPLUG_PLUGIN_DEVICEINSTRUMENTATION_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class GlobalVariable;
} // namespace llvm

namespace kernplug {

/// Whether GV is UBSan's static data for its handlers (source location, type
/// names), which device code reaches only as a handler's argument.
bool isSanitizerData(const llvm::GlobalVariable &GV);

/// Makes the device module free of host instrumentation runtimes: each UBSan
/// handler call becomes a device-side report of its source location (once per
/// location), followed by a trap where the host build would abort; sanitizer
/// attributes and function metadata, profiling counters (-fprofile-instr-generate),
/// entry/exit hooks (-pg, -finstrument-functions) and patchable entries go.
void lowerHostInstrumentation(llvm::Module &Dev);

/// kernplug-strip-host-instrumentation: lowerHostInstrumentation on a device module.
class StripHostInstrumentationPass : public llvm::PassInfoMixin<StripHostInstrumentationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &Dev, llvm::ModuleAnalysisManager &);
};

/// Gives the CPU entries the plugin generated in the host module (`<k>.kp.cpu`,
/// `<k>.kp.cpu_block`, the ufunc kernels' entries) the sanitizer attributes of
/// their kernel, so that ASan, TSan and MSan, which instrument only functions
/// carrying them and run after this, check kernels running on the CPU.
void inheritSanitizerAttributes(llvm::Module &Host);

} // namespace kernplug

#endif
