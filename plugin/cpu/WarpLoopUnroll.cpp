//===- WarpLoopUnroll.cpp - warp collectives' loops unrolled -----*- C++ -*-===//
#include "cpu/WarpLoopUnroll.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

using namespace llvm;

namespace kernplug {
namespace {

const unsigned MaxTrips = 8;          // a warp has 32 lanes: log2 rounds, or a few more
const unsigned MaxUnrolledSize = 512; // instructions after unrolling (compile time)

/// Whether L is worth unrolling for the split: innermost, a warp collective in it, no block
/// barrier (each would be another region per copy).
bool callsCollectiveOnly(const Loop &L, function_ref<bool(const Instruction &)> IsCollective,
                         function_ref<bool(const Instruction &)> IsBarrier, unsigned &Size) {
  bool Collective = false;
  Size = 0;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      ++Size;
      if (IsBarrier(I))
        return false;
      Collective |= IsCollective(I);
    }
  return Collective;
}

} // namespace

WarpLoopUnrolling unrollWarpLoops(Function &F, FunctionAnalysisManager &FAM,
                                  function_ref<bool(const Instruction &)> IsCollective,
                                  function_ref<bool(const Instruction &)> IsBarrier) {
  WarpLoopUnrolling Res;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
  SmallVector<Loop *, 4> Candidates;
  for (Loop *L : LI.getLoopsInPreorder()) {
    unsigned Size;
    if (L->isInnermost() && callsCollectiveOnly(*L, IsCollective, IsBarrier, Size))
      Candidates.push_back(L);
  }
  for (Loop *L : Candidates) {
    // UnrollLoop rewrites the uses after the loop through LCSSA phis only: without them
    // a use would keep the first copy's value.
    simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
    formLCSSARecursively(*L, DT, &LI, &SE);
    unsigned Size = 0;
    callsCollectiveOnly(*L, IsCollective, IsBarrier, Size);
    // The exact trip count: SCEV evaluates `offset /= 2` from a constant start by brute force.
    unsigned Trips = SE.getSmallConstantTripCount(L);
    if (Trips == 0 || Trips > MaxTrips || Trips * Size > MaxUnrolledSize ||
        !L->isSafeToClone()) {
      ++Res.Kept;
      continue;
    }
    UnrollLoopOptions ULO{}; // value-initialised: the fields one LLVM has and the other not
    ULO.Count = Trips;
    ULO.Force = true;
    ULO.Runtime = false;
    ULO.AllowExpensiveTripCount = false;
    ULO.UnrollRemainder = false;
    ULO.ForgetAllSCEV = false;
    if (UnrollLoop(L, ULO, &LI, &SE, &DT, &AC, &TTI, nullptr, /*PreserveLCSSA=*/true) ==
        LoopUnrollResult::FullyUnrolled)
      ++Res.Unrolled;
    else
      ++Res.Kept;
  }
  if (Res.Unrolled) {
    FAM.clear(F, F.getName());
    // The copies' counters are constants now: folded, and the copies' blocks merged.
    auto Run = [&](auto &&Pass) { FAM.invalidate(F, Pass.run(F, FAM)); };
    Run(InstCombinePass());
    Run(SimplifyCFGPass(SimplifyCFGOptions().hoistCommonInsts(false).sinkCommonInsts(false)));
  }
  FAM.clear(F, F.getName());
  return Res;
}

} // namespace kernplug
