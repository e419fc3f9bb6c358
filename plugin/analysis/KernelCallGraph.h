//===- KernelCallGraph.h - what the kernels reach, computed once -*- C++ -*-===//
//
// The direct-call graph below the kernels the module records (KernelMetadata.h),
// with, per function, what it reaches: which runtime primitives (barriers, warp
// collectives, index reads) and whether an indirect call hides more. A module
// analysis, so the passes that ask between two transforms share one walk:
// probe-stacks (every function a kernel reaches) and cpu-entry-policy (does a
// kernel reach a barrier, a warp collective). `opt -passes='print<kernplug-call-graph>'`
// prints it.
//
// The CPU entry builders (CpuBlockEntry.cpp, BarrierFission.cpp) walk the clones
// they are rewriting, which no cached analysis of the module describes; the
// device closure (DeviceModule.cpp) also follows globals and constants.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_ANALYSIS_KERNELCALLGRAPH_H
#define KERNPLUG_PLUGIN_ANALYSIS_KERNELCALLGRAPH_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class raw_ostream;
} // namespace llvm

namespace kernplug {

class KernelCallGraph {
public:
  /// What a function reaches through direct calls, itself included.
  struct Reach {
    bool Barrier = false;      // syncthreads() or a collective barrier
    bool GridBarrier = false;  // grid_sync(): the kernel needs a cooperative launch
    bool Warp = false;         // a warp collective
    bool IndexRead = false;    // a thread, block or grid index
    bool IndirectCall = false; // a call through a pointer (or inline asm is not one)
    bool ExternalDevice = false; // a `device` function of another file (unknown body)
  };

  explicit KernelCallGraph(llvm::Module &M);

  /// The kernels' functions, in the order the module records them.
  llvm::ArrayRef<llvm::Function *> kernels() const { return Kernels.getArrayRef(); }
  /// Every defined function a kernel reaches through direct calls, kernels first.
  llvm::ArrayRef<llvm::Function *> reached() const { return Reached.getArrayRef(); }
  /// What F (a function in reached()) reaches.
  const Reach &reachOf(const llvm::Function *F) const;

  void print(llvm::raw_ostream &OS) const;

  bool invalidate(llvm::Module &, const llvm::PreservedAnalyses &PA,
                  llvm::ModuleAnalysisManager::Invalidator &);

private:
  llvm::SetVector<llvm::Function *> Kernels, Reached;
  llvm::DenseMap<const llvm::Function *, Reach> Reaches;
};

class KernelCallGraphAnalysis : public llvm::AnalysisInfoMixin<KernelCallGraphAnalysis> {
public:
  using Result = KernelCallGraph;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &) { return KernelCallGraph(M); }

private:
  friend llvm::AnalysisInfoMixin<KernelCallGraphAnalysis>;
  static llvm::AnalysisKey Key;
};

/// print<kernplug-call-graph>
class KernelCallGraphPrinter : public llvm::PassInfoMixin<KernelCallGraphPrinter> {
public:
  explicit KernelCallGraphPrinter(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  llvm::raw_ostream &OS;
};

} // namespace kernplug

#endif
