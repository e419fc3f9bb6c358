//===- Divergence.h - thread-dependent values of an indexed body -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DIVERGENCE_H
#define KERNPLUG_PLUGIN_DIVERGENCE_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class Argument;
class BasicBlock;
class Function;
class Instruction;
class PostDominatorTree;
class Value;
} // namespace llvm

namespace kernplug {

/// The index-array slot (CpuBlockEntry.h) a load from the clone's index
/// parameter Idx reads, or nullopt when V is no such load.
std::optional<unsigned> indexLoadSlot(const llvm::Value *V, const llvm::Argument *Idx);

/// Which values of an indexed body clone may differ between the threads of a
/// block, conservatively: seeds are the thread-index loads, every other load,
/// atomics, allocas and calls that may touch memory; divergence flows to users,
/// to the phis where the paths of a divergent branch meet, and to values
/// defined between a divergent branch and its immediate post-dominator that are
/// used after it (a loop with a divergent exit).
class Divergence {
public:
  Divergence(llvm::Function &F, const llvm::Argument *Idx, const llvm::PostDominatorTree &PDT);

  bool isDivergent(const llvm::Value *V) const { return Div.contains(V); }

  /// A divergent branch and the blocks some but maybe not all threads run
  /// because of it: those reachable from it before its immediate post-dominator.
  struct Branch {
    const llvm::Instruction *Term;
    llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Region;
  };
  const llvm::SmallVectorImpl<Branch> &divergentBranches() const { return Branches; }

private:
  bool isSeed(const llvm::Instruction &I) const;
  void markSyncDependence(const llvm::Instruction &Term, const llvm::PostDominatorTree &PDT);

  const llvm::Argument *Idx;
  llvm::DenseSet<const llvm::Value *> Div;
  llvm::SmallVector<Branch, 4> Branches;
};

} // namespace kernplug

#endif
