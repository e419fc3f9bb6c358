//===- CpuDebugInfo.h - kernplug-cpu-debug-info ------------------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_CPU_CPUDEBUGINFO_H
#define KERNPLUG_PLUGIN_CPU_CPUDEBUGINFO_H

#include "llvm/IR/PassManager.h"

namespace kernplug {

/// kernplug-cpu-debug-info: the CPU entries the plugin generates (`<k>.kp.cpu`,
/// `<k>.kp.cpu_block`, the generated kernels' entries) get an artificial DISubprogram at
/// their kernel's line, and the kernel code in them (cloned, inlined, split at barriers)
/// keeps its lines as code inlined there. Without it LLVM drops the kernel's debug
/// locations from the CPU copies, and gdb, ASan and valgrind see no kernel line.
class CpuDebugInfoPass : public llvm::PassInfoMixin<CpuDebugInfoPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; } // -g -O0 is where it matters most
};

} // namespace kernplug

#endif
