//===- ThreadHull.h - the block-uniform hull of a split part's thread index -*- C++ -*-===//
//
// A region's loop over x split at a branch on threadIdx.x (ThreadRangeSplit.h) runs up to
// five parts per row, each over [From, To) with bounds recomputed per row. Whatever the row,
// those intervals lie in the frame's [Begin, End) of x, values the same for the whole block.
// The entry builder records that as tagged `llvm.assume`s, `x >= Begin` and `x < End`, in
// each part's loop (IR facts: a loop's metadata cannot name the values); ThreadLoopVersioning
// reads them back (findThreadHulls) to check its run-time conditions once per block over the
// hull instead of once per row, then erases the facts before the vectoriser runs.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_THREADHULL_H
#define KERNPLUG_PLUGIN_CPU_THREADHULL_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Function;
class Loop;
class ScalarEvolution;
class SCEV;
class SCEVAddRecExpr;
class DominatorTree;
} // namespace llvm

namespace kernplug {

/// At B, in the body of a part's loop over x (X its counter, i32): assumes Begin <= X < End
/// (unsigned), tagged for findThreadHulls. True whenever the body runs: every part's
/// interval lies in [Begin, End) (emitIndexRange).
void assumeThreadHull(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Begin,
                      llvm::Value *End);

/// Every iteration of a loop has X in [Lo, End) (unsigned, X's type): X an add recurrence
/// of the loop with step 1, Lo and End values of the block.
struct ThreadHull {
  const llvm::SCEVAddRecExpr *X;
  const llvm::SCEV *Lo, *End;
};

/// The hulls recorded in L by assumeThreadHull, from the tagged assumes that run on every
/// iteration (their block dominates L's latch and exits): one per upper fact, Lo from a
/// lower fact on the same X or else 0 (InstCombine drops `x >= 0`, and IndVarSimplify the
/// lower fact it can prove from the loop's start).
llvm::SmallVector<ThreadHull, 2> findThreadHulls(llvm::Loop &L, llvm::ScalarEvolution &SE,
                                                 const llvm::DominatorTree &DT);

/// Whether I is one of the facts assumeThreadHull emits.
bool isThreadHullFact(const llvm::Instruction &I);

/// Erases F's tagged assumes and the comparisons only they used: the facts were for
/// ThreadLoopVersioning; the loop vectoriser and the parallel-access marking should not
/// see them. Returns whether any was erased.
bool eraseThreadHullFacts(llvm::Function &F);

} // namespace kernplug

#endif
