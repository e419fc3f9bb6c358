//===- Diagnostics.h - the passes report through LLVMContext ----*- C++ -*-===//
//
// Every IR pass reports through LLVMContext::diagnose, so the same pass runs
// under clang and under opt. Under clang (clang/lib/CodeGen/CodeGenAction.cpp,
// BackendConsumer::DiagnosticHandlerImpl):
//  - a plugin kind (KernplugDiagnostic) is a backend-plugin diagnostic: errors
//    stay errors; warnings are in -Wbackend-plugin, so -Werror and -Wno-... act
//    on them natively; remarks are in -Rremark-backend-plugin;
//  - DiagnosticInfoUnsupported (reportAt) is placed at the DebugLoc of the
//    offending instruction, or at the function's definition when there is no
//    debug info;
//  - OptimizationRemark (remark) is shown by -Rpass=kernplug and written by
//    -fsave-optimization-record.
// -fplugin-arg-kernplug-verbose turns on -Rpass=kernplug and
// -Rremark-backend-plugin (KernplugPlugin.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_DIAGNOSTICS_H
#define KERNPLUG_PLUGIN_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DiagnosticInfo.h"

namespace llvm {
class Function;
class Instruction;
class LLVMContext;
} // namespace llvm

namespace kernplug {

struct PassReporter;

/// The remarks' pass name: -Rpass=kernplug.
extern const char *const RemarkPassName;

/// "kernplug: <message>" with no location, of the plugin's own diagnostic kind.
class KernplugDiagnostic : public llvm::DiagnosticInfo {
public:
  KernplugDiagnostic(llvm::DiagnosticSeverity Severity, const llvm::Twine &Msg);
  void print(llvm::DiagnosticPrinter &DP) const override;
  static bool classof(const llvm::DiagnosticInfo *DI) { return DI->getKind() == kind(); }

private:
  static int kind();
  const llvm::Twine &Msg;
};

/// A PassReporter whose errors, warnings and notes (as remarks) are
/// KernplugDiagnostics in C.
PassReporter contextReporter(llvm::LLVMContext &C);

/// An error (or warning) about F, at At's DebugLoc, or at F's definition.
void reportAt(const llvm::Function &F, const llvm::Instruction *At, const llvm::Twine &Msg,
              llvm::DiagnosticSeverity Severity = llvm::DS_Error);

/// A remark about what a pass did to F: -Rpass=kernplug.
void remark(const llvm::Function &F, llvm::StringRef RemarkName, const llvm::Twine &Msg);

} // namespace kernplug

#endif
