//===- Diagnostics.cpp - the passes report through LLVMContext --*- C++ -*-===//
#include "Diagnostics.h"
#include "DevicePass.h"

#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace kernplug {

const char *const RemarkPassName = "kernplug";

KernplugDiagnostic::KernplugDiagnostic(DiagnosticSeverity Severity, const Twine &Msg)
    : DiagnosticInfo(kind(), Severity), Msg(Msg) {}

void KernplugDiagnostic::print(DiagnosticPrinter &DP) const { DP << "kernplug: " << Msg; }

int KernplugDiagnostic::kind() {
  static const int Kind = getNextAvailablePluginDiagnosticKind();
  return Kind;
}

PassReporter contextReporter(LLVMContext &C) {
  auto Emit = [&C](DiagnosticSeverity Severity) {
    return [&C, Severity](const std::string &Msg) {
      C.diagnose(KernplugDiagnostic(Severity, Msg));
    };
  };
  return PassReporter{Emit(DS_Error), Emit(DS_Remark), Emit(DS_Warning)};
}

void reportAt(const Function &F, const Instruction *At, const Twine &Msg,
              DiagnosticSeverity Severity) {
  DiagnosticLocation Loc = At && At->getDebugLoc() ? DiagnosticLocation(At->getDebugLoc())
                                                   : DiagnosticLocation(F.getSubprogram());
  F.getContext().diagnose(DiagnosticInfoUnsupported(F, "kernplug: " + Msg, Loc, Severity));
}

void remark(const Function &F, StringRef RemarkName, const Twine &Msg) {
  LLVMContext &C = F.getContext();
  // Building the message costs more than asking whether anyone wants it.
  if (!C.getLLVMRemarkStreamer() &&
      !C.getDiagHandlerPtr()->isPassedOptRemarkEnabled(RemarkPassName))
    return;
  // No DebugLoc: clang places the remark at the function's name, as it does when the
  // passes have moved the function's DISubprogram to its body (HostSide.cpp).
  auto Emit = [&](OptimizationRemark R) {
    R << ("kernplug: " + Msg).str();
    C.diagnose(R);
  };
  if (F.empty())
    Emit(OptimizationRemark(RemarkPassName, RemarkName, &F));
  else
    Emit(OptimizationRemark(RemarkPassName, RemarkName, DiagnosticLocation(),
                            &F.getEntryBlock()));
}

} // namespace kernplug
