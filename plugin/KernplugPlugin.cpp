//===- KernplugPlugin.cpp - the clang plugin entry point --------*- C++ -*-===//
//
// Wires the pieces together: attribute spellings before parsing, the AST
// checks before clang's code generator, and the device pass at the start of
// the LLVM pipeline (registered through CodeGenOptions, so -fplugin alone is
// enough and it runs at -O0 too).
//
//===----------------------------------------------------------------------===//
#include "attributes/Attributes.h"
#include "frontend/DeviceCodeChecks.h"
#include "frontend/KernelCollector.h"
#include "device/DeviceJob.h"
#include "DevicePass.h"
#include "Options.h"
#include "cpu/ThreadLoopVersioning.h"
#include "frontend/UfuncCallChecks.h"

#include "clang/Basic/CodeGenOptions.h"
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

class KernplugAction : public PluginASTAction {
public:
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &A : Args) {
      std::string Err;
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
    PassReporter Report{
        [&D](const std::string &Msg) {
          D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "kernplug: %0")) << Msg;
        },
        [&D, Verbose](const std::string &Msg) {
          if (Verbose)
            D.Report(D.getCustomDiagID(DiagnosticsEngine::Remark, "kernplug: %0")) << Msg;
        },
        [&D](const std::string &Msg) {
          // A custom warning has no group, so -Werror would not reach it by itself.
          D.Report(D.getCustomDiagID(D.getWarningsAsErrors() ? DiagnosticsEngine::Error
                                                             : DiagnosticsEngine::Warning,
                                     "kernplug: %0"))
              << Msg;
        }};
    std::shared_ptr<const PluginOptions> PassOpts = Opts;
    auto Pending = std::make_shared<PendingDevice>();
    CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
        [PassOpts, Info, Report, Pending](llvm::PassBuilder &PB) {
          PB.registerPipelineStartEPCallback([PassOpts, Info, Report, Pending](
                                                 llvm::ModulePassManager &MPM,
                                                 llvm::OptimizationLevel) {
            MPM.addPass(KernplugPass(PassOpts, Info, Report, Pending));
          });
          // Every pipeline clang builds (-O0 to -O3, LTO and ThinLTO pre-link) has this
          // point; the device job has run beside the host pipeline until here.
          PB.registerOptimizerLastEPCallback(
              [Report, Pending](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
                Pending->FinishScheduled = true;
                MPM.addPass(KernplugFinishPass(Pending, Report));
              });
          PB.registerVectorizerStartEPCallback(
              [](llvm::FunctionPassManager &FPM, llvm::OptimizationLevel) {
                FPM.addPass(ThreadLoopVersioningPass());
              });
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
