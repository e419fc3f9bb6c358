//===- DeviceJob.cpp - device code generation beside the host's -*- C++ -*-===//
#include "device/DeviceJob.h"
#include "Diagnostics.h"
#include "device/DeviceInstrumentation.h"

#include "clang/Basic/Stack.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <ctime>

using namespace llvm;
using clang::DesiredStackSize;

namespace kernplug {

static double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

std::unique_ptr<DeviceJob> DeviceJob::start(const Module &Dev,
                                            std::vector<std::string> KernelNames,
                                            const PluginOptions &Opts) {
  std::unique_ptr<DeviceJob> Job(new DeviceJob());
  Job->Started = std::chrono::steady_clock::now();
  {
    raw_string_ostream OS(Job->Bitcode);
    WriteBitcodeToFile(Dev, OS);
  }
  Job->ModuleName = Dev.getModuleIdentifier();
  Job->KernelNames = std::move(KernelNames);
  Job->Opts = Opts;
  Job->Placeholders = expectedImages(Opts);
  // The stack clang gives its own thread: NVPTX code generation recurses as deep as the host's,
  // and a default thread stack is 2 MiB under `ulimit -s unlimited`.
  Job->Thread =
      llvm::thread(std::optional<unsigned>(DesiredStackSize), [J = Job.get()] { J->run(); });
  return Job;
}

DeviceJob::~DeviceJob() {
  if (Thread.joinable())
    Thread.join();
}

void DeviceJob::run() {
  auto Add = [this](Message::Kind K) {
    return [this, K](const std::string &M) { Messages.push_back({K, M}); };
  };
  PassReporter Collect{Add(Message::Error), Add(Message::Note), Add(Message::Warning)};
  LLVMContext Ctx;
  // Without a handler LLVM prints backend errors itself and exits; collect them instead.
  // Optimisation remarks (-Rpass) are not asked for in this context.
  Ctx.setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *DI, void *Job) {
        DiagnosticSeverity S = DI->getSeverity();
        if (S != DS_Error && S != DS_Warning)
          return;
        std::string Text;
        raw_string_ostream OS(Text);
        DiagnosticPrinterRawOStream DP(OS);
        DI->print(DP);
        StringRef Msg = StringRef(OS.str()).trim();
        Msg.consume_front("<unknown>:0:0: "); // no location: the device module has no sources
        static_cast<DeviceJob *>(Job)->Messages.push_back(
            {S == DS_Error ? Message::Error : Message::Warning, "device code: " + Msg.str()});
      },
      this);
  Expected<std::unique_ptr<Module>> Dev =
      parseBitcodeFile(MemoryBufferRef(Bitcode, ModuleName), Ctx);
  if (!Dev) {
    Collect.Error("internal error: cannot read the device module back: " +
                  toString(Dev.takeError()));
    return;
  }
  OK = compileDeviceModule(**Dev, KernelNames, Opts, Collect, Images);
  for (const Message &M : Messages)
    OK = OK && M.TheKind != Message::Error;
  RunMs = msSince(Started);
  timespec CPU{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &CPU);
  CpuMs = CPU.tv_sec * 1000.0 + CPU.tv_nsec / 1e6;
}

bool DeviceJob::finish(const PassReporter &Report, std::vector<DeviceImage> &Out) {
  auto WaitStart = std::chrono::steady_clock::now();
  if (Thread.joinable())
    Thread.join();
  for (const Message &M : Messages)
    (M.TheKind == Message::Error     ? Report.Error
     : M.TheKind == Message::Warning ? Report.Warning
                                     : Report.Note)(M.Text);
  // What overlapping saves, for `verbose`: the job's time against the host's wait for it.
  char Timing[160];
  snprintf(Timing, sizeof Timing,
           "device code: %.0f ms beside the host pipeline (%.0f ms of CPU on its thread, "
           "ptxas not counted); the host pipeline waited %.0f ms for it",
           RunMs, CpuMs, msSince(WaitStart));
  Report.Note(Timing);
  if (!OK)
    return false;
  bool Match = Images.size() == Placeholders.size();
  for (size_t I = 0; Match && I < Images.size(); ++I)
    Match = Images[I].Kind == Placeholders[I].Kind && Images[I].SM == Placeholders[I].SM;
  if (!Match) {
    Report.Error("internal error: the device images do not match their placeholders");
    return false;
  }
  Out = std::move(Images);
  return true;
}

PreservedAnalyses KernplugFinishPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Pending->Job)
    return PreservedAnalyses::all();
  PassReporter Report = contextReporter(M.getContext());
  std::unique_ptr<DeviceJob> Job = std::move(Pending->Job);
  std::vector<DeviceImage> Images;
  if (!Job->finish(Report, Images))
    return PreservedAnalyses::all(); // reported; clang discards the object
  auto *Table = dyn_cast_or_null<GlobalVariable>(Pending->ImageTable);
  if (!Table || Table->getParent() != &M) {
    Report.Error("internal error: the device image table was lost in the host pipeline");
    return PreservedAnalyses::all();
  }
  fillImageTable(*Table, Images);
  // Here because this pass runs after the host module's kernels were rewritten and
  // before clang's sanitizer passes (registered after plugins' passes at OptimizerLast).
  inheritSanitizerAttributes(M);
  return PreservedAnalyses::none();
}

} // namespace kernplug
