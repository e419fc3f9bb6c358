//===- CpuBlockEntry.h - per-block CPU entries of kernels -------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_CPUBLOCKENTRY_H
#define KERNPLUG_PLUGIN_CPUBLOCKENTRY_H

#include "Primitives.h"

#include "llvm/IR/PassManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

#include "llvm/IR/IRBuilder.h"

namespace llvm {
class AllocaInst;
class Function;
class Module;
class PHINode;
} // namespace llvm

namespace kernplug {

/// The [13 x i32] index array an indexed clone reads (see CpuBlockEntry.cpp): the index
/// primitives' slots (Primitives.h), then the linear thread id.
enum : unsigned { SlotLinear = 12, NumSlots = 13 };

/// What every block entry starts with: the function, its index array with the
/// block-invariant slots filled, the body's arguments unpacked from args[], and
/// the thread range.
struct BlockEntryFrame {
  llvm::Function *F = nullptr;
  llvm::AllocaInst *Idx = nullptr;
  llvm::SmallVector<llvm::Value *, 8> Args; // the body's, without the index pointer
  llvm::Value *Begin[3] = {}, *End[3] = {}, *Ntid[3] = {};
};

/// Emits the entry block of void <Name>.kp.cpu_block(args, range) for BodyClone
/// (an indexed clone of Body); B is left at its end. ExtraParams follow range,
/// and Result (null: void) is the return type (the phases of a grid-stride
/// interchange, GridStrideInterchange.cpp).
BlockEntryFrame beginBlockEntry(llvm::Function *Body, llvm::Function *BodyClone,
                                const std::string &Name, llvm::IRBuilder<> &B,
                                llvm::ArrayRef<llvm::Type *> ExtraParams = {},
                                llvm::Type *Result = nullptr);

/// A call of the runtime's primitive for index slot Slot (Primitives.h), which
/// dead-code elimination may drop.
llvm::Value *readIndexSlot(llvm::IRBuilder<> &B, unsigned Slot);

/// A loop nest z > y > x over the frame's range.
struct ThreadLoopNest {
  struct Level {
    llvm::BasicBlock *Header, *Exit;
    llvm::PHINode *Counter;
  } Dims[3]; // x, y, z
  llvm::Value *Linear; // i32 linear id in the block
};

/// Opens the nest at B; B is left inside, after the thread's slots of the index
/// array are stored.
ThreadLoopNest openThreadLoops(llvm::IRBuilder<> &B, const BlockEntryFrame &Frame);
/// Closes the nest from B's block (the x latch, marked for ThreadLoopVersioning);
/// B is left after the nest.
void closeThreadLoops(llvm::IRBuilder<> &B, ThreadLoopNest &Nest);

/// The loop over the range's run of blocks (kp_cpu_thread_range::block,
/// num_blocks), around the thread loops of block-loop entries: each iteration
/// stores its block's index into the frame's index array.
struct BlockRunLoop {
  llvm::BasicBlock *Header, *Exit;
  llvm::PHINode *Counter, *Ctaid[3];
  llvm::Value *Nctaid[3];
};

/// Opens the loop at B (after beginBlockEntry); B is left inside, after the
/// block's index is stored.
BlockRunLoop openBlockRunLoop(llvm::IRBuilder<> &B, const BlockEntryFrame &Frame);
/// Steps to the next block in the grid's linear order and closes the loop; B is
/// left after it.
void closeBlockRunLoop(llvm::IRBuilder<> &B, BlockRunLoop &Loop);

/// Builds the CPU block entries of one host module (kp_cpu_block_fn in
/// abi/kp_abi.h); clones of shared helpers are made once per module, also across
/// builders: each original links to its clone (dropIndexedCloneLinks forgets them).
class CpuBlockEntryBuilder {
public:
  explicit CpuBlockEntryBuilder(llvm::Module &M) : M(M) {}

  /// void <Name>.kp.cpu_block(void **args, const kp_cpu_thread_range *r) running
  /// Body for each thread of the range, or nullptr when Body reaches an
  /// indirect call (or a call the rewrite cannot handle). Body is left as is.
  llvm::Function *build(llvm::Function *Body, const std::string &Name);

  /// void <Name>.kp.cpu(void **args): the per-thread entry, as the block entry
  /// over the one thread the runtime's kp_cpu_state names.
  llvm::Function *threadEntry(llvm::Function *BlockEntry, const std::string &Name);

  /// The clone of Body whose index reads are loads from its last parameter
  /// (and whose index-reading callees are such clones), or nullptr as build().
  /// The caller owns it: build() inlines it into a loop, BarrierFission.cpp
  /// splits it at barriers.
  llvm::Function *indexedBody(llvm::Function *Body);

private:
  llvm::Function *indexedClone(llvm::Function *F);
  void rewriteClone(llvm::Function *NF, const llvm::SmallPtrSetImpl<llvm::Function *> &Reads);
  llvm::Function *emitLoop(llvm::Function *Body, llvm::Function *BodyClone,
                           const std::string &Name);

  llvm::Module &M;
  llvm::SmallVector<llvm::Function *, 8> Pending; // clones not rewritten yet
};

/// Takes the links from the helpers to their indexed clones out of M, once every
/// entry is built (kernplug-host-stubs).
void dropIndexedCloneLinks(llvm::Module &M);

/// kernplug-cpu-block-entry: for each kernel kernplug-cpu-entry-policy gave a block loop,
/// <k>.kp.cpu_block and the per-thread <k>.kp.cpu through it, recorded in its
/// !kernplug.kernels entry (null where the body reaches an indirect call).
class CpuBlockEntryPass : public llvm::PassInfoMixin<CpuBlockEntryPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace kernplug

#endif
