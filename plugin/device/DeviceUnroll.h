//===- DeviceUnroll.h - unroll device loops as nvcc does ---------*- C++ -*-===//
//
// nvcc's device code reaches ptxas with counted loops unrolled 4x by NVVM, and
// ptxas unrolls such loops another 4x (a naive matmul's k loop: 16 iterations,
// 32 loads in flight per trip). The PTX LLVM's NVPTX backend prints for the
// same loop has a latch ptxas does not unroll (an exit branch plus `bra.uni`
// back, the counter compared with a register), so kernplug unrolls to nvcc's
// factor in LLVM instead: before the device pipeline's runtime unroller, each
// qualifying loop gets `llvm.loop.unroll.count`.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_DEVICEUNROLL_H
#define KERNPLUG_PLUGIN_DEVICEUNROLL_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Loop;
class PassBuilder;
class ScalarEvolution;
class TargetTransformInfo;
} // namespace llvm

namespace kernplug {

/// The unroll factor for L that matches nvcc + ptxas: the largest power of two
/// up to 16 whose unrolled body stays within 300 size units (LLVM's O3
/// unroll threshold), or 0 to leave L to LLVM's own heuristics: loops with a
/// constant trip count (fully unrolled or not, as LLVM decides), loops with
/// unroll pragmas, several exits, calls or convergent operations.
unsigned nvccUnrollCount(llvm::Loop &L, llvm::ScalarEvolution &SE,
                         const llvm::TargetTransformInfo &TTI);

/// kernplug-device-unroll: gives each loop of F with a factor (nvccUnrollCount) its
/// `llvm.loop.unroll.count`.
class NvccUnrollPass : public llvm::PassInfoMixin<NvccUnrollPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// Adds the pass that annotates device loops with nvccUnrollCount to PB's
/// default pipelines (at the start of the vectorizer stage, before LoopUnroll).
void registerNvccUnrolling(llvm::PassBuilder &PB);

} // namespace kernplug

#endif
