//===- KernplugPlugin.cpp - the clang plugin entry point --------*- C++ -*-===//
//
// Wires the pieces together: attribute spellings before parsing, the AST
// checks before clang's code generator, and the passes (Passes.h) in the LLVM
// pipeline, after the one that writes what the checks found into the module
// (registered through CodeGenOptions, so -fplugin alone is enough and they run
// at -O0 too).
//
//===----------------------------------------------------------------------===//
#include "attributes/Attributes.h"
#include "frontend/DeviceCodeChecks.h"
#include "frontend/KernelCollector.h"
#include "device/DeviceJob.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Options.h"
#include "Passes.h"
#include "frontend/UfuncCallChecks.h"
#include "frontend/LaunchArgChecks.h"
#include "split/AsmLineTable.h"

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Passes/PassBuilder.h"

using namespace clang;

namespace kernplug {
namespace {

/// Kernels are compiled by the plugin's pass in the LLVM pipeline. A compile that runs no
/// pipeline (clang's own -save-temps emits its .bc with -disable-llvm-passes, and the later
/// steps have no AST to find the kernels in) would drop them silently: say so instead.
class PassesDisabledCheck : public ASTConsumer {
public:
  PassesDisabledCheck(CompilerInstance &CI, std::shared_ptr<const TranslationUnitInfo> Info)
      : CI(CI), Info(std::move(Info)) {}
  void HandleTranslationUnit(ASTContext &) override {
    if (!CI.getCodeGenOpts().DisableLLVMPasses || Info->Functions.empty())
      return;
    const DeviceFunctionInfo &F = Info->Functions.front();
    DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(D.getCustomDiagID(
        DiagnosticsEngine::Error,
        "kernplug: '%0' (%1:%2) and the other kernels of this file would not be compiled: "
        "LLVM passes are disabled (clang's -save-temps or -Xclang -disable-llvm-passes); "
        "use -fplugin-arg-kernplug-save-temps to keep the device code's intermediate files"))
        << F.IRName << F.File << F.Line;
  }

private:
  CompilerInstance &CI;
  std::shared_ptr<const TranslationUnitInfo> Info;
};

/// Hands the AST consumers' findings to the IR passes, as module metadata.
class WriteKernelMetadataPass : public llvm::PassInfoMixin<WriteKernelMetadataPass> {
public:
  explicit WriteKernelMetadataPass(std::shared_ptr<const TranslationUnitInfo> Info)
      : Info(std::move(Info)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    // No kernels and no device functions for other files: exactly as without the plugin.
    if (Info->Functions.empty() && Info->DeviceExports.empty())
      return llvm::PreservedAnalyses::all();
    writeTranslationUnitInfo(M, *Info);
    return llvm::PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }

private:
  std::shared_ptr<const TranslationUnitInfo> Info;
};

/// verbose: the passes' remarks (Diagnostics.h) are shown, as -Rpass=kernplug and
/// -Rremark-backend-plugin would show them.
void enableRemarks(CompilerInstance &CI) {
  CodeGenOptions::OptRemark &R = CI.getCodeGenOpts().OptimizationRemark;
  std::string Pattern = R.Pattern.empty() ? RemarkPassName : R.Pattern + "|" + RemarkPassName;
  R.Kind = CodeGenOptions::RK_Enabled;
  R.Regex = std::make_shared<llvm::Regex>(Pattern);
  R.Pattern = std::move(Pattern);
  DiagnosticsEngine &D = CI.getDiagnostics();
  D.setSeverityForGroup(diag::Flavor::Remark, "pass", diag::Severity::Remark);
  D.setSeverityForGroup(diag::Flavor::Remark, "remark-backend-plugin", diag::Severity::Remark);
}

class KernplugAction : public PluginASTAction {
public:
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &A : Args) {
      std::string Err;
      if (A == "asm-line-table") { // for kernplug-gcc.so's -g (split/AsmLineTable.h)
        if (writeLineTablesInAssembly(Err))
          continue;
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "kernplug: %0")) << Err;
        return false;
      }
      if (!Opts->parse(A, Err)) {
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "kernplug: %0 in -fplugin-arg-kernplug-%1"))
            << Err << A;
        return false;
      }
    }
    std::string Err;
    if (!Opts->finishParsing(Err)) {
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "kernplug: %0")) << Err;
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    if (!installBuiltinSpellingOverrides())
      D.Report(D.getCustomDiagID(
          DiagnosticsEngine::Error,
          "kernplug: this clang's attribute table does not have the layout kernplug was "
          "built for; 'kernel', 'device' and 'shared' cannot be registered"));
    Opts->OutputFile = CI.getFrontendOpts().OutputFile;
    Opts->MainFile = InFile.str();
    Opts->DebugLineInfo =
        CI.getCodeGenOpts().getDebugInfo() != llvm::codegenoptions::NoDebugInfo;
    Opts->resolvePaths();

    auto Info = std::make_shared<TranslationUnitInfo>();
    bool Verbose = Opts->Verbose;
    if (Verbose)
      enableRemarks(CI);
    PassState State{Opts, std::make_shared<PendingDevice>()};
    CI.getCodeGenOpts().PassBuilderCallbacks.push_back([Info, State](llvm::PassBuilder &PB) {
      // First at the pipeline's start: the passes after it read the AST's findings from
      // the module (KernelMetadata.h).
      PB.registerPipelineStartEPCallback(
          [Info](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
            MPM.addPass(WriteKernelMetadataPass(Info));
          });
      registerKernplugPasses(PB, State);
    });
    if (Verbose)
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Remark,
                                 "kernplug: libdevice '%0', ptxas '%1', device runtime '%2'"))
          << (Opts->Libdevice.empty() ? "<none>" : Opts->Libdevice)
          << (Opts->Ptxas.empty() ? "<none>" : Opts->Ptxas)
          << (Opts->DeviceRuntime.empty() ? "<none>" : Opts->DeviceRuntime);
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<KernelCollector>(Opts->MainFile, Info));
    Consumers.push_back(std::make_unique<DeviceCodeChecks>(*Opts));
    Consumers.push_back(std::make_unique<UfuncCallChecksConsumer>());
    Consumers.push_back(std::make_unique<LaunchArgChecksConsumer>());
    Consumers.push_back(std::make_unique<PassesDisabledCheck>(CI, Info));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  std::shared_ptr<PluginOptions> Opts = std::make_shared<PluginOptions>();
};

FrontendPluginRegistry::Add<KernplugAction> Register("kernplug",
                                                     "GPU kernels from C functions");

} // namespace
} // namespace kernplug
