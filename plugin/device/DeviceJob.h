//===- DeviceJob.h - device code generation beside the host's ---*- C++ -*-===//
//
// The device module's O3, NVPTX code generation and ptxas take about as long
// as the host pipeline itself, and need nothing from it. DeviceJob runs them
// on a second thread, in a context of its own, while clang optimises the host
// module; the host module gets placeholder images, which KernplugFinishPass
// (at the end of the host optimisation pipeline) fills in once the job is done.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_DEVICEJOB_H
#define KERNPLUG_PLUGIN_DEVICEJOB_H

#include "DevicePass.h"

#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/thread.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace kernplug {

class DeviceJob {
public:
  /// Serialises Dev (on this thread: it belongs to the host's context) and
  /// starts compiling it.
  static std::unique_ptr<DeviceJob> start(const llvm::Module &Dev,
                                          std::vector<std::string> KernelNames,
                                          const PluginOptions &Opts);
  /// Joins; a job that was never finished leaves no thread, file or process.
  ~DeviceJob();

  /// The images compileDeviceModule will produce, with no bytes yet.
  const std::vector<DeviceImage> &placeholders() const { return Placeholders; }
  /// Waits for the job and reports what it reported, on this thread (clang's
  /// diagnostics are not thread-safe). False if it reported an error.
  bool finish(const PassReporter &Report, std::vector<DeviceImage> &Images);

  DeviceJob(const DeviceJob &) = delete;
  DeviceJob &operator=(const DeviceJob &) = delete;

private:
  DeviceJob() = default;
  void run();

  struct Message {
    enum Kind { Error, Warning, Note } TheKind;
    std::string Text;
  };
  // The job's input, set before its thread starts.
  std::string Bitcode, ModuleName;
  std::vector<std::string> KernelNames;
  PluginOptions Opts;
  std::vector<DeviceImage> Placeholders;
  // Written by the job's thread only, read after joining it.
  std::vector<Message> Messages;
  std::vector<DeviceImage> Images;
  bool OK = false;
  std::chrono::steady_clock::time_point Started;
  double RunMs = 0, CpuMs = 0;
  llvm::thread Thread;
};

/// The device job of the translation unit, from ExtractDevicePass to KernplugFinishPass.
struct PendingDevice {
  /// Set when the pipeline was built with KernplugFinishPass in it; without it (a
  /// pipeline with no OptimizerLast point) HostStubsPass finishes the job itself.
  bool FinishScheduled = false;
  std::unique_ptr<DeviceJob> Job;
  llvm::WeakTrackingVH ImageTable; // __kp_images, holding the placeholders
};

/// Replaces the placeholder images of the table HostSide.cpp built by Images
/// (same kinds, same order). DeviceImages.cpp.
void fillImageTable(llvm::GlobalVariable &Table, const std::vector<DeviceImage> &Images);

/// At the end of the host optimisation pipeline (every -O level): waits for
/// the device job and puts its PTX and cubins into the host module.
class KernplugFinishPass : public llvm::PassInfoMixin<KernplugFinishPass> {
public:
  explicit KernplugFinishPass(std::shared_ptr<PendingDevice> Pending)
      : Pending(std::move(Pending)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::shared_ptr<PendingDevice> Pending;
};

} // namespace kernplug

#endif
