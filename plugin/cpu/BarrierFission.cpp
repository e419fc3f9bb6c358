//===- BarrierFission.cpp - barrier kernels as loops over threads -*- C++ -*-===//
//
// Kernels with syncthreads() used to run on the CPU as one fiber per GPU thread,
// switching at every barrier: 27x OpenMP on the tiled matmul. This splits the
// kernel at its barriers instead (PoCL's work-item loops, AdaptiveCpp's
// continuation-based synchronisation): from the entry and from each barrier,
// the code reachable without crossing another barrier is a region, and
//
//   next = 0; while (next != DONE) switch (next) {
//     case r: for z, y, x in the block: <region r>   (a barrier: next = its
//             region, a return: next = DONE; the same in every thread)
//   }
//
// runs the whole block on one worker. Values live across a barrier are saved
// before it and restored after: per-thread ones in arrays indexed by the
// thread's linear id, uniform ones in one slot read before the region's loop,
// and the thread indices (and pure arithmetic on them) recomputed. That is
// only right when every barrier is reached by all threads of the block or by
// none, so the kernel must pass a conservative uniformity check
// (Divergence.cpp); anything unproven keeps the fibers.
//
// syncthreads_count/and/or split the same way: each thread stores its predicate before
// the barrier, and the region after it starts by counting them (emitBlockVote). Warp
// collectives split too, at warp granularity (WarpCollectives.cpp): every lane of a warp
// must reach each one (Divergence at Granularity::Warp), and the block runs in rounds from
// one block barrier to the next: the region after the barrier over the whole block, then
// warp by warp, as loops over 32 lanes, the regions after collectives. Such an entry
// assumes each warp is 32 consecutive x of one row (KP_KERNEL_CPU_BLOCK_WARPS: the runtime
// uses fibers for other block shapes).
//
//===----------------------------------------------------------------------===//
#include "cpu/BarrierFission.h"
#include "cpu/CpuBlockEntry.h"
#include "cpu/Divergence.h"
#include "cpu/FlagPaths.h"
#include "cpu/GridStrideRounds.h"
#include "cpu/RangeSplitPolicy.h"
#include "cpu/ThreadHull.h"
#include "cpu/ThreadLoopVersioning.h"
#include "cpu/ThreadRangeSplit.h"
#include "cpu/WarpCollectives.h"
#include "cpu/WarpLoopUnroll.h"
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Primitives.h"
#include "abi/kp_abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <functional>
#include <optional>

using namespace llvm;

namespace kernplug {
namespace {

const unsigned MaxInlinedCalls = 256;
const uint64_t MaxContextBytes = 256; // per thread: 256 KiB for 1024 threads, on an 8 MiB stack
const unsigned MaxRematSize = 24;
const unsigned MaxUniformVariants = 1; // uniform branches decided before a region's loops (code size)

/// syncthreads() or one of syncthreads_count/and/or (a barrier that combines values).
bool isBlockBarrier(const Instruction &I) {
  auto *Call = dyn_cast<CallInst>(&I);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return isPrimitive(Callee, PrimitiveClass::Barrier) ||
         isPrimitive(Callee, PrimitiveClass::Collective);
}

/// What syncthreads_count/and/or return, from the count of threads whose predicate was set.
enum class VoteKind : unsigned { Count, And, Or };

/// The stand-in for a block vote's result at the top of the region after it:
/// i32 kernplug.cpu.block_vote(ptr predicates, i32 kind), reading every thread's predicate
/// (one i32 per thread, 0 or 1). emitRegion computes it once, before the region's thread
/// loop. The same in every thread: Divergence.cpp knows the attribute.
FunctionCallee blockVoteFn(Module &M) {
  LLVMContext &C = M.getContext();
  FunctionCallee F = M.getOrInsertFunction(
      "kernplug.cpu.block_vote",
      FunctionType::get(Type::getInt32Ty(C), {PointerType::get(C, 0), Type::getInt32Ty(C)},
                        false));
  auto *Fn = cast<Function>(F.getCallee());
  Fn->addFnAttr(Attribute::NoUnwind);
  Fn->addFnAttr(Attribute::WillReturn);
  Fn->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref));
  Fn->addFnAttr("kernplug-block-uniform");
  return F;
}

/// The functions Root reaches through direct calls that call syncthreads*,
/// directly or through what they call.
SmallPtrSet<Function *, 8> barrierReachers(Function &Root) {
  SetVector<Function *> Reach;
  Reach.insert(&Root);
  for (size_t I = 0; I < Reach.size(); ++I)
    for (Instruction &Inst : instructions(Reach[I]))
      if (auto *Call = dyn_cast<CallBase>(&Inst))
        if (Function *Callee = Call->getCalledFunction(); Callee && !Callee->isDeclaration())
          Reach.insert(Callee);
  SmallPtrSet<Function *, 8> Out;
  auto CallsBarrier = [&](Instruction &Inst) {
    auto *Call = dyn_cast<CallBase>(&Inst);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    return Callee &&
           (Out.contains(Callee) || isPrimitive(Callee, PrimitiveClass::Barrier) ||
            isPrimitive(Callee, PrimitiveClass::Collective) ||
            isPrimitive(Callee, PrimitiveClass::Warp));
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function *G : Reach)
      if (!Out.contains(G) && any_of(instructions(G), CallsBarrier))
        Changed |= Out.insert(G).second;
  }
  return Out;
}

/// The line of I in the source, for messages.
std::string atLine(const Instruction *I) {
  const DebugLoc &DL = I->getDebugLoc();
  return DL ? " (line " + std::to_string(DL.getLine()) + ")" : "";
}

/// Storage the split kernel keeps per block, one element per thread: what was
/// an alloca of the body, and the slots of values saved at barriers.
struct Storage {
  AllocaInst *Slot; // a placeholder in the body clone, mapped region by region
  bool Uniform;     // the same in every thread: read once, from thread 0's element
};

/// The distance between two threads' elements of S: its size rounded up to its
/// alignment, so that every thread's copy is as aligned as the code assumes
/// (an over-aligned local array, or one of 16 bytes or more on x86-64).
uint64_t threadStride(const AllocaInst *Slot, const DataLayout &DL) {
  return alignTo(*Slot->getAllocationSize(DL), Slot->getAlign());
}

class Fission {
public:
  Fission(Function &F, FunctionAnalysisManager &FAM)
      : F(F), FAM(FAM), Idx(F.getArg(F.arg_size() - 1)) {}

  /// Splits F in place; false with Why when the kernel must keep its fibers.
  bool prepare(std::string &Why);
  /// The block entry running F's regions; nullptr when a region cannot be cloned.
  Function *emit(Function *Body, const std::string &Name);
  unsigned regions() const { return Roots.size(); }
  bool warps() const { return WarpMode; }

private:
  bool inlineBarrierCalls(std::string &Why);
  void simplify();
  bool checkInstructions(std::string &Why);
  void lowerBlockVotes();
  void splitAtBarriers();
  void formRegions();
  SmallVector<unsigned, 4> liveAtRoots(Instruction *V);
  bool isPureStep(Instruction *I);
  bool isRemat(Value *V, unsigned &Budget, SmallPtrSetImpl<Value *> &Seen);
  Value *cloneTree(Value *V, Instruction *Before, DenseMap<Value *, Value *> &Done);
  bool isFlagOperand(Value *V, const FlagPaths &FP, BasicBlock *Join, BasicBlock *At,
                     const Divergence &Div, const DominatorTree &DT, unsigned &Budget,
                     SmallPtrSetImpl<Value *> &Seen, SmallPtrSetImpl<Instruction *> &Leaves);
  void recomputeFlags(const Divergence &Div);
  bool saveAcrossBarriers(const Divergence &Div, const Divergence *WarpDiv, std::string &Why);
  Value *emitBlockVote(CallInst *Vote, IRBuilder<> &B,
                       DenseMap<AllocaInst *, AllocaInst *> &Home);
  bool emitRegion(unsigned R, const BlockEntryFrame &Fr, IRBuilder<> &B,
                  DenseMap<AllocaInst *, AllocaInst *> &Home, AllocaInst *Next,
                  BasicBlock *Dispatch, const WarpFrame *Warp);

  Function &F;
  FunctionAnalysisManager &FAM;
  Argument *Idx;
  SmallVector<BasicBlock *, 8> Barriers;       // blocks holding one syncthreads() each
  SmallVector<BasicBlock *, 8> Roots;          // region r's first block: the entry, then
                                               // the block after barrier r - 1
  DenseMap<BasicBlock *, unsigned> BarrierIdx; // barrier block -> index in Barriers
  DenseMap<BasicBlock *, unsigned> RootIdx;    // root block -> region
  SmallVector<SmallPtrSet<BasicBlock *, 16>, 8> Regions;
  SmallVector<Storage, 8> Storages;
  DenseMap<unsigned, SmallVector<LoadInst *, 4>> HoistedReloads; // region -> uniform reloads
  SmallPtrSet<const Instruction *, 4> Votes; // kernplug.cpu.block_vote calls (blockVoteFn)
  // Warp collectives: the regions run warp by warp (see emit); Barriers then holds their
  // calls' blocks too, WarpSplit[i] telling which.
  bool WarpMode = false;
  SmallVector<bool, 8> WarpSplit;
  SmallPtrSet<Instruction *, 8> WarpStandIns; // lowerWarpCollectives's stand-ins
  Value *Threads = nullptr;                  // in the entry: the block's thread count, i64
  Value *WarpCount = nullptr;                // in the entry, warp rounds: warps per block, i32
  // In the entry, kernels that read no threadIdx.y or .z: whether the range is one row
  // (y and z each one value), i1; split regions then run their parts without the y and z
  // loops (emitRegion).
  Value *OneRow = nullptr;
  // Stores of uniform values before barriers: emitRegion makes them once per block where
  // the value can be computed before the region's thread loop (thread 0's element).
  SmallPtrSet<StoreInst *, 16> UniformSaves;
  SmallPtrSet<Value *, 4> WarpUniformSlots; // collectives' masks and lane arguments

public:
  // What emit did, for the remark: regions whose thread loop was split at a branch on
  // threadIdx.x (the branches' lines), uniform values stored once per block, regions
  // whose exit is stored once per block.
  SmallVector<unsigned, 4> SplitLines;
  unsigned SplitRegions = 0, OnceSaves = 0, OnceExits = 0, UniformVariants = 0, SizeGuards = 0;
  unsigned NestedSplits = 0; // of those, split again at a second branch inside the interval
  unsigned RecomputedFlags = 0; // flags recomputed after barriers from their branches
  unsigned OperandReloads = 0; // values read back from a shuffle's operand, not saved again
  unsigned SharedSaves = 0;    // values saved in another value's per-thread array
  unsigned IntervalNoWrap = 0; // subtractions of an interval's bound marked nuw in it
  unsigned InterleavedParts = 0; // split parts' x loops hinted to interleave more
  unsigned PerWarpExits = 0; // parts of split thread loops storing their exit once per warp
  unsigned OneRowRegions = 0;    // split regions with a copy for a range of one row
  unsigned DirectExits = 0;      // regions that branch to the next one, not to the dispatch
  SmallVector<BasicBlock *, 32> OneRowBlocks; // their blocks, moved to the entry's end
  // Without warp rounds: each region's first block (made when first branched to), and the
  // end of the block's run of regions; regions left one way only branch there directly.
  SmallVector<BasicBlock *, 8> RegionEntries;
  BasicBlock *BlockDone = nullptr;
  BasicBlock *regionEntry(Function *E, unsigned R) {
    if (!RegionEntries[R])
      RegionEntries[R] = BasicBlock::Create(E->getContext(), "kp.region" + Twine(R), E);
    return RegionEntries[R];
  }
  WarpShufflePaths ShufflePaths; // how the shuffles read the other lanes (remark)
  WarpLoopUnrolling WarpLoops;   // loops of warp collectives unrolled before the split (remark)
  /// In warp rounds, the end of a round (every warp has run on to a block barrier or the end).
  llvm::BasicBlock *RoundDone = nullptr;
};

/// V's clone in the thread body EmitThread cloned last (its block is the one that clone
/// maps V's block to), or nullptr: VMap still holds earlier parts' clones of what this
/// part did not clone.
static Value *cloneInThisPart(ValueToValueMapTy &VMap, Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  auto *CI = I ? dyn_cast_or_null<Instruction>(VMap.lookup(I)) : nullptr;
  return CI && CI->getParent() == VMap.lookup(I->getParent()) ? CI : nullptr;
}

/// The first call in F to a defined function that Wanted picks, or nullptr.
template <typename Pred> CallBase *findCall(Function &F, Pred Wanted) {
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration() && Wanted(*Call, Callee))
        return Call;
  return nullptr;
}

bool Fission::inlineBarrierCalls(std::string &Why) {
  // Inlining copies calls F's callees already make, so the set stays right.
  SmallPtrSet<Function *, 8> Reachers = barrierReachers(F);
  for (unsigned Inlined = 0;; ++Inlined) {
    CallBase *Target =
        findCall(F, [&](CallBase &, Function *Callee) { return Reachers.contains(Callee); });
    if (!Target)
      break;
    std::string Callee = Target->getCalledFunction()->getName().str();
    if (Inlined == MaxInlinedCalls) {
      Why = "recursion (or more than " + std::to_string(MaxInlinedCalls) +
            " calls) reaching syncthreads() through '" + Callee + "'";
      return false;
    }
    InlineFunctionInfo IFI;
    if (!InlineFunction(*Target, IFI).isSuccess()) {
      Why = "cannot inline '" + Callee + "', which reaches syncthreads()";
      return false;
    }
  }
  // Helpers that read thread indices (threadIdx, blockDim are such calls) would otherwise be
  // opaque calls, hence divergent; inlined, blockDim is seen to be the same in all threads.
  // Only up to a limit: recursive ones stay calls.
  for (unsigned Inlined = 0; Inlined < MaxInlinedCalls; ++Inlined) {
    CallBase *Target =
        findCall(F, [&](CallBase &Call, Function *) { return is_contained(Call.args(), Idx); });
    InlineFunctionInfo IFI;
    if (!Target || !InlineFunction(*Target, IFI).isSuccess())
      break;
  }
  return true;
}

/// SROA, CSE and InstCombine on the clone, so that locals are SSA values (or arrays) before
/// liveness, and the thread-index reads are recognisable. Run with the pipeline's analyses,
/// but not as passes of its pass manager: the clone is scratch the pipeline never sees, and
/// at -O0 the pipeline's instrumentation would skip it (it is optnone like the kernel).
void Fission::simplify() {
  // Thread indices are never negative: (int)threadIdx.x / 32 then becomes a shift, whose
  // sameness across a warp Divergence.cpp can see.
  MDBuilder MDB(F.getContext());
  for (Instruction &I : instructions(F))
    if (std::optional<unsigned> Slot = indexLoadSlot(&I, Idx);
        Slot && (*Slot < SlotCtaid || *Slot == SlotLinear))
      I.setMetadata(LLVMContext::MD_range,
                    MDB.createRange(APInt(32, 0), APInt(32, 0x80000000u)));
  auto Run = [&](auto &&Pass) { FAM.invalidate(F, Pass.run(F, FAM)); };
  Run(SROAPass(SROAOptions::PreserveCFG));
  Run(EarlyCSEPass());
  // Struct-returning index helpers (threadIdx) leave shifts and truncs behind.
  Run(InstCombinePass());
  // `c ? a : b` and `&&` are still branches and phis at the start of the pipeline: as selects
  // they can be recomputed after a barrier instead of saved per thread (hotspot's neighbour
  // indices), and a region's loop has fewer branches. No code is hoisted or sunk across the
  // branches (the options' defaults), so no barrier call moves.
  Run(SimplifyCFGPass(SimplifyCFGOptions().hoistCommonInsts(false).sinkCommonInsts(false)));
  Run(InstCombinePass());
  FAM.clear(F, F.getName()); // split next, then erased: nothing cached may outlive it
}

bool Fission::checkInstructions(std::string &Why) {
  for (Instruction &I : instructions(F)) {
    if (isa<InvokeInst, CallBrInst, IndirectBrInst>(I)) {
      Why = std::string(I.getOpcodeName()) + " instruction";
      return false;
    }
    if (auto *AI = dyn_cast<AllocaInst>(&I);
        AI && (!AI->isStaticAlloca() || AI->getParent() != &F.getEntryBlock())) {
      Why = "a variable-length array" + atLine(AI);
      return false;
    }
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Call && !Callee && !Call->isInlineAsm()) {
      Why = "an indirect call" + atLine(Call);
      return false;
    }
    if (!Callee || !Callee->isDeclaration())
      continue;
    if (isWarpCollectiveCall(I))
      WarpMode = true;
    if (isBlockBarrier(I) || isWarpCollectiveCall(I))
      Barriers.push_back(I.getParent()); // the call's block for now
  }
  return true;
}

/// syncthreads_count/and/or(p) as a barrier: each thread stores p != 0 into a local (a
/// per-thread array once split) before it, and the result is read after it from all the
/// threads' values (kernplug.cpu.block_vote, at the top of the next region).
void Fission::lowerBlockVotes() {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I);
        Call && isPrimitive(Call->getCalledFunction(), PrimitiveClass::Collective))
      Calls.push_back(Call);
  if (Calls.empty())
    return;
  FunctionCallee VoteFn = blockVoteFn(*F.getParent());
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  for (CallInst *Call : Calls) {
    StringRef Name = primitiveOf(Call->getCalledFunction())->ShortName;
    VoteKind Kind = Name.ends_with("count") ? VoteKind::Count
                    : Name.ends_with("and") ? VoteKind::And
                                            : VoteKind::Or;
    B.SetInsertPoint(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Pred = B.CreateAlloca(B.getInt32Ty(), nullptr, "kp.vote");
    B.SetInsertPoint(Call);
    Value *P = Call->getArgOperand(0);
    B.CreateStore(B.CreateZExt(B.CreateICmpNE(P, Constant::getNullValue(P->getType())),
                               B.getInt32Ty()),
                  Pred);
    B.SetInsertPoint(Call->getNextNode());
    CallInst *Vote = B.CreateCall(VoteFn, {Pred, B.getInt32(unsigned(Kind))}, "kp.voted");
    Votes.insert(Vote);
    Call->replaceAllUsesWith(Vote);
  }
}

/// Each barrier alone in its block, followed by a fresh block (its region's root)
/// whose only predecessor it is.
void Fission::splitAtBarriers() {
  SmallVector<Instruction *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (isBlockBarrier(I) || isWarpCollectiveCall(I))
      Calls.push_back(&I);
  Barriers.clear();
  Roots.push_back(&F.getEntryBlock());
  for (Instruction *Call : Calls) {
    BasicBlock *B = SplitBlock(Call->getParent(), Call);
    BasicBlock *Root = SplitBlock(B, Call->getNextNode());
    BarrierIdx[B] = Barriers.size();
    Barriers.push_back(B);
    WarpSplit.push_back(isWarpCollectiveCall(*Call));
    Roots.push_back(Root);
  }
  for (unsigned R = 0; R < Roots.size(); ++R)
    RootIdx[Roots[R]] = R;
}

void Fission::formRegions() {
  for (BasicBlock *Root : Roots) {
    SmallPtrSet<BasicBlock *, 16> &Region = Regions.emplace_back();
    SmallVector<BasicBlock *, 16> Work{Root};
    Region.insert(Root);
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BarrierIdx.count(BB))
        continue; // the region's exit
      for (BasicBlock *Succ : successors(BB))
        if (Region.insert(Succ).second)
          Work.push_back(Succ);
    }
  }
}

/// The regions (other than the entry's) at whose start V is live: some path
/// from there reaches a use without passing V's definition.
SmallVector<unsigned, 4> Fission::liveAtRoots(Instruction *V) {
  BasicBlock *Def = V->getParent();
  SmallPtrSet<BasicBlock *, 16> LiveIn;
  SmallVector<BasicBlock *, 16> Work;
  auto Visit = [&](BasicBlock *BB) {
    if (BB != Def && LiveIn.insert(BB).second)
      Work.push_back(BB);
  };
  for (Use &U : V->uses()) {
    auto *User = cast<Instruction>(U.getUser());
    auto *Phi = dyn_cast<PHINode>(User);
    Visit(Phi ? Phi->getIncomingBlock(U) : User->getParent());
  }
  while (!Work.empty())
    for (BasicBlock *Pred : predecessors(Work.pop_back_val()))
      Visit(Pred);
  SmallVector<unsigned, 4> Out;
  for (BasicBlock *BB : LiveIn)
    if (auto It = RootIdx.find(BB); It != RootIdx.end())
      Out.push_back(It->second);
  llvm::sort(Out); // the set's order is the blocks' addresses: keep the output reproducible
  return Out;
}

/// Whether I computes the same value wherever it is cloned: a read of the thread's index
/// slots, or a speculatable instruction that touches no memory (isRemat, isFlagOperand).
bool Fission::isPureStep(Instruction *I) {
  return indexLoadSlot(I, Idx) || (!I->mayReadOrWriteMemory() && !isa<PHINode, AllocaInst>(I) &&
                                   !I->isTerminator() && isSafeToSpeculativelyExecute(I));
}

/// Whether V can be recomputed anywhere from the thread's indices, the
/// arguments and constants, in at most Budget instructions.
bool Fission::isRemat(Value *V, unsigned &Budget, SmallPtrSetImpl<Value *> &Seen) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return isa<Argument, Constant>(V);
  if (!Seen.insert(V).second)
    return true; // counted once: cloneTree clones it once too
  if (Budget == 0)
    return false;
  --Budget;
  bool Pure = isPureStep(I);
  return Pure && all_of(I->operands(), [&](Value *Op) { return isRemat(Op, Budget, Seen); });
}

Value *Fission::cloneTree(Value *V, Instruction *Before, DenseMap<Value *, Value *> &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (auto It = Done.find(I); It != Done.end())
    return It->second;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(cloneTree(Op.get(), Before, Done));
  C->insertBefore(Before->getIterator());
  C->setName(I->getName() + ".remat");
  Done[I] = C;
  return C;
}

/// Whether To can be reached from the end of From without passing through Avoid.
static bool reachesAvoiding(BasicBlock *From, BasicBlock *To, BasicBlock *Avoid) {
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 16> Work(succ_begin(From), succ_end(From));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Avoid || !Seen.insert(BB).second)
      continue;
    if (BB == To)
      return true;
    Work.append(succ_begin(BB), succ_end(BB));
  }
  return false;
}

/// Whether V, an operand of a flag's branch conditions (FlagPaths.h), can be computed at At
/// with the value it had when the branches ran: constants, arguments, the thread's indices
/// and pure instructions on them (cloned, as isRemat), or a value the same in every thread
/// (Leaves: used as it is, and saved at the barrier like any other uniform value) defined
/// before the branches (or in the first of their blocks) and not defined again on any way from there to At that does not
/// pass the flag's join (a loop's counter, read after the barrier in the same iteration).
bool Fission::isFlagOperand(Value *V, const FlagPaths &FP, BasicBlock *Join, BasicBlock *At,
                            const Divergence &Div, const DominatorTree &DT, unsigned &Budget,
                            SmallPtrSetImpl<Value *> &Seen,
                            SmallPtrSetImpl<Instruction *> &Leaves) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return isa<Argument, Constant>(V);
  if (!Seen.insert(V).second)
    return true;
  if (Budget == 0)
    return false;
  --Budget;
  bool Pure = isPureStep(I);
  if (Pure)
    return all_of(I->operands(), [&](Value *Op) {
      return isFlagOperand(Op, FP, Join, At, Div, DT, Budget, Seen, Leaves);
    });
  BasicBlock *Def = I->getParent();
  if (Div.isDivergent(I) || !I->getType()->isIntegerTy() || Def == At ||
      !DT.dominates(Def, FP.Top) || reachesAvoiding(Def, At, Join))
    return false;
  Leaves.insert(I);
  return true;
}

/// Flags (FlagPaths.h) live across a barrier, recomputed after it from the branch conditions
/// that set them where every use outside the flag's block can recompute them: a thread's
/// flag is then a condition on its indices that the region's loop can split at, not a value
/// each thread stores and loads. A phi all of whose incoming values are the flag (a loop's
/// exit) is replaced by the recomputed flag, and a comparison of the flag with a constant by
/// the condition. Each thread still computes what it computed: the same conditions on the
/// same values.
void Fission::recomputeFlags(const Divergence &Div) {
  if (WarpMode)
    return; // warp rounds reload uniform values per warp: not needed there so far
  const unsigned MaxFlagSize = 48;
  DominatorTree DT(F);
  auto Stop = [&](BasicBlock *BB) { return BarrierIdx.count(BB) || RootIdx.count(BB); };
  SmallVector<PHINode *, 8> Phis;
  for (BasicBlock &BB : F)
    for (PHINode &P : BB.phis())
      if (!liveAtRoots(&P).empty())
        Phis.push_back(&P);
  for (PHINode *P : Phis) {
    std::optional<FlagPaths> FP = flagPaths(*P, DT, Stop);
    if (!FP)
      continue;
    struct Site {
      Instruction *User, *Before;
      int Incoming; // a phi's incoming value, or -1: the user's operand (or, Alias, itself)
      bool Alias;
    };
    SmallVector<Site, 8> Sites;
    SmallSetVector<Instruction *, 8> Users;
    for (User *U : P->users())
      Users.insert(cast<Instruction>(U));
    bool Ok = true;
    for (Instruction *User : Users) {
      auto *Phi = dyn_cast<PHINode>(User);
      if (Phi && Phi->getParent() != P->getParent() && liveAtRoots(Phi).empty() &&
          all_of(Phi->incoming_values(), [&](Value *V) { return V == P; })) {
        Sites.push_back({Phi, &*Phi->getParent()->getFirstInsertionPt(), -1, true});
      } else if (Phi) {
        for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
          if (Phi->getIncomingValue(K) == P) {
            BasicBlock *From = Phi->getIncomingBlock(K);
            Ok &= !BarrierIdx.count(From);
            if (From != P->getParent())
              Sites.push_back({Phi, From->getTerminator(), int(K), false});
          }
      } else if (User->getParent() != P->getParent()) {
        Sites.push_back({User, User, -1, false});
      }
    }
    // Every site can recompute the flag, or the flag is saved as before.
    SmallVector<SmallPtrSet<Instruction *, 4>, 8> SiteLeaves(Sites.size());
    for (unsigned S = 0; Ok && S < Sites.size(); ++S) {
      unsigned Budget = MaxFlagSize;
      SmallPtrSet<Value *, 32> Seen;
      for (const auto &Path : FP->Paths)
        for (auto [Cond, Way] : Path)
          Ok &= isFlagOperand(Cond, *FP, P->getParent(), Sites[S].Before->getParent(), Div, DT,
                              Budget, Seen, SiteLeaves[S]);
    }
    if (!Ok || Sites.empty())
      continue;
    const DataLayout &DL = F.getDataLayout();
    for (unsigned S = 0; S < Sites.size(); ++S) {
      Site &St = Sites[S];
      IRBuilder<> B(St.Before);
      DenseMap<Value *, Value *> Done;
      for (Instruction *L : SiteLeaves[S])
        Done[L] = L;
      Value *Cond = emitFlagCondition(
          *FP, B, [&](Value *C) { return cloneTree(C, St.Before, Done); });
      Value *Flag = emitFlagValue(*FP, B, Cond);
      SmallVector<Instruction *, 4> Readers;
      if (St.Alias) {
        for (User *U : St.User->users())
          Readers.push_back(cast<Instruction>(U));
        St.User->replaceAllUsesWith(Flag);
        St.User->eraseFromParent();
      } else if (St.Incoming >= 0) {
        cast<PHINode>(St.User)->setIncomingValue(St.Incoming, Flag);
      } else {
        St.User->replaceUsesOfWith(P, Flag);
        Readers.push_back(St.User);
      }
      // `flag != 0`: the condition itself.
      for (Instruction *R : Readers) {
        auto *Cmp = dyn_cast<ICmpInst>(R);
        auto *K = Cmp ? dyn_cast<Constant>(Cmp->getOperand(1)) : nullptr;
        if (!K || Cmp->getOperand(0) != Flag || FP->True->getType()->isIntegerTy(1))
          continue;
        Constant *OnTrue = ConstantFoldCompareInstOperands(Cmp->getPredicate(), FP->True, K, DL);
        Constant *OnFalse =
            ConstantFoldCompareInstOperands(Cmp->getPredicate(), FP->False, K, DL);
        if (!OnTrue || !OnFalse)
          continue;
        IRBuilder<> At(Cmp);
        Value *Same = OnTrue == OnFalse     ? OnTrue
                      : OnTrue->isOneValue() ? Cond
                                             : At.CreateNot(Cond);
        Cmp->replaceAllUsesWith(Same);
        Cmp->eraseFromParent();
      }
    }
    ++RecomputedFlags;
  }
}

/// Values live across a barrier: recomputed where used, or stored before it and
/// reloaded after it, with SSA form repaired for the new definitions.
bool Fission::saveAcrossBarriers(const Divergence &Div, const Divergence *WarpDiv,
                                 std::string &Why) {
  recomputeFlags(Div);
  const DataLayout &DL = F.getDataLayout();
  uint64_t PerThreadBytes = 0;
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      Storages.push_back({AI, false}); // a local array: each thread has its own
      PerThreadBytes += threadStride(AI, DL);
    }
  auto LiveValues = [&] {
    SmallVector<std::pair<Instruction *, SmallVector<unsigned, 4>>, 16> Live;
    for (Instruction &I : instructions(F))
      if (!isa<AllocaInst>(I) && !I.getType()->isVoidTy())
        if (SmallVector<unsigned, 4> At = liveAtRoots(&I); !At.empty())
          Live.push_back({&I, std::move(At)});
    return Live;
  };
  // Recomputed at each use in another block: no phis that would themselves need saving (a
  // phi of threadIdx.x at a loop header is no longer recognisably the thread index).
  for (auto &[V, At] : LiveValues()) {
    unsigned Budget = MaxRematSize;
    SmallPtrSet<Value *, 32> Seen;
    if (!isRemat(V, Budget, Seen))
      continue;
    SmallVector<Use *, 16> Uses;
    for (Use &U : V->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *User = cast<Instruction>(U->getUser());
      auto *Phi = dyn_cast<PHINode>(User);
      Instruction *Before = Phi ? Phi->getIncomingBlock(*U)->getTerminator() : User;
      if (Before->getParent() == V->getParent())
        continue;
      DenseMap<Value *, Value *> Done;
      U->set(cloneTree(V, Before, Done));
    }
  }

  // The shuffle whose region root R is, in warp rounds (else nullptr).
  auto ShuffleBefore = [&](unsigned R) -> CallInst * {
    if (!WarpMode || !WarpSplit[R - 1])
      return nullptr;
    for (Instruction &I : *Roots[R])
      if (WarpStandIns.contains(&I))
        return cast<CallInst>(&I);
    return nullptr;
  };
  // Per-thread arrays shared by values of one type saved at different barriers (the tree
  // reduction's v before its stride loop and v in it: a thread that skips a stride then
  // stores its v where it read it, which the optimiser drops, instead of copying it to a
  // second array). A thread stores a value right before it crosses the barrier and reads it
  // back right after, touching its own element only: values saved at different barriers
  // never hold the same element at once. Not for values the same in all threads or a
  // warp's lanes, which are read from another thread's element or stored once per block.
  struct SharedSlot {
    AllocaInst *Slot;
    SmallVector<unsigned, 8> Roots; // where the values in it are read back
  };
  SmallVector<SharedSlot, 8> Sharable;
  for (auto &[V, At] : LiveValues()) {
    bool Uniform = !Div.isDivergent(V);
    bool WarpUniform = Uniform || (WarpDiv && !WarpDiv->isDivergent(V));
    AllocaInst *Slot = nullptr; // made when a region needs it
    Instruction *Live = V;      // (a structured binding: not capturable in C++17)
    SmallVector<unsigned, 4> SavedAt; // the roots where V is saved, not read from a shuffle
    for (unsigned R : At)
      if (CallInst *Shfl = ShuffleBefore(R); !Shfl || !shuffleOperandHolding(Shfl, V))
        SavedAt.push_back(R);
    auto SlotFor = [&] {
      if (Slot)
        return Slot;
      if (!WarpUniform)
        for (SharedSlot &S : Sharable)
          if (S.Slot->getAllocatedType() == Live->getType() &&
              none_of(SavedAt, [&](unsigned R) { return is_contained(S.Roots, R); })) {
            S.Roots.append(SavedAt.begin(), SavedAt.end());
            ++SharedSaves;
            return Slot = S.Slot;
          }
      Slot = B.CreateAlloca(Live->getType(), nullptr, Live->getName() + ".saved");
      Storages.push_back({Slot, Uniform});
      PerThreadBytes += threadStride(Slot, DL); // uniform ones too: one per thread
      if (!WarpUniform)
        Sharable.push_back({Slot, SmallVector<unsigned, 8>(SavedAt.begin(), SavedAt.end())});
      return Slot;
    };
    SSAUpdater SSA;
    SSA.Initialize(V->getType(), V->getName());
    SSA.AddAvailableValue(V->getParent(), V);
    DenseMap<BasicBlock *, Value *> Restored;
    for (unsigned R : At) {
      Instruction *Start = &*Roots[R]->getFirstInsertionPt();
      // V is the operand of the shuffle right before R: read back from the shuffle's value
      // slot, not saved again.
      if (CallInst *Shfl = ShuffleBefore(R)) {
        if (AllocaInst *Operand = shuffleOperandHolding(Shfl, V)) {
          Value *New = new LoadInst(B.getInt32Ty(), Operand, V->getName() + ".restored",
                                    Start->getIterator());
          if (V->getType() != New->getType())
            New = new BitCastInst(New, V->getType(), V->getName() + ".restored.bits",
                                  Start->getIterator());
          if (WarpUniform)
            HoistedReloads[R].push_back(cast<LoadInst>(
                isa<LoadInst>(New) ? New : cast<BitCastInst>(New)->getOperand(0)));
          ++OperandReloads;
          SSA.AddAvailableValue(Roots[R], New);
          Restored[Roots[R]] = New;
          continue;
        }
      }
      auto *Save = new StoreInst(V, SlotFor(),
                                Barriers[R - 1]->getTerminator()->getPrevNode()->getIterator());
      auto *New =
          new LoadInst(V->getType(), Slot, V->getName() + ".restored", Start->getIterator());
      // Warp by warp, warp 0 may run ahead of the others up to the next block barrier (a
      // loop of shuffles): thread 0's copy is not theirs after a warp collective, but the
      // warp's first lane's is (emitRegion reads that one there). After a block barrier,
      // every thread has stored the same.
      if (WarpMode && WarpSplit[R - 1] ? WarpUniform : Uniform)
        HoistedReloads[R].push_back(New);
      // Stored once per block (emitRegion) where thread 0's copy is what is read: after a
      // block barrier, also in warp rounds (the region after it runs over the whole block).
      if (Uniform && (!WarpMode || !WarpSplit[R - 1]))
        UniformSaves.insert(Save);
      SSA.AddAvailableValue(Roots[R], New);
      Restored[Roots[R]] = New;
    }
    SmallVector<Use *, 16> Uses;
    for (Use &U : V->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *User = cast<Instruction>(U->getUser());
      if (isa<PHINode>(User)) {
        SSA.RewriteUse(*U);
      } else if (auto It = Restored.find(User->getParent()); It != Restored.end()) {
        U->set(It->second); // after the restore, at the top of the region's root
      } else if (User->getParent() != V->getParent()) {
        SSA.RewriteUse(*U);
      }
    }
  }
  if (PerThreadBytes > MaxContextBytes) {
    Why = std::to_string(PerThreadBytes) + " bytes per thread live across barriers (more than " +
          std::to_string(MaxContextBytes) + ")";
    return false;
  }
  for (Instruction &I : instructions(F))
    if (!isa<AllocaInst>(I) && !I.getType()->isVoidTy() && !liveAtRoots(&I).empty()) {
      Why = "internal: a value live across syncthreads() was not saved";
      return false;
    }
  return true;
}

/// Whether code may write through P (or let it escape, which may amount to the same).
static bool mayWriteThrough(Value *P) {
  SmallVector<Value *, 8> Work = {P};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (Use &U : V->uses()) {
      auto *I = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst, PHINode, SelectInst, AddrSpaceCastInst>(I))
        Work.push_back(I);
      else if (auto *MT = dyn_cast<MemTransferInst>(I); MT && U == MT->getRawSource())
        continue;
      else if (auto *Call = dyn_cast<CallBase>(I); Call && Call->isArgOperand(&U)) {
        unsigned No = Call->getArgOperandNo(&U);
        if (!Call->onlyReadsMemory(No) || !Call->doesNotCapture(No))
          return true;
      } else if (!isa<LoadInst, ICmpInst>(I)) {
        return true; // a store to it or of it, a cast to an integer, …
      }
    }
  }
  return false;
}

/// A struct parameter passed by value (byval) is each thread's own copy on the GPU, but the
/// regions' loops hand every thread the same pointer: a thread that changes its copy must
/// get one, an alloca that becomes a per-thread array like the other locals.
static void copyWrittenByValArgs(Function &F) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (Argument &A : F.args()) {
    if (!A.hasByValAttr() || !mayWriteThrough(&A))
      continue;
    Type *Ty = A.getParamByValType();
    Align Al = A.getParamAlign().value_or(DL.getABITypeAlign(Ty));
    AllocaInst *Copy = B.CreateAlloca(Ty, nullptr, A.getName() + ".copy");
    Copy->setAlignment(Al);
    A.replaceAllUsesWith(Copy);
    B.CreateMemCpy(Copy, Al, &A, Al, DL.getTypeAllocSize(Ty));
  }
}

bool Fission::prepare(std::string &Why) {
  copyWrittenByValArgs(F);
  if (!inlineBarrierCalls(Why))
    return false;
  simplify();
  if (!checkInstructions(Why))
    return false;
  // Each collective of a short constant loop its own region, with constant operands.
  if (WarpMode)
    WarpLoops = unrollWarpLoops(F, FAM, isWarpCollectiveCall, isBlockBarrier);
  lowerBlockVotes();
  if (WarpMode)
    lowerWarpCollectives(F, WarpStandIns);
  // Lifetime markers would end up on slices of the per-thread arrays.
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->isLifetimeStartOrEnd())
      II->eraseFromParent();
  splitAtBarriers();
  PostDominatorTree PDT(F);
  // Loads from uniform addresses count as uniform when no write in their barrier interval
  // may alias them (Divergence.cpp). The analyses are dropped before F changes again.
  AAResults &AA = FAM.getResult<AAManager>(F);
  Divergence Div(F, Idx, PDT, &AA);
  std::optional<Divergence> WarpDiv; // warp rounds: what differs between a warp's lanes
  for (const Divergence::Branch &Br : Div.divergentBranches())
    for (unsigned I = 0; I < Barriers.size(); ++I)
      if (!WarpSplit[I] && Br.Region.contains(Barriers[I])) {
        FAM.clear(F, F.getName());
        Why = "syncthreads()" + atLine(&Barriers[I]->front()) +
              " under a branch that depends on the thread" + atLine(Br.Term);
        return false;
      }
  // Every lane of a warp must reach each warp collective (or none): the lane loops run
  // from one to the next.
  if (WarpMode) {
    WarpDiv.emplace(F, Idx, PDT, &AA, Divergence::Granularity::Warp);
    for (const Divergence::Branch &Br : WarpDiv->divergentBranches())
      for (unsigned I = 0; I < Barriers.size(); ++I)
        if (WarpSplit[I] && Br.Region.contains(Barriers[I])) {
          FAM.clear(F, F.getName());
          Instruction *Call = &Barriers[I]->front();
          Why = primitiveOf(cast<CallInst>(Call)->getCalledFunction())->ShortName.str() + "()" +
                atLine(Call) + " under a branch that differs between the lanes of a warp" +
                atLine(Br.Term);
          return false;
        }
  }
  FAM.clear(F, F.getName());
  formRegions();
  // A collective's mask or lane argument that is the same across the warp is read from the
  // warp's first lane (WarpSlots::Lead), not by every lane.
  if (WarpDiv)
    for (Instruction *StandIn : WarpStandIns)
      for (unsigned K : {1u, 3u}) {
        auto *Slot = dyn_cast<AllocaInst>(cast<CallInst>(StandIn)->getArgOperand(K));
        if (!Slot)
          continue; // a constant (WarpCollectives.cpp's storedOrConstant)
        bool Same = true;
        for (User *U : Slot->users())
          if (auto *St = dyn_cast<StoreInst>(U); St && St->getPointerOperand() == Slot)
            Same &= !WarpDiv->isDivergent(St->getValueOperand());
        if (Same)
          WarpUniformSlots.insert(Slot);
      }
  return saveAcrossBarriers(Div, WarpDiv ? &*WarpDiv : nullptr, Why);
}

/// The count of the block's threads whose predicate (Vote's array) is set, and what the vote
/// makes of it; B is left after the loop that counts.
Value *Fission::emitBlockVote(CallInst *Vote, IRBuilder<> &B,
                              DenseMap<AllocaInst *, AllocaInst *> &Home) {
  LLVMContext &C = B.getContext();
  AllocaInst *Preds = Home[cast<AllocaInst>(Vote->getArgOperand(0))];
  auto Kind = VoteKind(cast<ConstantInt>(Vote->getArgOperand(1))->getZExtValue());
  Function *E = B.GetInsertBlock()->getParent();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(C, "kp.vote.loop", E);
  BasicBlock *Exit = BasicBlock::Create(C, "kp.vote.done", E);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "kp.vote.i");
  PHINode *Acc = B.CreatePHI(B.getInt32Ty(), 2, "kp.vote.acc");
  Value *P = B.CreateLoad(B.getInt32Ty(), B.CreateInBoundsGEP(B.getInt32Ty(), Preds, I));
  Value *Sum = B.CreateAdd(Acc, P);
  Value *NextI = B.CreateNUWAdd(I, B.getInt64(1));
  B.CreateCondBr(B.CreateICmpULT(NextI, Threads), Loop, Exit);
  I->addIncoming(B.getInt64(0), Pre);
  I->addIncoming(NextI, Loop);
  Acc->addIncoming(B.getInt32(0), Pre);
  Acc->addIncoming(Sum, Loop);
  B.SetInsertPoint(Exit);
  switch (Kind) {
  case VoteKind::Count:
    return Sum;
  case VoteKind::And:
    return B.CreateZExt(B.CreateICmpEQ(B.CreateZExt(Sum, B.getInt64Ty()), Threads),
                        B.getInt32Ty());
  case VoteKind::Or:
    return B.CreateZExt(B.CreateICmpNE(Sum, B.getInt32(0)), B.getInt32Ty());
  }
  llvm_unreachable("vote kind");
}

/// Where a region leaves to, in Next: a region, or (Wait) a block barrier's region or Done.
/// Warp by warp, a warp runs on through the regions after warp collectives, and stops at
/// block barriers and the end until every warp has got there.
enum : unsigned { WaitBit = 1u << 16 };

/// The value Phi has in a copy of the region made of Region's blocks, where it comes from one
/// value only; or nullptr.
static Value *onlyIncoming(PHINode *Phi, const SmallPtrSetImpl<BasicBlock *> &Region) {
  Value *Only = nullptr;
  for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
    if (Region.contains(Phi->getIncomingBlock(K))) {
      if (Only && Only != Phi->getIncomingValue(K))
        return nullptr;
      Only = Phi->getIncomingValue(K);
    }
  return Only == Phi ? nullptr : Only;
}

/// Whether V is the same in every thread of a row of the block and can be computed before
/// the row's loop over x (Row) or before the region's thread loops (!Row): built by pure
/// instructions from constants, arguments, the block's geometry, threadIdx.y and z (Row),
/// and what Pre already holds (uniform values reloaded before the loop, block votes).
/// In a region's copy, a phi whose other incoming edges come from other regions is the value
/// of its one edge in the region (a loop's counter after a barrier in the loop): Region.
static bool isRowValue(Value *V, const Argument *Idx, const DenseMap<Value *, Value *> &Pre,
                       bool Row, unsigned &Budget, const SmallPtrSetImpl<BasicBlock *> &Region) {
  if (isa<Constant, Argument>(V) || Pre.count(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Budget == 0)
    return false;
  --Budget;
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    Value *Only = onlyIncoming(Phi, Region);
    return Only && isRowValue(Only, Idx, Pre, Row, Budget, Region);
  }
  if (std::optional<unsigned> Slot = indexLoadSlot(I, Idx))
    return *Slot >= SlotCtaid ? *Slot != SlotLinear : (Row && *Slot != SlotTid);
  bool Pure = !I->mayReadOrWriteMemory() && !isa<PHINode, AllocaInst>(I) && !I->isTerminator() &&
              isSafeToSpeculativelyExecute(I);
  return Pure && all_of(I->operands(), [&](Value *Op) {
           return isRowValue(Op, Idx, Pre, Row, Budget, Region);
         });
}

/// V (isRowValue) computed at B: clones of its instructions, Map giving what exists already.
static Value *emitRowValue(Value *V, IRBuilder<> &B, DenseMap<Value *, Value *> &Map,
                           ValueToValueMapTy &VMap, const SmallPtrSetImpl<BasicBlock *> &Region) {
  if (auto It = Map.find(V); It != Map.end())
    return It->second;
  if (isa<Argument>(V))
    return VMap[V];
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (auto *Phi = dyn_cast<PHINode>(I))
    return Map[V] = emitRowValue(onlyIncoming(Phi, Region), B, Map, VMap, Region);
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(emitRowValue(Op.get(), B, Map, VMap, Region));
  B.Insert(C, I->getName());
  Map[V] = C;
  return C;
}

/// Queues BB's successors in InOrder not yet Reached, only the taken one where Known decides
/// BB's branch (the walks over what a part of a split loop can reach).
static void pushTakenSuccessors(BasicBlock *BB, const SmallPtrSetImpl<BasicBlock *> &InOrder,
                                function_ref<ConstantInt *(Value *)> Known,
                                SmallPtrSetImpl<BasicBlock *> &Reached,
                                SmallVectorImpl<BasicBlock *> &Work) {
  auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
  ConstantInt *K = Br && Br->isConditional() ? Known(Br->getCondition()) : nullptr;
  for (BasicBlock *Succ : successors(BB))
    if (InOrder.contains(Succ) && (!K || Succ == Br->getSuccessor(K->isZero() ? 1 : 0)) &&
        Reached.insert(Succ).second)
      Work.push_back(Succ);
}

/// Inside the interval of First (a region's x loop split at First's branch, Inside the
/// values fixed there), a second branch on threadIdx.x holding on one interval (the
/// hotspot's `tx < 15 - step` after its `inside && tx > step`): the first of Order's
/// branches reachable with Decided and Inside, other than First's and those Inside
/// decides, whose leaves lie in Order. IsPre says what is a row value. Not a guard against
/// the problem size (RangeSplitPolicy.h), left to ThreadLoopVersioning.
static std::optional<IndexRange>
nestedIndexRange(const IndexRange &First, const Argument *Idx, ArrayRef<BasicBlock *> Order,
                 const DenseMap<Value *, Value *> &Decided,
                 const DenseMap<Value *, Value *> &Inside,
                 function_ref<bool(Value *, bool)> IsPre) {
  SmallPtrSet<BasicBlock *, 16> InOrder(Order.begin(), Order.end()), Reached;
  SmallVector<BasicBlock *, 16> Work{Order.front()};
  Reached.insert(Order.front());
  auto Known = [&](Value *Cond) -> ConstantInt * {
    if (Value *K = Decided.lookup(Cond))
      return dyn_cast<ConstantInt>(K);
    return dyn_cast_or_null<ConstantInt>(Inside.lookup(Cond));
  };
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    pushTakenSuccessors(BB, InOrder, Known, Reached, Work);
  }
  SmallVector<BasicBlock *, 16> Cands;
  for (BasicBlock *BB : Order) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Reached.contains(BB) || BB == First.Branch->getParent() ||
        (Br && Br->isConditional() && Known(Br->getCondition())))
      continue;
    Cands.push_back(BB);
  }
  std::optional<IndexRange> N =
      findIndexRange(Cands, Idx, [&](Value *V) { return IsPre(V, /*Row=*/true); });
  auto InRegion = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return I && InOrder.contains(I->getParent());
  };
  if (!N || !InRegion(N->Cond) ||
      !all_of(N->XLeaves, [&](const IndexLeaf &Lf) { return InRegion(Lf.Cmp); }) ||
      !all_of(N->RowLeaves, [&](const IndexLeaf &Lf) { return InRegion(Lf.Cmp); }) ||
      isProblemSizeGuard(*N, Idx))
    return std::nullopt;
  return N;
}

/// Whether the blocks of Region reachable from Root (a region's, not going on past its
/// exits, the blocks IsExit picks) hold a cycle: a loop of the thread's own. A region with
/// one does enough work per thread that its once-a-round setup matters little, and a second
/// copy of it is only more code (tried: the histogram's rounds, 0.8% more instructions).
static bool hasCycle(BasicBlock *Root, const SmallPtrSetImpl<BasicBlock *> &Region,
                     function_ref<bool(BasicBlock *)> IsExit) {
  DenseMap<BasicBlock *, bool> OnPath; // visited: false once finished
  SmallVector<std::pair<BasicBlock *, unsigned>, 16> Stack{{Root, 0}};
  OnPath[Root] = true;
  while (!Stack.empty()) {
    auto &[BB, Next] = Stack.back();
    Instruction *T = BB->getTerminator();
    if (Next == (IsExit(BB) ? 0 : T->getNumSuccessors())) {
      OnPath[BB] = false;
      Stack.pop_back();
      continue;
    }
    BasicBlock *Succ = T->getSuccessor(Next++);
    if (!Region.contains(Succ))
      continue;
    auto [It, New] = OnPath.try_emplace(Succ, true);
    if (!New && It->second)
      return true;
    if (New)
      Stack.push_back({Succ, 0});
  }
  return false;
}

/// A warp's first lane's (x, y, z) in the block.
struct WarpStart {
  Value *X, *Y, *Z;
};

/// The (x, y, z) of linear id First32 (a warp's first lane), at B; B is left after it. In the
/// block's first row (First32 < blockDim.x: every warp of a one-row block, such as the tree
/// reduction's) that is (First32, 0, 0), taken without the two divisions the other rows need
/// (a 64-bit division is tens of cycles, and this runs once per warp and round).
static WarpStart warpStartOf(IRBuilder<> &B, Value *First32, Value *const Ntid[3]) {
  LLVMContext &C = B.getContext();
  BasicBlock *From = B.GetInsertBlock();
  Function *E = From->getParent();
  BasicBlock *Rows = BasicBlock::Create(C, "kp.warp.rows", E);
  BasicBlock *Join = BasicBlock::Create(C, "kp.warp.start", E);
  B.CreateCondBr(B.CreateICmpULT(First32, Ntid[0]), Join, Rows);
  B.SetInsertPoint(Rows);
  Value *Row = B.CreateUDiv(First32, Ntid[0]);
  Value *X0 = B.CreateSub(First32, B.CreateMul(Row, Ntid[0]));
  Value *Y = B.CreateURem(Row, Ntid[1]), *Z = B.CreateUDiv(Row, Ntid[1]);
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
  auto Phi = [&](Value *InFirstRow, Value *Else, const char *Name) {
    PHINode *P = B.CreatePHI(B.getInt32Ty(), 2, Name);
    P->addIncoming(InFirstRow, From);
    P->addIncoming(Else, Rows);
    return P;
  };
  return {Phi(First32, X0, "kp.warp.x0"), Phi(B.getInt32(0), Y, "kp.warp.y"),
          Phi(B.getInt32(0), Z, "kp.warp.z")};
}

/// Next[x + blockDim.x * YZ] = To for each x in [From, To) that is a multiple of 32: the
/// first lanes of the warps starting in a part of a row's loop over x (rows hold whole warps,
/// or there is one row: emit). In warp rounds those are the only entries of Next read (the
/// warps' loop and the dispatch read a warp's first lane's, the round thread 0's), and a
/// warp's lanes all leave a region the same way (the split's warp-uniformity check), so the
/// other threads' stores are not needed.
static void storeExitPerWarp(IRBuilder<> &B, unsigned To, Value *From, Value *End,
                             const BlockEntryFrame &Fr, Value *YZ, Value *Next) {
  Type *I64 = B.getInt64Ty();
  auto Warps = [&](Value *X) { // ceil(X / 32); X <= 1024
    return B.CreateLShr(B.CreateNUWAdd(X, B.getInt32(31)), B.getInt32(5));
  };
  Value *Row = B.CreateNUWMul(B.CreateZExt(Fr.Ntid[0], I64), B.CreateZExt(YZ, I64));
  emitLaneLoop(B, Warps(From), Warps(End), "kp.exit.part", [&](Value *W) {
    Value *Lin = B.CreateNUWAdd(B.CreateZExt(B.CreateNUWMul(W, B.getInt32(32)), I64), Row);
    B.CreateStore(B.getInt32(To), B.CreateInBoundsGEP(B.getInt32Ty(), Next, Lin));
  });
}

/// The one way a thread of a part of a region's split thread loop leaves the region: the
/// exit (ExitOf) of every block reachable from Order's first with the branches whose
/// conditions Known decides folded, where that is one exit; else std::nullopt. The tree
/// reduction's `tid < 32` step: its part [0, 32) goes on to the first shuffle, its part
/// [32, blockDim.x) to the end.
static std::optional<unsigned>
onlyExitOfPart(ArrayRef<BasicBlock *> Order, function_ref<ConstantInt *(Value *)> Known,
               function_ref<std::optional<unsigned>(Instruction &, BasicBlock *)> ExitOf) {
  SmallPtrSet<BasicBlock *, 16> InOrder(Order.begin(), Order.end()), Reached;
  SmallVector<BasicBlock *, 16> Work{Order.front()};
  Reached.insert(Order.front());
  std::optional<unsigned> Only;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    bool Left = false;
    for (Instruction &I : *BB)
      if (std::optional<unsigned> To = ExitOf(I, BB)) {
        if (Only && *Only != *To)
          return std::nullopt;
        Only = To, Left = true;
        break;
      }
    if (Left)
      continue;
    pushTakenSuccessors(BB, InOrder, Known, Reached, Work);
  }
  return Only;
}

bool Fission::emitRegion(unsigned R, const BlockEntryFrame &Fr, IRBuilder<> &B,
                         DenseMap<AllocaInst *, AllocaInst *> &Home, AllocaInst *Next,
                         BasicBlock *Dispatch, const WarpFrame *Warp) {
  Function *E = Fr.F;
  LLVMContext &C = E->getContext();
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I + 1 < F.arg_size(); ++I)
    VMap[F.getArg(I)] = Fr.Args[I];
  VMap[Idx] = Fr.Idx;
  SmallPtrSet<Instruction *, 16> Skip;
  for (Storage &S : Storages)
    Skip.insert(S.Slot);
  DenseMap<Value *, Value *> Pre; // values of the region's code computed before its loops
  // Uniform values saved at the barrier before this region: read once (thread 0's copy),
  // before any thread stores the values of the next barrier.
  for (LoadInst *L : HoistedReloads.lookup(R)) {
    AllocaInst *Home0 = Home[cast<AllocaInst>(L->getPointerOperand())];
    Value *Slot = Warp ? B.CreateInBoundsGEP(Home0->getAllocatedType(), Home0, Warp->FirstLinear)
                       : Home0;
    Pre[L] = VMap[L] = B.CreateLoad(L->getType(), Slot, L->getName());
    Skip.insert(L);
  }
  // A block vote's result: every thread has stored its predicate before the barrier.
  CallInst *WarpStandIn = nullptr;
  for (Instruction &I : *Roots[R])
    if (auto *Vote = dyn_cast<CallInst>(&I); Vote && Votes.contains(Vote)) {
      Pre[Vote] = VMap[Vote] = emitBlockVote(Vote, B, Home);
      Skip.insert(Vote);
    } else if (Vote && WarpStandIns.contains(Vote)) {
      WarpStandIn = Vote;
      Skip.insert(Vote);
    }
  auto HomeOf = [&](Value *A) -> Value * { return Home[cast<AllocaInst>(A)]; };
  auto OwnOf = [&](Value *A) -> Value * { return VMap[A]; };
  // Read before the lanes run: lane 0 may store the next collective's operands over them.
  DenseMap<Value *, Value *> Lead;
  if (WarpStandIn)
    for (unsigned K : {1u, 3u})
      if (Value *A = WarpStandIn->getArgOperand(K); WarpUniformSlots.contains(A)) {
        AllocaInst *H = Home[cast<AllocaInst>(A)];
        Lead[A] = B.CreateLoad(B.getInt32Ty(),
                               B.CreateInBoundsGEP(H->getAllocatedType(), H, Warp->FirstLinear));
      }
  auto LeadOf = [&](Value *A) -> Value * { return Lead.lookup(A); };
  WarpSlots Slots{HomeOf, OwnOf, LeadOf}; // function_refs: the lambdas must outlive them
  // A warp collective's: what the lanes need from each other, before any lane runs on.
  Value *Gathered =
      WarpStandIn ? emitWarpPrologue(WarpStandIn, B, *Warp, Slots, ShufflePaths) : nullptr;


  // One variant of the region: Decided maps the conditions of uniform branches decided before
  // it to their values, and Blocks are the region's blocks reachable then.
  std::function<bool(const DenseMap<Value *, Value *> &, unsigned)> EmitVariant;
  EmitVariant = [&](const DenseMap<Value *, Value *> &Decided, unsigned Depth) -> bool {
  SmallPtrSet<BasicBlock *, 16> Blocks;
  {
    SmallVector<BasicBlock *, 16> Work{Roots[R]};
    Blocks.insert(Roots[R]);
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BarrierIdx.count(BB))
        continue; // the region's exit
      auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      Value *Known = Br && Br->isConditional() ? Decided.lookup(Br->getCondition()) : nullptr;
      for (BasicBlock *Succ : successors(BB))
        if (!Known || Succ == Br->getSuccessor(cast<ConstantInt>(Known)->isZero() ? 1 : 0))
          if (Blocks.insert(Succ).second)
            Work.push_back(Succ);
    }
  }
  SmallVector<BasicBlock *, 16> Order;
  for (BasicBlock &BB : F)
    if (Blocks.contains(&BB))
      Order.push_back(&BB);
  auto IsPre = [&](Value *V, bool Row) {
    unsigned Budget = MaxRematSize;
    return isRowValue(V, Idx, Pre, Row, Budget, Blocks);
  };
  // A uniform branch the code before the loop can decide: one variant of the region for
  // each way, so that the threads' loop has no branch that is the same for all (the first
  // such branch: each variant is more code to compile).
  if (Depth < MaxUniformVariants)
    for (BasicBlock *BB : Order) {
      auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      if (!Br || !Br->isConditional() || Decided.count(Br->getCondition()) ||
          isa<Constant>(Br->getCondition()) || !IsPre(Br->getCondition(), false))
        continue;
      DenseMap<Value *, Value *> Map(Pre);
      Value *Cond = emitRowValue(Br->getCondition(), B, Map, VMap, Blocks);
      BasicBlock *Taken = BasicBlock::Create(C, "kp.uniform.true", E);
      BasicBlock *NotTaken = BasicBlock::Create(C, "kp.uniform.false", E);
      B.CreateCondBr(Cond, Taken, NotTaken);
      ++UniformVariants;
      for (bool Way : {true, false}) {
        DenseMap<Value *, Value *> More(Decided);
        More[Br->getCondition()] = ConstantInt::getBool(C, Way);
        B.SetInsertPoint(Way ? Taken : NotTaken);
        if (!EmitVariant(More, Depth + 1))
          return false;
      }
      return true;
    }
  SmallPtrSet<Instruction *, 4> OnceSaved;
  // A uniform value saved for a later region that the code before the loop can compute (from
  // the values reloaded above, say) is stored once here, after those reloads, instead of by
  // every thread: only thread 0's element is read back.
  for (BasicBlock *BB : Order)
    for (Instruction &I : *BB)
      if (auto *Save = dyn_cast<StoreInst>(&I);
          Save && UniformSaves.contains(Save) && IsPre(Save->getValueOperand(), false)) {
        DenseMap<Value *, Value *> Map(Pre);
        B.CreateStore(emitRowValue(Save->getValueOperand(), B, Map, VMap, Blocks),
                      Home[cast<AllocaInst>(Save->getPointerOperand())]);
        OnceSaved.insert(Save);
        ++OnceSaves;
      }
  // Where the region leaves to. Every thread leaves the same way (the uniformity check): with
  // one way out, that is stored once, not by each thread, where one entry is all that is read
  // (the block's first, or in warp rounds the warp's first lane's).
  auto ExitOf = [&](Instruction &I, BasicBlock *BB) -> std::optional<unsigned> {
    if (!isBlockBarrier(I) && !isWarpCollectiveCall(I) && !isa<ReturnInst>(I))
      return std::nullopt;
    unsigned To = isa<ReturnInst>(I) ? Roots.size() : BarrierIdx.lookup(BB) + 1;
    if (WarpMode && !isWarpCollectiveCall(I))
      To |= WaitBit;
    return To;
  };
  SmallSet<unsigned, 4> Exits;
  for (BasicBlock *BB : Order)
    for (Instruction &I : *BB)
      if (std::optional<unsigned> To = ExitOf(I, BB)) {
        Exits.insert(*To);
        break;
      }
  // In warp rounds a region over the whole block is left the same way by every thread too;
  // what the warps' loop reads next is each warp's first lane's entry: stored for each warp.
  bool ExitOnce = Exits.size() == 1;
  // In warp rounds, a region over the whole block that every thread leaves for a block
  // barrier (or the end) leaves no warp with a collective to go on to: the round ends here,
  // without the warps' loop passing over each waiting warp, and only thread 0's entry, the
  // one the end of the round reads, is stored.
  BasicBlock *After = Dispatch;
  if (ExitOnce && WarpMode && !Warp && (*Exits.begin() & WaitBit)) {
    B.CreateStore(ConstantInt::get(I32, *Exits.begin()), Next);
    After = RoundDone;
    ++OnceExits;
  } else if (ExitOnce && WarpMode && !Warp) {
    emitLaneLoop(B, B.getInt32(0), WarpCount, "kp.exit.warps", [&](Value *W) {
      Value *First = B.CreateZExt(B.CreateNUWMul(W, B.getInt32(32)), I64);
      B.CreateStore(ConstantInt::get(I32, *Exits.begin()), B.CreateInBoundsGEP(I32, Next, First));
    });
    ++OnceExits;
  } else if (ExitOnce && !WarpMode) {
    // Straight on to the one region every thread leaves for (or the block's end): the
    // dispatch would only read it back from thread 0's entry of Next and switch on it.
    unsigned To = *Exits.begin();
    After = To < Roots.size() ? regionEntry(E, To) : BlockDone;
    ++OnceExits;
    ++DirectExits;
  } else if (ExitOnce) {
    Value *Slot = Warp ? B.CreateInBoundsGEP(I32, Next, Warp->FirstLinear) : Next;
    B.CreateStore(ConstantInt::get(I32, *Exits.begin()), Slot);
    ++OnceExits;
  }
  // One thread's run of the region at B, whose exits go to Latch; Fixed maps values the
  // thread is known to have (a branch condition folded in a split loop).
  bool ExitPerWarp = false; // the part being emitted stores its exit per warp (below)
  auto EmitThread = [&](Value *X, Value *Y, Value *Z, BasicBlock *Latch,
                        const DenseMap<Value *, Value *> &Fixed) {
    // The linear id in 64 bits from the counters, so that x-consecutive threads have
    // consecutive slots for the vectoriser.
    auto Wide = [&](Value *V) { return B.CreateZExt(V, I64); };
    Value *Lin = B.CreateNUWAdd(
        Wide(X), B.CreateNUWMul(Wide(Fr.Ntid[0]),
                                B.CreateNUWAdd(Wide(Y), B.CreateNUWMul(Wide(Fr.Ntid[1]), Wide(Z)))));
    for (Storage &S : Storages)
      VMap[S.Slot] = B.CreateInBoundsGEP(Home[S.Slot]->getAllocatedType(), Home[S.Slot], Lin,
                                         S.Slot->getName());
    Value *NextOfThread = B.CreateInBoundsGEP(I32, Next, Lin);
    // The lane from x: a warp is 32 consecutive x of one row (emit), and an i32 counter
    // keeps the lanes' compares cheap in a vectorised loop.
    if (WarpStandIn)
      VMap[WarpStandIn] = emitWarpLaneResult(WarpStandIn, B, *Warp, Slots, Gathered,
                                             B.CreateSub(X, Fr.Begin[0], "kp.lane"));
    for (auto [V, K] : Decided)
      VMap[V] = K;
    for (auto [V, K] : Fixed)
      VMap[V] = K;
    for (BasicBlock *BB : Order)
      VMap[BB] = BasicBlock::Create(C, BB->getName(), E, Latch);
    B.CreateBr(cast<BasicBlock>(VMap[Roots[R]]));
    SmallVector<Instruction *, 64> Cloned;
    for (BasicBlock *BB : Order) {
      auto *NB = cast<BasicBlock>(VMap[BB]);
      for (Instruction &I : *BB) {
        if (Skip.contains(&I) || OnceSaved.contains(&I) || Fixed.count(&I) ||
            Decided.count(&I) || isa<DbgInfoIntrinsic>(I))
          continue;
        // Leaving the region: every thread leaves the same way (the uniformity check).
        if (std::optional<unsigned> To = ExitOf(I, BB)) {
          if (!ExitOnce && !ExitPerWarp)
            new StoreInst(ConstantInt::get(I32, *To), NextOfThread, NB);
          BranchInst::Create(Latch, NB);
          break;
        }
        Instruction *NI = I.clone();
        NI->setName(I.getName());
        NI->insertInto(NB, NB->end());
        VMap[&I] = NI;
        Cloned.push_back(NI);
        if (auto *Phi = dyn_cast<PHINode>(NI))
          for (unsigned K = Phi->getNumIncomingValues(); K-- > 0;)
            if (!Blocks.contains(Phi->getIncomingBlock(K)))
              Phi->removeIncomingValue(K, /*DeletePHIIfEmpty=*/false);
        // A decided branch whose other way leaves the variant goes one way only.
        if (auto *Br = dyn_cast<BranchInst>(NI); Br && Br->isConditional())
          if (auto *Known = dyn_cast_or_null<ConstantInt>(Decided.lookup(Br->getCondition()))) {
            BasicBlock *Taken = Br->getSuccessor(Known->isZero() ? 1 : 0);
            BasicBlock *Other = Br->getSuccessor(Known->isZero() ? 0 : 1);
            if (!Blocks.contains(Other)) {
              Cloned.pop_back();
              Br->eraseFromParent();
              Instruction *Jump = BranchInst::Create(Taken, NB);
              VMap[&I] = Jump;
              Cloned.push_back(Jump);
            }
          }
      }
    }
    for (Instruction *NI : Cloned)
      RemapInstruction(NI, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    auto InBody = [&](Value *Op) {
      if (auto *I = dyn_cast<Instruction>(Op))
        return I->getFunction() == &F;
      if (auto *A = dyn_cast<Argument>(Op))
        return A->getParent() == &F;
      if (auto *BB = dyn_cast<BasicBlock>(Op))
        return BB->getParent() == &F;
      return false;
    };
    return none_of(Cloned, [&](Instruction *NI) { return any_of(NI->operands(), InBody); });
  };

  // A branch whose condition holds on one interval of threadIdx.x per row: the row's loop
  // over x runs in up to three consecutive parts, below, in and above the interval, each
  // with the branch folded (ThreadRangeSplit.h). The same threads in the same order.
  std::optional<IndexRange> Split = findIndexRange(
      Order, Idx, [&](Value *V) { return IsPre(V, /*Row=*/true); });
  auto InRegion = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return I && Blocks.contains(I->getParent());
  };
  if (Split && (!InRegion(Split->Cond) ||
                !all_of(Split->XLeaves, [&](const IndexLeaf &Lf) { return InRegion(Lf.Cmp); }) ||
                !all_of(Split->RowLeaves, [&](const IndexLeaf &Lf) { return InRegion(Lf.Cmp); })))
    Split.reset();
  // A guard against the problem size is left to ThreadLoopVersioning (RangeSplitPolicy.h).
  if (Split && isProblemSizeGuard(*Split, Idx)) {
    Split.reset();
    ++SizeGuards;
  }
  if (!Split) {
    ThreadLoopNest Nest = openThreadLoops(B, Fr);
    BasicBlock *Latch = BasicBlock::Create(C, "kp.latch" + Twine(R), E);
    DenseMap<Value *, Value *> None;
    if (!EmitThread(Nest.Dims[0].Counter, Nest.Dims[1].Counter, Nest.Dims[2].Counter, Latch,
                    None))
      return false;
    B.SetInsertPoint(Latch);
    closeThreadLoops(B, Nest);
    B.CreateBr(After);
    return true;
  }
  ++SplitRegions;
  if (const DebugLoc &DL = Split->Branch->getDebugLoc())
    SplitLines.push_back(DL.getLine());
  auto *IdxTy = ArrayType::get(I32, NumSlots);
  struct Level {
    BasicBlock *Header, *Exit;
    PHINode *Counter;
  };
  // Loops as openThreadLoops's (a bound check at the top, the counter stored in the index
  // array), z over y over the parts' loops over x.
  auto Open = [&](Value *From, Value *To, unsigned Slot, const Twine &Name) {
    BasicBlock *PreBB = B.GetInsertBlock();
    Level L{BasicBlock::Create(C, "loop." + Name, E), BasicBlock::Create(C, "done." + Name, E),
            nullptr};
    BasicBlock *Body = BasicBlock::Create(C, "body." + Name, E);
    B.CreateBr(L.Header);
    B.SetInsertPoint(L.Header);
    L.Counter = B.CreatePHI(I32, 2, Name);
    L.Counter->addIncoming(From, PreBB);
    B.CreateCondBr(B.CreateICmpULT(L.Counter, To), Body, L.Exit);
    B.SetInsertPoint(Body);
    B.CreateStore(L.Counter, B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, Slot));
    return L;
  };
  bool RowIsBlock = readsOnlyThreadX(F, Idx); // interleave the parts' loops more
  // Count: the remark's counts, taken in one copy of the rows' code only (see OneRow).
  bool Count = true;
  auto Close = [&](Level &L, bool ThreadLoop) {
    // At most 1024 threads: wraps neither way.
    L.Counter->addIncoming(B.CreateAdd(L.Counter, B.getInt32(1), "", true, true),
                           B.GetInsertBlock());
    Instruction *Back = B.CreateBr(L.Header);
    if (ThreadLoop) {
      markThreadLoop(Back);
      if (RowIsBlock) {
        hintSplitPartInterleave(Back); // ThreadRangeSplit.h
        InterleavedParts += Count;
      }
    }
    B.SetInsertPoint(L.Exit);
  };
  // One row's parts at B, the row's y and z counters YC and ZC.
  auto EmitRow = [&](Value *YC, Value *ZC) -> bool {
  DenseMap<Value *, Value *> RowMap(Pre);
  auto [Lo, Hi] = emitIndexRange(*Split, B, Fr.Begin[0], Fr.End[0], [&](Value *V) {
    return emitRowValue(V, B, RowMap, VMap, Blocks);
  });
  Value *YZ = B.CreateAdd(YC, B.CreateMul(Fr.Ntid[1], ZC));
  Constant *In = ConstantInt::getBool(C, Split->Want), *Out = ConstantInt::getBool(C, !Split->Want);
  DenseMap<Value *, Value *> Inside, Outside{{Split->Cond, Out}};
  for (const IndexLeaf &Lf : Split->XLeaves)
    Inside[Lf.Cmp] = ConstantInt::getBool(C, Lf.Want);
  for (const IndexLeaf &Lf : Split->RowLeaves)
    Inside[Lf.Cmp] = ConstantInt::getBool(C, Lf.Want);
  if (Inside.count(Split->Cond) == 0 && isa<ICmpInst>(Split->Cond))
    Inside[Split->Cond] = In;
  struct Part {
    Value *From, *To;
    const DenseMap<Value *, Value *> *Fixed;
    bool Present;
  };
  SmallVector<Part, 5> Parts{{Fr.Begin[0], Lo, &Outside, hasLowerBound(*Split)}};
  // The interval's loop split once more where a second branch on threadIdx.x changes in it
  // (nestedIndexRange): still the same threads in the same order.
  DenseMap<Value *, Value *> InInside, OutInside;
  if (std::optional<IndexRange> Nested = nestedIndexRange(*Split, Idx, Order, Decided, Inside, IsPre);
      Nested) {
    auto [Lo2, Hi2] = emitIndexRange(*Nested, B, Lo, Hi, [&](Value *V) {
      return emitRowValue(V, B, RowMap, VMap, Blocks);
    });
    InInside = OutInside = Inside;
    OutInside[Nested->Cond] = ConstantInt::getBool(C, !Nested->Want);
    for (const IndexLeaf &Lf : Nested->XLeaves)
      InInside[Lf.Cmp] = ConstantInt::getBool(C, Lf.Want);
    for (const IndexLeaf &Lf : Nested->RowLeaves)
      InInside[Lf.Cmp] = ConstantInt::getBool(C, Lf.Want);
    if (InInside.count(Nested->Cond) == 0 && isa<ICmpInst>(Nested->Cond))
      InInside[Nested->Cond] = ConstantInt::getBool(C, Nested->Want);
    Parts.push_back({Lo, Lo2, &OutInside, hasLowerBound(*Nested)});
    Parts.push_back({Lo2, Hi2, &InInside, true});
    Parts.push_back({Hi2, Hi, &OutInside, hasUpperBound(*Nested)});
    NestedSplits += Count;
    if (const DebugLoc &DL = Nested->Branch->getDebugLoc(); DL && Count)
      SplitLines.push_back(DL.getLine());
  } else {
    Parts.push_back({Lo, Hi, &Inside, true});
  }
  Parts.push_back({Hi, Fr.End[0], &Outside, hasUpperBound(*Split)});
  for (const Part &P : Parts) {
    if (!P.Present)
      continue;
    // Warp by warp, only each warp's first lane's entry of Next is read: a part that every
    // thread leaves one way stores that for the warps starting in it, after its loop.
    std::optional<unsigned> PartExit;
    if (WarpMode && !ExitOnce)
      PartExit = onlyExitOfPart(
          Order,
          [&](Value *Cond) -> ConstantInt * {
            if (Value *K = Decided.lookup(Cond))
              return dyn_cast<ConstantInt>(K);
            return dyn_cast_or_null<ConstantInt>(P.Fixed->lookup(Cond));
          },
          ExitOf);
    ExitPerWarp = PartExit.has_value();
    Level X = Open(P.From, P.To, SlotTid, "x");
    assumeThreadHull(B, X.Counter, Fr.Begin[0], Fr.End[0]); // for ThreadLoopVersioning
    B.CreateStore(B.CreateAdd(X.Counter, B.CreateMul(Fr.Ntid[0], YZ)),
                  B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotLinear));
    BasicBlock *Latch = BasicBlock::Create(C, "kp.latch" + Twine(R), E);
    if (!EmitThread(X.Counter, YC, ZC, Latch, *P.Fixed))
      return false;
    ExitPerWarp = false;
    // x - Bound that cannot wrap (ThreadRangeSplit.h): inside the interval, or above it.
    if (bool Above = &P == &Parts.back(); P.Fixed != &Outside || Above) {
      unsigned N = markIntervalNoWrap(*Split, Above, Order, Idx,
                                      [&](Value *V) { return cloneInThisPart(VMap, V); });
      IntervalNoWrap += Count ? N : 0;
    }
    B.SetInsertPoint(Latch);
    Close(X, true);
    if (PartExit) {
      storeExitPerWarp(B, *PartExit, P.From, P.To, Fr, YZ, Next);
      PerWarpExits += Count; // not again for the one-row copy
    }
  }
  return true;
  };
  // A range of one row (the usual 1D block), decided once per launch (OneRow): the parts
  // also without the loops over y and z around them, whose once-a-round bounds, trip counts
  // and pointers LLVM would otherwise hoist out of those loops and keep (spilled) across
  // them. The same threads in the same order: the loops it leaves out run once.
  BasicBlock *RowBB = nullptr;
  if (OneRow && !Warp &&
      !hasCycle(Roots[R], Blocks, [&](BasicBlock *BB) { return BarrierIdx.count(BB) != 0; })) {
    RowBB = BasicBlock::Create(C, "kp.onerow", E);
    BasicBlock *RowsBB = BasicBlock::Create(C, "kp.rows", E);
    B.CreateCondBr(OneRow, RowBB, RowsBB);
    B.SetInsertPoint(RowsBB);
  }
  Level Z = Open(Fr.Begin[2], Fr.End[2], SlotTid + 2, "z");
  Level Y = Open(Fr.Begin[1], Fr.End[1], SlotTid + 1, "y");
  if (!EmitRow(Y.Counter, Z.Counter))
    return false;
  Close(Y, false);
  Close(Z, false);
  B.CreateBr(After);
  if (!RowBB)
    return true;
  // Its blocks go to the end of the entry (emit): the general copy reads as before.
  BasicBlock *Last = &E->back();
  B.SetInsertPoint(RowBB);
  B.CreateStore(Fr.Begin[2], B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotTid + 2));
  B.CreateStore(Fr.Begin[1], B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotTid + 1));
  Count = false;
  if (!EmitRow(Fr.Begin[1], Fr.Begin[2]))
    return false;
  Count = true;
  B.CreateBr(After);
  OneRowBlocks.push_back(RowBB);
  for (BasicBlock *BB = Last->getNextNode(); BB; BB = BB->getNextNode())
    OneRowBlocks.push_back(BB);
  ++OneRowRegions;
  return true;
  };
  return EmitVariant(DenseMap<Value *, Value *>(), 0);
}

Function *Fission::emit(Function *Body, const std::string &Name) {
  LLVMContext &C = F.getContext();
  IRBuilder<> B(C);
  BlockEntryFrame Fr = beginBlockEntry(Body, &F, Name, B);
  Function *E = Fr.F;
  Threads = B.CreateZExt(B.CreateMul(Fr.Ntid[0], B.CreateMul(Fr.Ntid[1], Fr.Ntid[2])),
                         B.getInt64Ty(), "kp.threads");
  if (readsOnlyThreadX(F, Idx)) // once per launch: the runtime's range is the same for each block
    OneRow = B.CreateAnd(
        B.CreateICmpEQ(B.CreateAdd(Fr.Begin[1], B.getInt32(1)), Fr.End[1]),
        B.CreateICmpEQ(B.CreateAdd(Fr.Begin[2], B.getInt32(1)), Fr.End[2]), "kp.one.row");
  DenseMap<AllocaInst *, AllocaInst *> Home;
  const DataLayout &DL = F.getDataLayout();
  for (Storage &S : Storages) {
    Type *Ty = S.Slot->getAllocatedType();
    if (S.Slot->isArrayAllocation())
      Ty = ArrayType::get(Ty, cast<ConstantInt>(S.Slot->getArraySize())->getZExtValue());
    // Padded as bytes where the alignment asks for more; the slot's users take a pointer.
    if (uint64_t Stride = threadStride(S.Slot, DL); Stride != DL.getTypeAllocSize(Ty))
      Ty = ArrayType::get(B.getInt8Ty(), Stride);
    Value *Count = Threads; // padded where a shuffle reads past the block's end
    if (unsigned Pad = warpSlotPadding(*S.Slot))
      Count = B.CreateAdd(Threads, B.getInt64(Pad));
    AllocaInst *A = B.CreateAlloca(Ty, Count, S.Slot->getName() + ".threads");
    A->setAlignment(std::max(S.Slot->getAlign(), Align(16)));
    Home[S.Slot] = A;
  }
  // Where each thread left its region. All leave the same way; kept per thread anyway, so
  // that the store is an ordinary vectorisable one rather than a value carried out of the
  // thread loop, which stops the vectoriser. Thread 0's says where the block goes next.
  AllocaInst *Next = B.CreateAlloca(B.getInt32Ty(), Threads, "kp.next");
  std::optional<WarpFrame> Warp; // warp rounds: the warp a lane loop runs
  if (WarpMode) { // made here, before the loop over blocks: allocas in a loop grow the stack
    Warp.emplace();
    Warp->Snapshot = B.CreateAlloca(ArrayType::get(B.getInt32Ty(), 32), nullptr, "kp.warp.lanes");
    Warp->Results =
        B.CreateAlloca(ArrayType::get(B.getInt32Ty(), 32), nullptr, "kp.warp.results");
    WarpCount = B.CreateTrunc(
        B.CreateUDiv(B.CreateAdd(Threads, B.getInt64(31)), B.getInt64(32)), B.getInt32Ty(),
        "kp.warps");
  }
  // The run of blocks the range names, one after another, reusing the per-thread arrays:
  // each block starts at region 0. Every entry of Next that is read is written by the block
  // before (each region stores where every thread, or every warp's first lane, goes next),
  // so only thread 0's needs setting here.
  BlockRunLoop Run = openBlockRunLoop(B, Fr);
  B.CreateStore(B.getInt32(0), Next);
  BasicBlock *Dispatch = BasicBlock::Create(C, "kp.dispatch", E);
  BasicBlock *Done = BasicBlock::Create(C, "kp.done", E);
  BlockEntryFrame RegionFr = Fr; // the threads a region's loop runs: the block, or a warp
  BasicBlock *Leave = Done; // where the dispatch goes when no region is next
  Value *Where = Next;      // whose entry of Next the dispatch reads
  // Warp by warp, a region that starts at a block barrier (or the entry) runs once for the
  // whole block at the start of a round, as without warps: each thread stops at a block
  // barrier or at a warp collective, the same in all lanes of a warp, and only then do the
  // warps that stopped at a collective go on, one by one. Each thread still runs in program
  // order, and each warp's lanes all reach a collective before any goes past it.
  SmallVector<bool, 8> WholeBlock(Roots.size(), true);
  SwitchInst *RoundSwitch = nullptr;
  BasicBlock *WarpsStart = nullptr;
  if (WarpMode)
    for (unsigned R = 1; R < Roots.size(); ++R)
      WholeBlock[R] = !WarpSplit[R - 1];
  if (WarpMode) {
    // Rounds: each runs the block from one block barrier to the next (all threads reach the
    // same ones: the uniformity check), first the region after the barrier over the whole
    // block, then warp by warp the regions after warp collectives until every warp waits at
    // the next block barrier (or the end). Warp w is 32 consecutive x of one (y, z) row, as on
    // a GPU when blockDim.x is a multiple of 32 or the block is one row: the runtime calls
    // the entry only then (KP_KERNEL_CPU_BLOCK_WARPS).
    Value *Warps = WarpCount;
    BasicBlock *Round = BasicBlock::Create(C, "kp.round", E);
    BasicBlock *Head = BasicBlock::Create(C, "kp.warp", E);
    BasicBlock *WarpDone = BasicBlock::Create(C, "kp.warp.next", E);
    RoundDone = BasicBlock::Create(C, "kp.round.done", E);
    WarpsStart = BasicBlock::Create(C, "kp.warps", E);
    B.CreateBr(Round);
    B.SetInsertPoint(Round);
    // Every thread stopped at the same block barrier: thread 0's entry says which.
    RoundSwitch = B.CreateSwitch(
        B.CreateAnd(B.CreateLoad(B.getInt32Ty(), Next), B.getInt32(~WaitBit)), Done);
    B.SetInsertPoint(WarpsStart);
    B.CreateBr(Head);
    B.SetInsertPoint(Head);
    PHINode *W = B.CreatePHI(B.getInt32Ty(), 2, "kp.w");
    // Rows hold whole warps, or there is one row: warp w's lanes are the linear ids from 32w.
    Value *First32 = B.CreateNUWMul(W, B.getInt32(32));
    Warp->FirstLinear = B.CreateZExt(First32, B.getInt64Ty(), "kp.warp.first");
    Where = B.CreateInBoundsGEP(B.getInt32Ty(), Next, Warp->FirstLinear);
    // A warp waiting at a block barrier (most, in most rounds) is passed over at once.
    BasicBlock *Go = BasicBlock::Create(C, "kp.warp.go", E);
    B.CreateCondBr(B.CreateICmpNE(B.CreateAnd(B.CreateLoad(B.getInt32Ty(), Where),
                                              B.getInt32(WaitBit)),
                                  B.getInt32(0)),
                   WarpDone, Go);
    B.SetInsertPoint(Go);
    WarpStart Start = warpStartOf(B, First32, Fr.Ntid);
    Value *X0 = Start.X, *Y = Start.Y, *Z = Start.Z;
    Warp->Lanes = B.CreateBinaryIntrinsic(
        Intrinsic::umin, B.getInt32(32),
        B.CreateSub(B.CreateTrunc(Threads, B.getInt32Ty()), First32), nullptr, "kp.warp.lanes");
    RegionFr.Begin[0] = X0, RegionFr.Begin[1] = Y, RegionFr.Begin[2] = Z;
    RegionFr.End[0] = B.CreateAdd(X0, Warp->Lanes), RegionFr.End[1] = B.CreateAdd(Y, B.getInt32(1));
    RegionFr.End[2] = B.CreateAdd(Z, B.getInt32(1));
    B.CreateBr(Dispatch);
    B.SetInsertPoint(WarpDone);
    Value *NextW = B.CreateNUWAdd(W, B.getInt32(1));
    B.CreateCondBr(B.CreateICmpULT(NextW, Warps), Head, RoundDone);
    W->addIncoming(B.getInt32(0), WarpsStart);
    W->addIncoming(NextW, WarpDone);
    B.SetInsertPoint(RoundDone);
    Value *Block = B.CreateLoad(B.getInt32Ty(), Next); // thread 0's: where every warp stopped
    B.CreateCondBr(B.CreateICmpEQ(Block, B.getInt32(WaitBit | Roots.size())), Done, Round);
    Leave = WarpDone;
  } else {
    RegionEntries.assign(Roots.size(), nullptr);
    BlockDone = Done;
    B.CreateBr(regionEntry(E, 0)); // region 0: the dispatch would read the 0 just stored
  }
  B.SetInsertPoint(Done);
  closeBlockRunLoop(B, Run);
  B.CreateRetVoid();
  B.SetInsertPoint(Dispatch);
  SwitchInst *Switch = B.CreateSwitch(B.CreateLoad(B.getInt32Ty(), Where), Leave, Roots.size());
  for (unsigned R = 0; R < Roots.size(); ++R) {
    BasicBlock *Pre = WarpMode ? BasicBlock::Create(C, "kp.region" + Twine(R), E)
                               : regionEntry(E, R);
    Pre->moveAfter(&E->back()); // in order, whether or not a region branched to it before
    B.SetInsertPoint(Pre);
    bool Ok;
    if (WholeBlock[R] && WarpMode) {
      RoundSwitch->addCase(B.getInt32(R), Pre);
      Ok = emitRegion(R, Fr, B, Home, Next, WarpsStart, nullptr);
    } else {
      Switch->addCase(B.getInt32(R), Pre);
      Ok = emitRegion(R, RegionFr, B, Home, Next, Dispatch, Warp ? &*Warp : nullptr);
    }
    if (!Ok) {
      E->eraseFromParent();
      return nullptr;
    }
  }
  for (BasicBlock *BB : OneRowBlocks)
    BB->moveAfter(&E->back());
  return E;
}

} // namespace

FissionResult buildBarrierBlockEntry(CpuBlockEntryBuilder &Builder, Function *Body,
                                     const std::string &Name, FunctionAnalysisManager &FAM) {
  FissionResult Res;
  Function *Clone = Builder.indexedBody(Body);
  if (!Clone) {
    Res.WhyNot = "an indirect call or a call the CPU rewrite cannot handle";
    return Res;
  }
  Fission Split(*Clone, FAM);
  if (Split.prepare(Res.WhyNot)) {
    Res.Entry = Split.emit(Body, Name);
    if (!Res.Entry)
      Res.WhyNot = "internal: a region refers to code outside it";
    Res.Regions = Split.regions();
    Res.Warps = Split.warps();
    std::vector<std::string> Parts;
    if (Split.SplitRegions) {
      llvm::sort(Split.SplitLines);
      Split.SplitLines.erase(std::unique(Split.SplitLines.begin(), Split.SplitLines.end()),
                             Split.SplitLines.end());
      std::string Lines;
      for (unsigned L : Split.SplitLines)
        Lines += (Lines.empty() ? " (line " : ", ") + std::to_string(L);
      Parts.push_back(std::to_string(Split.SplitRegions) +
                      " thread loops split where a branch on threadIdx.x changes" + Lines +
                      (Lines.empty() ? "" : ")"));
    }
    // One clause of the remark per count that is not zero.
    auto countPart = [&Parts](unsigned N, const std::string &Text) {
      if (N)
        Parts.push_back(std::to_string(N) + Text);
    };
    countPart(Split.NestedSplits,
              " of them split again inside the interval at a second branch on "
              "threadIdx.x");
    countPart(Split.RecomputedFlags,
              " per-thread flags recomputed after the barrier from the branches that "
              "set them, not saved per thread");
    countPart(Split.SizeGuards,
              " thread loops not split at a branch against the problem size");
    countPart(Split.UniformVariants,
              " uniform branches decided before the thread loops");
    countPart(Split.OnceSaves,
              " stores of uniform values made once per block, not per thread");
    countPart(Split.WarpLoops.Unrolled,
              " loops of warp collectives unrolled (a constant trip count)");
    countPart(Split.WarpLoops.Kept,
              " loops of warp collectives kept (trip count not a small constant)");
    countPart(Split.SharedSaves,
              " values saved at other barriers than another's, in its per-thread array");
    countPart(Split.OperandReloads,
              " values read back from the shuffle they were the operand of, not saved "
              "again");
    countPart(Split.ShufflePaths.InPlace,
              " warp shuffles read the lanes' values in place");
    countPart(Split.ShufflePaths.Snapshot,
              " warp shuffles read a copy of the warp's values (shfl_up, shfl_xor, or "
              "shfl_idx whose mask or lane differs between the lanes)");
    countPart(Split.IntervalNoWrap,
              " subtractions of threadIdx.x minus a bound it is known to reach "
              "taken as no-wrap, in 64 bits");
    countPart(Split.PerWarpExits,
              " parts of split thread loops store where they go once per warp, not per "
              "thread");
    countPart(Split.InterleavedParts,
              " parts of split thread loops interleaved " +
              std::to_string(SplitPartInterleave) +
              "x (the kernel reads no threadIdx.y or .z: a row is the whole block)");
    countPart(Split.OneRowRegions,
              " split thread loops also built without the loops over y and z, for blocks "
              "of one row");
    countPart(Split.DirectExits,
              " regions branch straight to the next, not through the dispatch");
    for (const std::string &P : Parts)
      Res.RegionLoops += (Res.RegionLoops.empty() ? "" : "; ") + P;
  }
  FAM.clear(*Clone, Clone->getName());
  Clone->eraseFromParent();
  for (StringRef StandIn :
       {"kernplug.cpu.block_vote", "kernplug.cpu.warp_vote", "kernplug.cpu.warp_shuffle"})
    if (Function *Fn = Body->getParent()->getFunction(StandIn); Fn && Fn->use_empty())
      Fn->eraseFromParent();
  return Res;
}

} // namespace kernplug

namespace kernplug {

PreservedAnalyses BarrierFissionPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  CpuBlockEntryBuilder Builder(M);
  bool Changed = false;
  for (KernelEntry &K : Kernels) {
    if (K.CpuEntry != CpuEntryKind::Split || K.CpuEntriesBuilt)
      continue;
    Changed = true;
    K.CpuEntriesBuilt = true;
    // Grid-stride loops in rounds (GridStrideRounds.h): the split of a copy of the kernel
    // whose loops vote each round, else of the kernel as it is.
    GridStrideRounds Rounds = gridStrideRoundsBody(*K.Fn, FAM);
    FissionResult R =
        buildBarrierBlockEntry(Builder, Rounds.Body ? Rounds.Body : K.Fn, K.Name, FAM);
    std::string RoundsFailed;
    if (Rounds.Body && !R.Entry) {
      RoundsFailed = R.WhyNot.empty() ? "internal" : R.WhyNot;
      R = buildBarrierBlockEntry(Builder, K.Fn, K.Name, FAM);
    }
    remarkGridStrideRounds(*K.HostFn, K.Name, Rounds, RoundsFailed);
    eraseGridStrideRoundsBody(Rounds, FAM);
    // How the regions' loops run, where that differs from one plain loop over the threads.
    if (R.Entry && !R.RegionLoops.empty())
      remark(*K.HostFn, "BarrierSplitLoops",
             "kernel '" + K.Name + "': " + R.RegionLoops);
    if (R.Entry && R.Warps) {
      K.CpuBlockEntry = R.Entry;
      K.Flags |= KP_KERNEL_CPU_BLOCK_WARPS | KP_KERNEL_CPU_BLOCK_RUNS;
      remark(*K.HostFn, "BarrierSplit",
             "kernel '" + K.Name + "': barriers and warp collectives split into " +
                 std::to_string(R.Regions) +
                 " regions run warp by warp on the CPU (fibers where blockDim.x is not a "
                 "multiple of 32 in a block of more than one row)");
      continue;
    }
    if (R.Entry) {
      K.CpuBlockEntry = R.Entry;
      K.Flags |= KP_KERNEL_CPU_BLOCK_BARRIERS | KP_KERNEL_CPU_BLOCK_RUNS;
      remark(*K.HostFn, "BarrierSplit",
             "kernel '" + K.Name + "': barriers split into " + std::to_string(R.Regions) +
                 " regions on the CPU");
      continue;
    }
    K.CpuEntry = CpuEntryKind::Fibers;
    K.CpuEntryWhy = R.WhyNot;
    remark(*K.HostFn, "BarrierFibers",
           "kernel '" + K.Name + "': barriers kept on fibers on the CPU: " + R.WhyNot);
  }
  if (!Changed)
    return PreservedAnalyses::all();
  writeKernelEntries(M, Kernels);
  return PreservedAnalyses::none();
}

} // namespace kernplug
