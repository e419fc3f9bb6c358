//===- WarpLoopUnroll.h - warp collectives' loops unrolled -------*- C++ -*-===//
//
// A kernel split at its warp collectives (BarrierFission.cpp) enters the region after a
// collective once per iteration of a loop around it: the cuda-samples reduction's
// `for (offset = 16; offset > 0; offset /= 2) v += shfl_down_sync(mask, v, offset)` went
// through the block's dispatch five times per warp, saved its offset per lane, and read the
// shuffle's source at an offset known only at run time. Fully unrolled first, each shuffle
// is a region of its own with a constant offset (WarpCollectives.cpp then stores nothing for
// it). Unrolling repeats each thread's own code in the order it ran: no thread's operations
// move relative to each other or to another thread's.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_WARPLOOPUNROLL_H
#define KERNPLUG_PLUGIN_CPU_WARPLOOPUNROLL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace kernplug {

/// What unrollWarpLoops did, for the remark.
struct WarpLoopUnrolling {
  unsigned Unrolled = 0; // loops fully unrolled
  unsigned Kept = 0;     // loops with a collective left as loops (trip count, size, barrier)
};

/// Fully unrolls F's innermost loops that call a warp collective (IsCollective), call no
/// block barrier (IsBarrier), and run a constant number of times, at most 8, with a small
/// body; then simplifies F (InstCombine, SimplifyCFG), so that values that were the loop's
/// counters are constants. F is the split's scratch clone; FAM's results for it are cleared.
WarpLoopUnrolling unrollWarpLoops(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                                  llvm::function_ref<bool(const llvm::Instruction &)> IsCollective,
                                  llvm::function_ref<bool(const llvm::Instruction &)> IsBarrier);

} // namespace kernplug

#endif
