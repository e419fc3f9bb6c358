//===- Divergence.h - thread-dependent values of an indexed body -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DIVERGENCE_H
#define KERNPLUG_PLUGIN_DIVERGENCE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class AAResults;
class Argument;
class BasicBlock;
class LoadInst;
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
/// block, conservatively: seeds are the thread-index loads, loads that may see
/// memory other threads write (uniformLoad), atomics, allocas and calls that may
/// touch memory; divergence flows to users (a load from a divergent address too),
/// to the phis where the paths of a divergent branch meet, and to values
/// defined between a divergent branch and its immediate post-dominator that are
/// used after it (a loop with a divergent exit).
class Divergence {
public:
  /// Block: whether a value may differ between the threads of a block. Warp: between the
  /// lanes of one warp, where each warp is 32 consecutive x indices of one (y, z) row of the
  /// block, aligned at a multiple of 32 (true when blockDim.x is a multiple of 32 or the block
  /// is one row; the caller must make sure): then threadIdx.y and z, threadIdx.x / 32 and
  /// threadIdx.x < 32 * k are the same across a warp, and so are the results of the warp
  /// votes the split leaves behind (WarpCollectives.h).
  enum class Granularity { Block, Warp };

  /// AA, when given, lets loads from uniform addresses be uniform (see uniformLoad);
  /// without it every load other than the block geometry is divergent.
  Divergence(llvm::Function &F, const llvm::Argument *Idx, const llvm::PostDominatorTree &PDT,
             llvm::AAResults *AA = nullptr, Granularity G = Granularity::Block);

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
  bool uniformLoad(const llvm::LoadInst &L) const;
  bool isLaneIndex(const llvm::Value *V) const;
  bool isWarpAligned(const llvm::Instruction &I) const;
  void findBarrierIntervals(llvm::Function &F);
  void markSyncDependence(const llvm::Instruction &Term, const llvm::PostDominatorTree &PDT);

  const llvm::Argument *Idx;
  llvm::AAResults *AA;
  Granularity G;
  /// Per block, the blocks that may run between the same two block barriers as it
  /// (the union of the barrier regions holding it); barrier blocks are absent.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::SmallPtrSet<const llvm::BasicBlock *, 16>>
      Interval;
  llvm::DenseSet<const llvm::Value *> Div;
  llvm::SmallVector<Branch, 4> Branches;
};

} // namespace kernplug

#endif
