//===- FlagPaths.h - a phi of constants read as its branch conditions -*- C++ -*-===//
//
// GPU code remembers whether a thread did some work in a flag it tests after a barrier
// (Rodinia hotspot: `computed = 0; if (inside && tx > step ...) { computed = 1; ... }`,
// then `if (computed) t[ty][tx] = next[ty][tx]`). After SimplifyCFG the flag is a phi of
// constants at the join of the branches, and the barrier split saves it per thread: a
// store in every thread before the barrier and a load after it, which the region's loop
// cannot split at and the vectoriser cannot fold. The phi is a function of the branch
// conditions that led to it; BarrierFission recomputes it from them after the barrier
// where they can be recomputed (Fission::recomputeFlags), and the condition is then on
// the thread's indices, as the work's own branch is.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_FLAGPATHS_H
#define KERNPLUG_PLUGIN_CPU_FLAGPATHS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <utility>

namespace llvm {
class BasicBlock;
class Constant;
class DominatorTree;
class PHINode;
class Value;
} // namespace llvm

namespace kernplug {

/// A phi of two integer constants at the join of a tree of branches that starts at its
/// block's immediate dominator (every other block of the tree has one predecessor, every
/// branch of the tree goes on in the tree or to the join): the phi is True where one of
/// Paths holds (each a conjunction of branch conditions and the way each was taken; the
/// paths exclude one another), False elsewhere. Top is the tree's first block.
struct FlagPaths {
  llvm::Constant *True = nullptr, *False = nullptr;
  llvm::SmallVector<llvm::SmallVector<std::pair<llvm::Value *, bool>, 4>, 2> Paths;
  llvm::BasicBlock *Top = nullptr;
};

/// P as FlagPaths, or nullopt. Stop says which blocks the tree must not contain (barriers,
/// the regions' first blocks).
std::optional<FlagPaths> flagPaths(llvm::PHINode &P, const llvm::DominatorTree &DT,
                                   llvm::function_ref<bool(llvm::BasicBlock *)> Stop);

/// The condition under which the phi is True, at B: Clone gives each branch condition's
/// value there. Conjunctions and disjunctions as selects (a condition that was not
/// evaluated on the GPU may be poison here: a select does not pass it on).
llvm::Value *emitFlagCondition(const FlagPaths &FP, llvm::IRBuilder<> &B,
                               llvm::function_ref<llvm::Value *(llvm::Value *)> Clone);

/// The flag's own value from its condition: the condition itself or its negation for an
/// i1, a select of the two constants otherwise.
llvm::Value *emitFlagValue(const FlagPaths &FP, llvm::IRBuilder<> &B, llvm::Value *Cond);

} // namespace kernplug

#endif
