//===- DeviceParams.h - kernel parameters PTX can declare -------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DEVICEPARAMS_H
#define KERNPLUG_PLUGIN_DEVICEPARAMS_H

#include "llvm/IR/PassManager.h"

namespace kernplug {

/// The device kernel K with every i24/i40/i48/i56 parameter (a struct of 3, 5, 6 or 7
/// bytes) widened to the 4 or 8 bytes the host passes; K itself when none.
llvm::Function *widenKernelParams(llvm::Function &K);

/// kernplug-widen-kernel-params: widenKernelParams on each kernel (ptx_kernel) of a
/// device module.
class WidenKernelParamsPass : public llvm::PassInfoMixin<WidenKernelParamsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &Dev, llvm::ModuleAnalysisManager &);
};

} // namespace kernplug

#endif
