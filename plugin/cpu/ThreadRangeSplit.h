//===- ThreadRangeSplit.h - a region's x loop split at a branch -*- C++ -*-===//
//
// GPU code guards work with the thread index: `if (tid < stride)` in a tree reduction,
// `if (tid >= offset)` in a scan. In a region's loop over the block's threads
// (BarrierFission.cpp) that is a branch on the loop's counter, and the loop does not
// vectorise. Where the condition holds on one interval of threadIdx.x (per row of the
// block), the loop over x is split at the interval's ends into consecutive loops, each
// with the branch folded: the threads still run one after another in the same order, so
// the split needs no other proof than the interval's arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_THREADRANGESPLIT_H
#define KERNPLUG_PLUGIN_CPU_THREADRANGESPLIT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"

#include <optional>

namespace llvm {
class Argument;
class BasicBlock;
class Function;
class ICmpInst;
class Instruction;
} // namespace llvm

namespace kernplug {

/// A comparison in a branch condition and the value the condition needs it to have.
/// For a leaf on threadIdx.x, that is `x + Terms Pred Bound` with exact arithmetic:
/// Terms are row values, each added (false) or subtracted (true).
struct IndexLeaf {
  llvm::ICmpInst *Cmp;
  bool Want;
  llvm::CmpInst::Predicate Pred = llvm::CmpInst::BAD_ICMP_PREDICATE;
  llvm::Value *Bound = nullptr;
  llvm::SmallVector<std::pair<bool, llvm::Value *>, 2> Terms;
};

/// A branch condition that has the value Want exactly where every leaf has its Want,
/// and the leaves that say where that is: XLeaves compare threadIdx.x plus or minus row
/// values with a row value (monotone in x), RowLeaves compare row values only. Others
/// may have further leaves, left in the code.
struct IndexRange {
  llvm::Instruction *Branch;
  llvm::Value *Cond;
  bool Want;
  llvm::SmallVector<IndexLeaf, 4> XLeaves, RowLeaves;
};

/// Whether V is the same for all threads of a row of the block (fixed y and z) and can
/// be computed before the row's loop over x.
using RowValueFn = llvm::function_ref<bool(llvm::Value *)>;

/// The first conditional branch of Blocks (in order) whose condition holds, as a function
/// of threadIdx.x (the loads from Idx's slot 0), on one interval per row; nullopt if none.
std::optional<IndexRange> findIndexRange(llvm::ArrayRef<llvm::BasicBlock *> Blocks,
                                         const llvm::Argument *Idx, RowValueFn IsRowValue);

/// The interval [Lo, Hi) of x in [Begin, End) (i32, Begin <= End) where R's leaves all hold,
/// with Begin <= Lo <= Hi <= End; RowValue(V) emits a row value at B. Lo or Hi is Begin or
/// End when no leaf bounds it from that side.
std::pair<llvm::Value *, llvm::Value *>
emitIndexRange(const IndexRange &R, llvm::IRBuilder<> &B, llvm::Value *Begin, llvm::Value *End,
               llvm::function_ref<llvm::Value *(llvm::Value *)> RowValue);

/// Whether [Begin, Lo) may be non-empty: a leaf bounds x from below, or a row leaf may
/// empty the interval (Lo = Hi = End then). And whether [Hi, End) may be.
bool hasLowerBound(const IndexRange &R);
bool hasUpperBound(const IndexRange &R);

/// In the loop over the interval where R's leaves hold (Above false), or over the part
/// above it (Above true), the subtractions `x - Bound` where x >= Bound holds unsigned
/// there cannot wrap: a scan's `buf[tid - offset]` under `if (tid >= offset)`, which
/// InstCombine writes as the part above `tid u< offset`. Marks the clones (CloneOf(I), I in
/// Blocks) of such subtractions of threadIdx.x nuw nsw and replaces their zext/sext by
/// the subtraction of the extended operands, so that the index is a 64-bit induction
/// variable and the vectoriser needs no wrap check. Returns how many.
unsigned markIntervalNoWrap(const IndexRange &R, bool Above,
                            llvm::ArrayRef<llvm::BasicBlock *> Blocks, const llvm::Argument *Idx,
                            llvm::function_ref<llvm::Value *(llvm::Value *)> CloneOf);

/// Asks the vectoriser to interleave the thread loop whose latch branch is LatchBranch
/// (marked by markThreadLoop) SplitPartInterleave times: a part of a split loop is a short
/// straight-line body, where the cost model's own choice (2 on x86-64 with SSE) leaves the
/// loop's own instructions a quarter of each iteration. Only worth it where a row is the
/// whole block (readsOnlyThreadX), typically 128 to 1024 threads: a 2D tile's rows of 16
/// would fall below the 16 iterations of one interleaved vector step and run scalar.
void hintSplitPartInterleave(llvm::Instruction *LatchBranch);

/// Whether the indexed clone F (index array Idx) reads no thread index but x: its blocks
/// are one row, as far as its code can tell.
bool readsOnlyThreadX(const llvm::Function &F, const llvm::Argument *Idx);
constexpr unsigned SplitPartInterleave = 4;

} // namespace kernplug

#endif
