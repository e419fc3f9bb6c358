//===- DeviceUnroll.cpp - unroll device loops as nvcc does ------*- C++ -*-===//
#include "device/DeviceUnroll.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

using namespace llvm;

namespace kernplug {
namespace {

constexpr unsigned MaxCount = 16;      // nvcc's factor for the matmul k loop
constexpr unsigned SizeBudget = 300;   // LLVM's unroll threshold at O3

bool hasCalls(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(CB) || CB->isConvergent())
          return true;
  return false;
}

} // namespace

unsigned nvccUnrollCount(Loop &L, ScalarEvolution &SE, const TargetTransformInfo &TTI) {
  // LoopUnroll puts the loop into simplified form itself; only the shape matters.
  if (!L.isInnermost() || !L.getExitingBlock() ||
      L.getExitingBlock() != L.getLoopLatch())
    return 0;
  // The user's #pragma unroll (or nounroll), or an earlier decision, wins.
  if (hasUnrollTransformation(&L) != TM_Unspecified)
    return 0;
  // Only runtime trip counts with a constant step: ptxas unrolls counted loops
  // whose count it knows at run time; constant ones LLVM already unrolls by its
  // own measure, and nvcc leaves grid-stride loops (a step known only at run
  // time, a division in the trip count) rolled.
  const SCEV *BTC = SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(BTC) || isa<SCEVConstant>(BTC) || hasCalls(L) ||
      SCEVExprContains(BTC, [](const SCEV *S) {
        auto *Div = dyn_cast<SCEVUDivExpr>(S);
        return Div && !isa<SCEVConstant>(Div->getRHS());
      }))
    return 0;
  SmallPtrSet<const Value *, 32> EphValues;
  UnrollCostEstimator UCE(&L, TTI, EphValues, /*BEInsns=*/2);
  if (!UCE.canUnroll() || UCE.Convergence != ConvergenceKind::None)
    return 0;
  uint64_t Size = std::max<uint64_t>(UCE.getRolledLoopSize(), 1);
  unsigned Count = MaxCount;
  while (Count > 1 && Count * Size > SizeBudget)
    Count /= 2;
  return Count;
}

PreservedAnalyses NvccUnrollPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
  for (Loop *L : LI.getLoopsInPreorder()) {
    unsigned Count = nvccUnrollCount(*L, SE, TTI);
    if (Count < 2)
      continue;
    LLVMContext &C = F.getContext();
    MDNode *Hint = MDNode::get(
        C, {MDString::get(C, "llvm.loop.unroll.count"),
            ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), Count))});
    L->setLoopID(makePostTransformationMetadata(C, L->getLoopID(), {}, {Hint}));
  }
  return PreservedAnalyses::all(); // metadata only: every analysis stays valid
}

void registerNvccUnrolling(PassBuilder &PB) {
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel Level) {
        if (Level.getSpeedupLevel() >= 2)
          FPM.addPass(NvccUnrollPass());
      });
}

} // namespace kernplug
