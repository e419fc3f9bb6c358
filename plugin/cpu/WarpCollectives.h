//===- WarpCollectives.h - warp collectives in a split kernel ----*- C++ -*-===//
//
// kernplug-barrier-fission splits a kernel with warp collectives (shuffles, votes,
// syncwarp, activemask) at each of them as well as at its barriers, and runs the regions
// warp by warp, each a loop over one warp's lanes (BarrierFission.cpp). This file turns each
// collective into what the split needs: before it, every lane stores its operands into
// locals (per-thread arrays once split); after it, a stand-in call reads them back, and the
// region after the collective computes the stand-in's result per lane from the warp's
// stored values, with the runtime's rules (runtime/backend/cpu/cpu_block.c): a lane outside
// the warp or the mask yields the lane's own value.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_WARPCOLLECTIVES_H
#define KERNPLUG_PLUGIN_CPU_WARPCOLLECTIVES_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class AllocaInst;
class CallInst;
class Function;
class Instruction;
} // namespace llvm

namespace kernplug {

/// A call of a warp collective primitive (the split point it becomes).
bool isWarpCollectiveCall(const llvm::Instruction &I);

/// Rewrites each warp collective call of F (an indexed clone, its callees inlined): its
/// operands stored into new entry-block allocas before it (a constant mask or lane argument
/// is not stored: the stand-in gets a constant global holding it instead of an alloca), the
/// call left in place with its result unused, and a stand-in right after it taking the
/// result's uses. Returns the stand-ins in StandIns.
void lowerWarpCollectives(llvm::Function &F, llvm::SmallPtrSetImpl<llvm::Instruction *> &StandIns);

/// Where a value live across the shuffle StandIn can be read back after it: the shuffle's
/// value slot, where the lane stored V (or V's bits, as the typed shuffles store a float)
/// right before the shuffle and where nothing writes the lane's element until the lane
/// runs again (a shfl_down's in-place reads only read it); else nullptr. Saves V a second
/// time (the tree reduction's `v += shfl_down_sync(mask, v, offset)`).
llvm::AllocaInst *shuffleOperandHolding(llvm::CallInst *StandIn, llvm::Value *V);

/// The warp a region's lane loop runs: its first lane's linear id in the block, the number
/// of lanes it has (32, or fewer in a block's last warp) and two [32 x i32] scratch arrays:
/// the lanes' values, and each lane's shuffle result.
struct WarpFrame {
  llvm::Value *FirstLinear; // i64
  llvm::Value *Lanes;       // i32
  llvm::AllocaInst *Snapshot, *Results;
};

/// Where the split kernel keeps a local of the clone: Home(A) is the per-thread array
/// (indexed by linear id) of alloca A, Own(A) the running lane's element, Lead(A) the value
/// of the warp's first lane's element read before the lanes run, where every lane of the
/// warp stores the same there (else nullptr).
struct WarpSlots {
  llvm::function_ref<llvm::Value *(llvm::Value *)> Home, Own, Lead;
};

/// How the split kernel's shuffles read the other lanes' values, for the remark: in place
/// (each lane reads its source lane's stored operand in the lane loop) or through a copy of
/// the warp's values made before the lanes run (the snapshot).
struct WarpShufflePaths {
  unsigned InPlace = 0, Snapshot = 0;
};

/// Extra elements the per-thread array Slot needs past the block's last thread: 32 for the
/// value operand of a shfl_down, whose in-place read of lane + offset (offset clamped to 32)
/// is made before it is known to be in the warp; else 0.
unsigned warpSlotPadding(const llvm::AllocaInst &Slot);

/// Before the lane loop of the region StandIn starts: what every lane's result needs from
/// the others, read while no lane of the warp can have overwritten its operands: the warp's
/// ballot, for a shfl_idx whose mask and lane are the same in all lanes the source lane's
/// value, or for the other shuffles every lane's result (in W.Results; plain copies of ranges
/// of the lanes' values where the mask and offset are the same in all lanes and the mask takes
/// every lane, so that the loops vectorise). A shfl_down needs nothing: its lanes read their
/// sources in place (emitWarpLaneResult). Counts the shuffle's path in Paths. May return
/// nullptr.
llvm::Value *emitWarpPrologue(llvm::CallInst *StandIn, llvm::IRBuilder<> &B, const WarpFrame &W,
                              const WarpSlots &S, WarpShufflePaths &Paths);

/// for (L = From; L < To; ++L) Body(L), i32, at B; B is left after the loop. The loops over
/// a warp's lanes and over a block's warps.
void emitLaneLoop(llvm::IRBuilder<> &B, llvm::Value *From, llvm::Value *To, const llvm::Twine &Name,
                  llvm::function_ref<void(llvm::Value *)> Body);

/// In the lane loop: StandIn's result for lane Lane (i32), given the prologue's value. Read
/// before the lane's own code runs: a shfl_down's source lane (lane + offset, or the lane
/// itself) is never below the reader, and the lanes run in ascending order, each storing
/// only its own elements, so the source's stored operand is still in place.
llvm::Value *emitWarpLaneResult(llvm::CallInst *StandIn, llvm::IRBuilder<> &B, const WarpFrame &W,
                                const WarpSlots &S, llvm::Value *Prologue, llvm::Value *Lane);

} // namespace kernplug

#endif
