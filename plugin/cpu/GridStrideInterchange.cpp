//===- GridStrideInterchange.cpp - grid-stride loops outside the thread loop -*- C++ -*-===//
//
// A block-loop entry (CpuBlockEntry.cpp) runs each GPU thread to completion before the
// next. For a grid-stride kernel
//
//   for (int i = grid(1); i < n; i += gridsize(1)) out[i] = x[i] + y[i];
//
// that walks the whole array once per thread, a stride apart: at power-of-two strides all
// of a thread's lines fall into one cache set, and nothing vectorises (19-35x OpenMP). This
// pass builds instead an entry that runs the worker's threads in groups (whole blocks, up
// to 16384 threads) as
//
//   A: for each thread w: its code before the loop; state[w] = the loop's initial values
//   B: for k = 0, 1, ...: for each thread w: i = start(w) + k * step; if i < n, one
//      iteration of w's loop body on state[w]         (until no thread of the group has one)
//   C: for each thread w: its code after the loop, from state[w]
//
// so that the thread loop is innermost: consecutive threads touch consecutive elements, and
// the loop over them vectorises (ThreadLoopVersioning.cpp takes the `i < n` guard out).
//
// Legality. Each GPU thread's own operations stay in program order: A, B in increasing k,
// then C. Only the interleaving of different threads changes, and GPU threads of a kernel
// without barriers or warp collectives have no order between them except through atomics
// with acquire/release semantics, fences and volatile accesses, so any interleaving is one
// a GPU may run. The pass therefore refuses bodies (and the functions they call) with
// fences, atomics stronger than monotonic (CUDA's atomics are relaxed), volatile accesses,
// calls it cannot see into (except math functions and kernplug's atomics), shared memory
// (a group spans blocks, which would share one copy) and local arrays. The code before the
// loop is run again in B and C, so it must be pure: no stores, calls or loads other than the
// thread's indices. Values carried around the loop (a private partial sum) live in per-thread
// arrays; the induction variable is recomputed as start + k * step, which equals the
// original's repeated additions when the entry's run-time check holds for every thread of
// the group: 0 <= start, 0 < step < 2^(w-3), the same step for all, n < 2^(w-3) (w the
// variable's width). Then no value wraps, `i < n` once false stays false, and a thread
// runs exactly its own iterations. Where the check fails (huge n) the group runs through the
// block-loop entry, in the original order. Where start is threadIdx.x (or the linear index)
// plus a per-block value and step and n are per block (the usual grid(1) loop), the check
// runs at each block's first and last thread only (emitPhaseEntry says why that is the
// same): a loop over every thread for it was most of the entry's code to compile. That
// check also counts the rounds k every thread of the group has (start(last) + k * step <
// n in every block: ceil((n - start(last)) / step), the fewest over the blocks); those run
// through a copy of B without the `i < n` test and without asking whether any thread had an
// iteration (seed 004's sum: 3 instructions an element in the vectorised loop, 1 without),
// and B with its test runs from there on, as before.
//
//===----------------------------------------------------------------------===//
#include "cpu/GridStrideInterchange.h"
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Primitives.h"
#include "cpu/CpuBlockEntry.h"
#include "cpu/ThreadLoopVersioning.h"
#include "host/AbiTypes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <algorithm>

using namespace llvm;

namespace kernplug {
namespace {

/// Threads per group: the longer the run of consecutive elements one step of the group
/// touches, the better the prefetchers follow; the per-thread arrays of carried values,
/// [threads x T] on the entry's stack, stay within GroupStateBytes. At least a block.
enum : unsigned {
  MinGroupThreads = 1024,
  MaxGroupThreads = 16384,
  GroupStateBytes = 64 * 1024,
  MaxStates = 8,
  MaxInlinedSize = 4000
};

const char *const NoLoop = "it has no loop";

/// C math functions (and their f/l forms): they touch no memory but errno.
bool isMathFunction(StringRef Name) {
  static const StringSet<> Names = {
      "sin",   "cos",   "tan",   "asin",  "acos",     "atan",      "atan2", "sinh",
      "cosh",  "tanh",  "asinh", "acosh", "atanh",    "exp",       "exp2",  "expm1",
      "log",   "log2",  "log10", "log1p", "pow",      "sqrt",      "cbrt",  "hypot",
      "fabs",  "floor", "ceil",  "round", "trunc",    "rint",      "fmod",  "remainder",
      "fmin",  "fmax",  "fdim",  "fma",   "copysign", "nearbyint", "erf",   "erfc",
      "tgamma", "lgamma", "ldexp", "scalbn", "logb",  "ilogb",     "lround", "llround",
      "lrint", "llrint", "sincos"};
  if (Names.contains(Name))
    return Name != "sincos"; // writes through its pointers: still fine, but keep it simple
  if (Name.ends_with("f") || Name.ends_with("l"))
    return Names.contains(Name.drop_back()) && Name.drop_back() != "sincos";
  return false;
}

bool readsThreadLocal(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    return GV->isThreadLocal();
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    for (const Use &Op : CE->operands())
      if (readsThreadLocal(Op.get(), Seen))
        return true;
  return false;
}

bool strongerThanMonotonic(AtomicOrdering O) {
  return O != AtomicOrdering::NotAtomic && O != AtomicOrdering::Unordered &&
         O != AtomicOrdering::Monotonic;
}

/// Why one instruction orders GPU threads (or touches per-block memory), or "".
std::string whyOrdering(const Instruction &I) {
  if (isa<FenceInst>(I))
    return "it has a fence";
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    if (RMW->isVolatile() || strongerThanMonotonic(RMW->getOrdering()))
      return "it has an atomic stronger than relaxed";
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    if (CX->isVolatile() || strongerThanMonotonic(CX->getSuccessOrdering()) ||
        strongerThanMonotonic(CX->getFailureOrdering()))
      return "it has an atomic stronger than relaxed";
  } else if (auto *L = dyn_cast<LoadInst>(&I)) {
    if (L->isVolatile() || strongerThanMonotonic(L->getOrdering()))
      return "it has a volatile or ordered load";
  } else if (auto *S = dyn_cast<StoreInst>(&I)) {
    if (S->isVolatile() || strongerThanMonotonic(S->getOrdering()))
      return "it has a volatile or ordered store";
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    if (MI->isVolatile())
      return "it has a volatile memory copy";
  }
  SmallPtrSet<const Value *, 8> Seen;
  for (const Use &Op : I.operands())
    if (readsThreadLocal(Op.get(), Seen))
      return "it uses shared memory";
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (Call->isInlineAsm())
      return "it has inline assembly";
    const Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return "it makes an indirect call";
    if (Callee->isIntrinsic())
      return "";
    if (const Primitive *P = primitiveOf(Callee)) {
      if (P->Class == PrimitiveClass::Atomic)
        return "";
      return ("it calls " + P->ShortName + "()").str();
    }
    if (Callee->isDeclaration() && !isMathFunction(Callee->getName()) &&
        !Callee->doesNotAccessMemory())
      return ("it calls " + Callee->getName() + ", which the analysis cannot see into").str();
  }
  return "";
}

/// Why F or a function it calls orders GPU threads, or "".
std::string whyOrderingReached(Function &Root) {
  SetVector<Function *> Reach;
  Reach.insert(&Root);
  for (size_t N = 0; N < Reach.size(); ++N)
    for (Instruction &I : instructions(*Reach[N])) {
      std::string Why = whyOrdering(I);
      if (!Why.empty())
        return Why;
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction(); Callee && !Callee->isDeclaration())
          Reach.insert(Callee);
    }
  return "";
}

/// The shape the interchange needs, in the simplified copy of the body: code before the
/// loop (Before), the loop L with its exit test in the header H, code after it.
struct GridStrideShape {
  Loop *L = nullptr;
  BasicBlock *Pre = nullptr, *H = nullptr, *Latch = nullptr, *Exit = nullptr;
  PHINode *IV = nullptr;
  Value *Start = nullptr, *Step = nullptr, *Bound = nullptr;
  bool Signed = false;
  bool Inclusive = false; // i <= n
  SmallVector<PHINode *, 4> State; // the header's other phis
  unsigned GroupThreads = MinGroupThreads;
  /// The index slot (SlotTid or SlotLinear) whose value t makes start = X + t, with X,
  /// step and n the same for all threads of a block, or -1: then the run-time check may
  /// look at each block's first and last thread only (closedFormSlot).
  int ClosedFormSlot = -1;
};

Value *stripExt(Value *V) {
  while (isa<ZExtInst>(V) || isa<SExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

/// A read of threadIdx.x or of the linear thread index: consecutive threads, consecutive
/// values.
bool isThreadX(Value *V, const Argument *Idx) {
  auto *L = dyn_cast<LoadInst>(stripExt(V));
  if (!L)
    return false;
  const DataLayout &DL = L->getModule()->getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
  const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Off, true);
  return Base == Idx && (Off == SlotTid * 4 || Off == SlotLinear * 4);
}

bool dependsOnThreadX(Value *V, const Argument *Idx, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (isThreadX(I, Idx) || Depth > 8)
    return true; // deep: assume so
  return any_of(I->operands(),
                [&](Value *Op) { return dependsOnThreadX(Op, Idx, Depth + 1); });
}

/// Whether the loop makes consecutive threads start at consecutive elements (start =
/// threadIdx.x + something of the block) with a step that is not a small constant: then
/// the interchanged order walks memory as an OpenMP loop would. A loop over a range of its
/// own per thread (start = thread * 4096, step 1) would go the other way.
std::string whyNotProfitable(const GridStrideShape &S, const Argument *Idx) {
  if (auto *C = dyn_cast<ConstantInt>(S.Step); C && C->getValue().ult(MaxGroupThreads))
    return "its step is a small constant (each thread walks a range of its own)";
  Value *V = stripExt(S.Start);
  if (isThreadX(V, Idx))
    return "";
  if (auto *Add = dyn_cast<BinaryOperator>(V);
      Add && (Add->getOpcode() == Instruction::Add ||
              (Add->getOpcode() == Instruction::Or && cast<PossiblyDisjointInst>(Add)->isDisjoint())))
    for (unsigned Side = 0; Side < 2; ++Side)
      if (isThreadX(Add->getOperand(Side), Idx) &&
          !dependsOnThreadX(Add->getOperand(1 - Side), Idx))
        return "";
  return "consecutive threads do not start at consecutive elements";
}

bool isIdxLoad(const LoadInst &L, const Argument *Idx) {
  return L.isSimple() && getUnderlyingObject(L.getPointerOperand()) == Idx;
}

/// The byte offset in the index array that L reads, or -1.
int64_t idxOffset(const LoadInst &L, const Argument *Idx) {
  const DataLayout &DL = L.getModule()->getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(L.getPointerOperandType()), 0);
  const Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Off, true);
  return Base == Idx && L.isSimple() ? Off.getSExtValue() : -1;
}

/// Whether V is the same for every thread of a block: pure operations on constants, the
/// kernel's parameters and the block's slots of the index array (ctaid, ntid, nctaid). Phis
/// count as not (which way a thread came may depend on the thread).
bool isBlockUniform(Value *V, const Argument *Idx, unsigned Depth = 0) {
  if (isa<Constant>(V))
    return true;
  if (auto *A = dyn_cast<Argument>(V))
    return A != Idx;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 12 || isa<PHINode>(I))
    return false;
  if (auto *L = dyn_cast<LoadInst>(I)) {
    int64_t Off = idxOffset(*L, Idx);
    uint64_t Size = L->getModule()->getDataLayout().getTypeStoreSize(L->getType());
    return Off >= int64_t(SlotCtaid * 4) && uint64_t(Off) + Size <= SlotLinear * 4;
  }
  if (I->mayReadOrWriteMemory() || I->mayHaveSideEffects() ||
      (isa<CallBase>(I) && !isa<IntrinsicInst>(I)))
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return isBlockUniform(Op, Idx, Depth + 1); });
}

/// The slot (SlotTid or SlotLinear) of V if V is a 32-bit read of threadIdx.x or of the
/// linear thread index, possibly extended; else -1.
int threadXSlot(Value *V, const Argument *Idx) {
  auto *L = dyn_cast<LoadInst>(stripExt(V));
  if (!L || !L->getType()->isIntegerTy(32))
    return -1;
  int64_t Off = idxOffset(*L, Idx);
  return Off == SlotTid * 4 ? int(SlotTid) : Off == SlotLinear * 4 ? int(SlotLinear) : -1;
}

/// Whether the run-time check of the loop's range may be done in closed form: start is,
/// up to sign or zero extensions, t or X + t (an add, or an `or` that is disjoint) with t
/// a read of threadIdx.x or of the linear index and X, step and n the same for all threads
/// of a block. Returns t's slot or -1. Then over a block's threads start moves with t, and
/// the entry checks the first and the last thread (emitPhaseEntry, Phase::Check).
int closedFormSlot(const GridStrideShape &S, const Argument *Idx) {
  if (S.IV->getType()->getIntegerBitWidth() > 64 || !isBlockUniform(S.Step, Idx) ||
      !isBlockUniform(S.Bound, Idx))
    return -1;
  Value *V = stripExt(S.Start);
  if (int Slot = threadXSlot(V, Idx); Slot >= 0)
    return Slot;
  auto *Add = dyn_cast<BinaryOperator>(V);
  if (!Add || !(Add->getOpcode() == Instruction::Add ||
                (Add->getOpcode() == Instruction::Or &&
                 cast<PossiblyDisjointInst>(Add)->isDisjoint())))
    return -1;
  for (unsigned Side = 0; Side < 2; ++Side)
    if (int Slot = threadXSlot(Add->getOperand(Side), Idx);
        Slot >= 0 && isBlockUniform(Add->getOperand(1 - Side), Idx))
      return Slot;
  return -1;
}

/// Checks L against the shape; fills S or says why not.
std::string matchShape(Function &F, Loop *L, GridStrideShape &S) {
  BasicBlock *H = L->getHeader();
  S.L = L, S.H = H;
  S.Latch = L->getLoopLatch();
  if (!S.Latch)
    return "its loop has more than one latch";
  if (L->getExitingBlock() != H || !L->getExitBlock())
    return "its loop has exits other than its condition (break or return in the loop)";
  S.Exit = L->getExitBlock();
  for (BasicBlock *P : predecessors(H))
    if (!L->contains(P)) {
      if (S.Pre)
        return "its loop is entered from more than one place";
      S.Pre = P;
    }
  if (!S.Pre)
    return "its loop is not entered";
  if (!S.Exit->getSinglePredecessor())
    return "the code after its loop is also reached from before it";

  // Blocks after the loop: reachable from the exit, outside the loop.
  SmallPtrSet<BasicBlock *, 16> After;
  SmallVector<BasicBlock *, 16> Work{S.Exit};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (L->contains(BB))
      return "the code after its loop leads back into it";
    if (After.insert(BB).second)
      append_range(Work, successors(BB));
  }
  // Blocks before it: the rest, pure, acyclic, leading only to the loop.
  auto *Idx = F.getArg(F.arg_size() - 1);
  for (BasicBlock &BB : F) {
    if (L->contains(&BB) || After.count(&BB))
      continue;
    for (BasicBlock *Succ : successors(&BB))
      if (Succ == H ? &BB != S.Pre : L->contains(Succ) || After.count(Succ))
        return "the code before its loop has other ways out (an early return)";
    for (Instruction &I : BB) {
      // Markers for the optimiser (inlining a helper with restrict parameters adds scope
      // declarations): no effect on what the thread does.
      if (isa<DbgInfoIntrinsic>(I) || isa<NoAliasScopeDeclInst>(I) || isa<AssumeInst>(I))
        continue;
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!isIdxLoad(*Ld, Idx))
          return "the code before its loop reads memory";
        continue;
      }
      if (isa<AllocaInst>(I))
        return "it has a local array";
      if (I.isTerminator()) {
        if (!isa<BranchInst>(I) && !isa<SwitchInst>(I))
          return "the code before its loop does not always reach it";
        continue;
      }
      if (isa<PHINode>(I))
        continue;
      auto *Call = dyn_cast<CallBase>(&I);
      bool PureIntrinsic = Call && isa<IntrinsicInst>(Call) && Call->doesNotAccessMemory() &&
                           !Call->mayHaveSideEffects();
      if (Call && !PureIntrinsic) {
        const Function *Callee = Call->getCalledFunction();
        return ("the code before its loop calls " +
                (Callee ? Callee->getName() : StringRef("through a pointer")))
            .str();
      }
      if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
        return "the code before its loop has side effects";
    }
  }

  // The header: phis, pure instructions, the exit test.
  auto *Br = dyn_cast<BranchInst>(H->getTerminator());
  if (!Br || !Br->isConditional())
    return "its loop condition is not a branch";
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || Cmp->getParent() != H)
    return "its loop condition is not a comparison";
  for (Instruction &I : *H) {
    if (isa<PHINode>(I) || I.isTerminator() || isa<DbgInfoIntrinsic>(I))
      continue;
    if (I.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&I))
      return "its loop condition does more than compare";
    for (User *U : I.users())
      if (!L->contains(cast<Instruction>(U)))
        return "a value of its loop condition is used after the loop";
  }
  bool ContinueOnTrue = L->contains(Br->getSuccessor(0));
  ICmpInst::Predicate Pred =
      ContinueOnTrue ? Cmp->getPredicate() : ICmpInst::getInversePredicate(Cmp->getPredicate());
  for (unsigned Side = 0; Side < 2 && !S.IV; ++Side) {
    Value *V = Cmp->getOperand(Side);
    if (auto *Cast = dyn_cast<CastInst>(V);
        Cast && (isa<SExtInst>(Cast) || isa<ZExtInst>(Cast)) && Cast->getParent() == H)
      V = Cast->getOperand(0);
    auto *Phi = dyn_cast<PHINode>(V);
    if (!Phi || Phi->getParent() != H || !Phi->getType()->isIntegerTy())
      continue;
    auto *Next = dyn_cast<BinaryOperator>(Phi->getIncomingValueForBlock(S.Latch));
    if (!Next || Next->getOpcode() != Instruction::Add)
      continue;
    Value *Step = Next->getOperand(0) == Phi ? Next->getOperand(1)
                  : Next->getOperand(1) == Phi ? Next->getOperand(0)
                                                 : nullptr;
    Value *Bound = Cmp->getOperand(1 - Side);
    if (!Step || !L->isLoopInvariant(Step) || !L->isLoopInvariant(Bound))
      continue;
    S.IV = Phi, S.Step = Step, S.Bound = Bound;
    S.Start = Phi->getIncomingValueForBlock(S.Pre);
    if (Side == 1)
      Pred = ICmpInst::getSwappedPredicate(Pred);
  }
  if (!S.IV)
    return "its loop is not `for (i = start; i < n; i += step)` with n and step fixed";
  if (Pred != ICmpInst::ICMP_SLT && Pred != ICmpInst::ICMP_ULT && Pred != ICmpInst::ICMP_SLE &&
      Pred != ICmpInst::ICMP_ULE)
    return "its loop condition is not i < n or i <= n";
  S.Signed = ICmpInst::isSigned(Pred);
  S.Inclusive = Pred == ICmpInst::ICMP_SLE || Pred == ICmpInst::ICMP_ULE;
  if (S.IV->getType()->getIntegerBitWidth() < 16)
    return "its loop counter is narrower than 16 bits";
  for (User *U : S.IV->users())
    if (!L->contains(cast<Instruction>(U)))
      return "its loop counter is used after the loop";
  for (PHINode &Phi : H->phis())
    if (&Phi != S.IV) {
      if (!Phi.getType()->isFirstClassType() || Phi.getType()->isTokenTy())
        return "a value carried around its loop has no memory form";
      S.State.push_back(&Phi);
    }
  if (S.State.size() > MaxStates)
    return "its loop carries more than 8 values";
  const DataLayout &DL = F.getDataLayout();
  uint64_t Bytes = 0;
  for (PHINode *Phi : S.State)
    Bytes += DL.getTypeAllocSize(Phi->getType());
  S.GroupThreads = Bytes ? unsigned(std::clamp<uint64_t>(GroupStateBytes / Bytes,
                                                         MinGroupThreads, MaxGroupThreads))
                         : MaxGroupThreads;
  std::string Why = whyNotProfitable(S, Idx);
  if (Why.empty())
    S.ClosedFormSlot = closedFormSlot(S, Idx);
  return Why;
}

/// Inlines the calls of F to defined functions, then promotes its locals: the form in which
/// the loop is matched and from which the phases are cloned.
bool simplifyBody(Function &F, FunctionAnalysisManager &FAM) {
  for (unsigned Round = 0; Round < 4; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration() && Callee != &F && !Callee->isVarArg())
          Calls.push_back(Call);
    if (Calls.empty())
      break;
    for (CallBase *Call : Calls) {
      InlineFunctionInfo IFI;
      InlineFunction(*Call, IFI);
    }
    if (F.getInstructionCount() > MaxInlinedSize)
      return false;
  }
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(InstCombinePass()); // the pieces of blockIdx (a struct) SROA leaves
  // gridsize(1) in `i += gridsize(1)` reads the indices in the loop: out with it, so that
  // the step is seen to be fixed.
  FPM.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
  FPM.addPass(EarlyCSEPass());
  FPM.run(F, FAM);
  FAM.invalidate(F, PreservedAnalyses::none());
  return true;
}

/// Init: the initial values and the check, thread by thread. Where the check has a closed
/// form (GridStrideShape::ClosedFormSlot), Check at each block's first and last thread, and
/// InitState (only with carried values) for the initial values. StepAll: a step that every
/// thread of the group has (the Check entry counts such rounds), without the loop's test.
enum class Phase { Init, InitState, Check, Step, StepAll, Finish };

/// A clone of the simplified body for one phase: void(<body's params>, ptr state..., i64 w,
/// i64 k, ptr out). Init stores the loop's initial values into state[w] and the step (0 when
/// the run-time check fails) into *(i64 *)out; InitState only the former, Check only the
/// latter, start (zero-extended) into the i64 after it and, in the next, the first value
/// of i the loop does not run (n, or n + 1 for i <= n; 0 when that is negative); Step runs
/// iteration k of thread w (*(i8 *)out = whether it had one); StepAll runs iteration k of
/// thread w, which the caller knows it has (no test, nothing stored to out); Finish runs the
/// code after the loop from state[w].
Function *clonePhase(Function &Work, const GridStrideShape &S, Phase P, const Twine &Name) {
  LLVMContext &C = Work.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  SmallVector<Type *, 16> Params(Work.getFunctionType()->params());
  unsigned FirstState = Params.size();
  Params.append(S.State.size(), Ptr);
  Params.append({I64, I64, Ptr}); // w in 64 bits: no sign extension per element in the loop
  Function *NF = Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                                  GlobalValue::InternalLinkage, Name, Work.getParent());
  ValueToValueMapTy VMap;
  for (Argument &A : Work.args())
    VMap[&A] = NF->getArg(A.getArgNo());
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(NF, &Work, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  NF->removeFnAttr(Attribute::NoInline);
  NF->addFnAttr(Attribute::AlwaysInline);
  auto Map = [&](Value *V) -> Value * {
    auto It = VMap.find(V);
    return It == VMap.end() ? V : static_cast<Value *>(It->second);
  };
  auto *H = cast<BasicBlock>(Map(S.H)), *Pre = cast<BasicBlock>(Map(S.Pre));
  auto *Latch = cast<BasicBlock>(Map(S.Latch)), *Exit = cast<BasicBlock>(Map(S.Exit));
  auto *IV = cast<PHINode>(Map(S.IV));
  Value *W = NF->getArg(FirstState + S.State.size());
  Value *K = NF->getArg(FirstState + S.State.size() + 1);
  Value *Out = NF->getArg(FirstState + S.State.size() + 2);
  auto Slot = [&](IRBuilder<> &B, unsigned J) {
    return B.CreateInBoundsGEP(S.State[J]->getType(), NF->getArg(FirstState + J), W);
  };
  auto *Phase = BasicBlock::Create(C, "gs.phase", NF);
  Pre->getTerminator()->replaceSuccessorWith(H, Phase);
  IRBuilder<> B(Phase);
  Value *Start = Map(S.Start), *Step = Map(S.Step);

  if (P == Phase::InitState) {
    for (unsigned J = 0; J < S.State.size(); ++J)
      B.CreateStore(cast<PHINode>(Map(S.State[J]))->getIncomingValueForBlock(Pre), Slot(B, J));
    B.CreateRetVoid();
  } else if (P == Phase::Init || P == Phase::Check) {
    if (P == Phase::Init)
      for (unsigned J = 0; J < S.State.size(); ++J)
        B.CreateStore(cast<PHINode>(Map(S.State[J]))->getIncomingValueForBlock(Pre),
                      Slot(B, J));
    auto *Ty = cast<IntegerType>(IV->getType());
    unsigned Width = Ty->getBitWidth();
    Value *Limit = ConstantInt::get(Ty, APInt::getOneBitSet(Width, Width - 3));
    Value *Bound = Map(S.Bound);
    auto *BoundTy = cast<IntegerType>(Bound->getType());
    Value *BoundLimit =
        ConstantInt::get(BoundTy, APInt::getOneBitSet(BoundTy->getBitWidth(), Width - 3));
    Value *Ok = B.CreateAnd(B.CreateICmpULT(Start, Limit), B.CreateICmpULT(Step, Limit));
    Ok = B.CreateAnd(Ok, B.CreateICmpNE(Step, ConstantInt::get(Ty, 0)));
    Ok = B.CreateAnd(Ok, S.Signed ? B.CreateICmpSLT(Bound, BoundLimit)
                                  : B.CreateICmpULT(Bound, BoundLimit));
    B.CreateStore(B.CreateSelect(Ok, B.CreateZExt(Step, I64), B.getInt64(0)), Out);
    if (P == Phase::Check) {
      B.CreateStore(B.CreateZExt(Start, I64), B.CreateConstInBoundsGEP1_32(I64, Out, 1));
      // Where the loop stops, as a non-negative i64 (start and step are non-negative once
      // the check passes): the Check entry counts the rounds every thread runs from it.
      Value *End = B.getInt64(0); // a bound wider than 64 bits: no such rounds are counted
      if (BoundTy->getBitWidth() <= 64) {
        End = S.Signed ? B.CreateSExt(Bound, I64) : B.CreateZExt(Bound, I64);
        if (S.Inclusive) // below 2^(w-3) when the check passes: no wrap
          End = B.CreateAdd(End, B.getInt64(1));
        if (S.Signed)
          End = B.CreateBinaryIntrinsic(Intrinsic::smax, End, B.getInt64(0));
      }
      B.CreateStore(End, B.CreateConstInBoundsGEP1_32(I64, Out, 2));
    }
    B.CreateRetVoid();
  } else if (P == Phase::Step || P == Phase::StepAll) {
    // The run-time check bounds every value below 2^(w-1): no wrap either way.
    Value *KW = B.CreateTrunc(K, IV->getType());
    Value *I = B.CreateAdd(Start, B.CreateMul(KW, Step, "", true, true), "gs.i", true, true);
    SmallVector<Value *, 4> Loaded;
    for (unsigned J = 0; J < S.State.size(); ++J)
      Loaded.push_back(B.CreateLoad(S.State[J]->getType(), Slot(B, J)));
    B.CreateBr(H);
    auto *Next = BasicBlock::Create(C, "gs.next", NF);
    IRBuilder<> BN(Next);
    for (unsigned J = 0; J < S.State.size(); ++J)
      BN.CreateStore(cast<PHINode>(Map(S.State[J]))->getIncomingValueForBlock(Latch),
                     Slot(BN, J));
    BN.CreateStore(BN.getInt8(1), Out);
    BN.CreateRetVoid();
    auto *Done = BasicBlock::Create(C, "gs.done", NF);
    IRBuilder<> BD(Done);
    BD.CreateStore(BD.getInt8(0), Out);
    BD.CreateRetVoid();
    Latch->getTerminator()->replaceSuccessorWith(H, Next);
    H->getTerminator()->replaceSuccessorWith(Exit, Done);
    if (P == Phase::StepAll) {
      // The caller runs this only for rounds k where start + k * step < n in every thread:
      // the loop's test holds, and whether the thread had an iteration is not asked.
      auto *Br = cast<BranchInst>(H->getTerminator());
      BasicBlock *In = Br->getSuccessor(Br->getSuccessor(0) == Done ? 1 : 0);
      BranchInst::Create(In, Br->getIterator());
      Br->eraseFromParent();
      Next->back().getPrevNode()->eraseFromParent(); // the store of 1 to out
    }
    IV->replaceAllUsesWith(I);
    IV->eraseFromParent();
    for (unsigned J = 0; J < S.State.size(); ++J) {
      auto *Phi = cast<PHINode>(Map(S.State[J]));
      Phi->replaceAllUsesWith(Loaded[J]);
      Phi->eraseFromParent();
    }
  } else {
    SmallVector<Value *, 4> Loaded;
    for (unsigned J = 0; J < S.State.size(); ++J)
      Loaded.push_back(B.CreateLoad(S.State[J]->getType(), Slot(B, J)));
    B.CreateBr(Exit);
    for (PHINode &Phi : Exit->phis())
      Phi.replaceIncomingBlockWith(H, Phase);
    H->getTerminator()->eraseFromParent();
    new UnreachableInst(C, H);
    IV->replaceAllUsesWith(PoisonValue::get(IV->getType()));
    IV->eraseFromParent();
    for (unsigned J = 0; J < S.State.size(); ++J) {
      auto *Phi = cast<PHINode>(Map(S.State[J]));
      Phi->replaceAllUsesWith(Loaded[J]);
      Phi->eraseFromParent();
    }
  }
  removeUnreachableBlocks(*NF);
  return NF;
}

/// A block entry for one phase: over the range's blocks and threads (w counting from 0),
/// calls the phase. Init returns whether every thread passed the check with one step, Step
/// whether any thread had an iteration. Check calls its phase at each block's first and
/// last thread only, and returns whether both passed with the group's one step and start
/// moved with t (the value of S.ClosedFormSlot) in between: start(last) - start(first) ==
/// t(last) - t(first), with t(last) < 2^15. That suffices for every thread in between:
/// start is ext(X + t) (closedFormSlot) with X per block, so over t's values, fewer than
/// 2^15 consecutive ones, start - t changes only where X + t wraps or crosses its sign bit,
/// at most once, and by a nonzero amount where that would break the order (a sign
/// extension all the way hides only the -1 to 0 step, which is no break); so start takes
/// every value between start(first) and start(last), all below the check's limit, and step
/// and n, the same for the whole block, pass as they did at the first thread.
Function *emitPhaseEntry(const KernelEntry &K, Function &Work, Function *PhaseFn,
                         const GridStrideShape &S, Phase P, const std::string &Name) {
  LLVMContext &C = Work.getContext();
  Type *Ptr = PointerType::get(C, 0), *I1 = Type::getInt1Ty(C), *I64 = Type::getInt64Ty(C);
  bool Checks = P == Phase::Init || P == Phase::Check,
       Void = P == Phase::Finish || P == Phase::InitState || P == Phase::StepAll;
  SmallVector<Type *, 10> Extra(S.State.size(), Ptr);
  Extra.push_back(I64);
  if (P == Phase::Check)
    Extra.push_back(Ptr); // out: the rounds every thread of the range runs (an i64)
  IRBuilder<> B(C);
  BlockEntryFrame Fr = beginBlockEntry(K.Fn, &Work, Name, B, Extra, Void ? nullptr : I1);
  Function *F = Fr.F;
  F->removeFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::AlwaysInline);
  Value *WSlot = B.CreateAlloca(I64, nullptr, "gs.w");
  B.CreateStore(B.getInt64(0), WSlot);
  Value *Out = B.CreateAlloca(I64, B.getInt32(3), "gs.out");
  Value *AllOk = B.CreateAlloca(I1, nullptr, "gs.ok"), *Min = B.CreateAlloca(I64),
        *Max = B.CreateAlloca(I64);
  B.CreateStore(Checks ? B.getTrue() : B.getFalse(), AllOk);
  B.CreateStore(B.getInt64(~0ull), Min);
  B.CreateStore(B.getInt64(0), Max);
  Value *Rounds = nullptr; // Check: the fewest rounds every thread of a block runs
  if (P == Phase::Check) {
    Rounds = B.CreateAlloca(I64, nullptr, "gs.rounds");
    B.CreateStore(B.getInt64(~0ull), Rounds);
  }
  BlockRunLoop Blocks = openBlockRunLoop(B, Fr);
  // Calls the phase for the thread whose slots the index array holds.
  auto CallPhase = [&] {
    SmallVector<Value *, 16> Args(Fr.Args.begin(), Fr.Args.end());
    Args.push_back(Fr.Idx);
    for (unsigned J = 0; J < S.State.size(); ++J)
      Args.push_back(F->getArg(2 + J));
    Value *W = B.CreateLoad(I64, WSlot);
    Args.push_back(W);
    Args.push_back(F->getArg(2 + S.State.size()));
    Args.push_back(Out);
    CallInst *Call = B.CreateCall(PhaseFn, Args);
    useCalleeABI(PhaseFn, Call);
    B.CreateStore(B.CreateNUWAdd(W, B.getInt64(1)), WSlot); // below 16384
    if (Checks) {
      Value *R = B.CreateLoad(I64, Out);
      B.CreateStore(B.CreateAnd(B.CreateLoad(I1, AllOk), B.CreateICmpNE(R, B.getInt64(0))),
                    AllOk);
      B.CreateStore(B.CreateBinaryIntrinsic(Intrinsic::umin, B.CreateLoad(I64, Min), R), Min);
      B.CreateStore(B.CreateBinaryIntrinsic(Intrinsic::umax, B.CreateLoad(I64, Max), R), Max);
    } else if (P == Phase::Step) {
      Value *R = B.CreateLoad(B.getInt8Ty(), Out);
      B.CreateStore(B.CreateOr(B.CreateLoad(I1, AllOk), B.CreateICmpNE(R, B.getInt8(0))),
                    AllOk);
    }
  };
  if (P == Phase::Check) {
    auto *IdxTy = ArrayType::get(B.getInt32Ty(), NumSlots);
    Value *T[2], *Start[2];
    for (unsigned Last = 0; Last < 2; ++Last) {
      Value *Tid[3];
      for (unsigned D = 0; D < 3; ++D) {
        Tid[D] = Last ? B.CreateSub(Fr.End[D], B.getInt32(1)) : Fr.Begin[D];
        B.CreateStore(Tid[D], B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotTid + D));
      }
      // As openThreadLoops computes it; t in 64 bits (at most 1024 threads a block: the
      // runtime's limit), so that t(last) < 2^15 bounds every thread's t.
      Value *YZ = B.CreateAdd(Tid[1], B.CreateMul(Fr.Ntid[1], Tid[2]));
      Value *Linear = B.CreateAdd(Tid[0], B.CreateMul(Fr.Ntid[0], YZ));
      B.CreateStore(Linear, B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotLinear));
      auto Wide = [&](unsigned D) { return B.CreateZExt(Tid[D], I64); };
      T[Last] = S.ClosedFormSlot == int(SlotTid)
                    ? Wide(0)
                    : B.CreateAdd(Wide(0),
                                  B.CreateMul(B.CreateZExt(Fr.Ntid[0], I64),
                                              B.CreateAdd(Wide(1),
                                                          B.CreateMul(B.CreateZExt(Fr.Ntid[1], I64),
                                                                      Wide(2)))));
      CallPhase();
      Start[Last] = B.CreateLoad(I64, B.CreateConstInBoundsGEP1_32(I64, Out, 1));
    }
    // Every thread of the block has iteration k while start(last) + k * step < end: start
    // is at most start(last) in each (the proof above), and step and end are the block's.
    // That is ceil((end - start(last)) / step) rounds; all below 2^62 once the check passes.
    // Where it fails, the count is not used.
    Value *Step = B.CreateBinaryIntrinsic(Intrinsic::umax, B.CreateLoad(I64, Out),
                                          B.getInt64(1));
    Value *End = B.CreateLoad(I64, B.CreateConstInBoundsGEP1_32(I64, Out, 2));
    Value *Left = B.CreateSub(End, Start[1]);
    Value *K = B.CreateSelect(
        B.CreateICmpUGT(End, Start[1]),
        B.CreateUDiv(B.CreateAdd(Left, B.CreateSub(Step, B.getInt64(1))), Step), B.getInt64(0));
    B.CreateStore(B.CreateBinaryIntrinsic(Intrinsic::umin, B.CreateLoad(I64, Rounds), K),
                  Rounds);
    Value *Ok = B.CreateAnd(B.CreateICmpULT(T[1], B.getInt64(1 << 15)),
                            B.CreateICmpEQ(B.CreateSub(Start[1], Start[0]),
                                           B.CreateSub(T[1], T[0])));
    B.CreateStore(B.CreateAnd(B.CreateLoad(I1, AllOk), Ok), AllOk);
  } else {
    ThreadLoopNest Nest = openThreadLoops(B, Fr);
    CallPhase();
    closeThreadLoops(B, Nest);
  }
  closeBlockRunLoop(B, Blocks);
  if (Rounds)
    B.CreateStore(B.CreateLoad(I64, Rounds), F->getArg(3 + S.State.size()));
  if (Checks)
    B.CreateRet(B.CreateAnd(B.CreateLoad(I1, AllOk),
                            B.CreateICmpEQ(B.CreateLoad(I64, Min), B.CreateLoad(I64, Max))));
  else if (P == Phase::Step)
    B.CreateRet(B.CreateLoad(I1, AllOk));
  else
    B.CreateRetVoid();
  return F;
}

/// The new <k>.kp.cpu_block: the range's blocks in groups of at most S.GroupThreads threads,
/// each through the three phases, or through Fallback (the block-loop entry) when the
/// group fails the run-time check. Init is the Init or the Check phase's entry; InitState,
/// with Check only, stores the initial values of the carried values (null: none). StepAll,
/// with Check only (else null), runs the rounds the Check entry found every thread to have,
/// before Step runs the rest, each testing the loop's condition. Finish is null where the
/// code after the loop has no effect.
Function *emitInterchangedEntry(const KernelEntry &K, const GridStrideShape &S, Function *Init,
                                Function *InitState, Function *Step, Function *StepAll,
                                Function *Finish, Function *Fallback) {
  Module &M = *K.Fn->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false),
                                 GlobalValue::InternalLinkage,
                                 K.Name + ".kp.cpu_block.gridstride", M);
  for (Attribute A : K.Fn->getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      F->addFnAttr(A);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(BlockEntryAttr);
  F->addFnAttr(Attribute::NoInline);
  Value *Args = F->getArg(0), *Range = F->getArg(1);
  Args->setName("args");
  Range->setName("range");
  using R = kp_cpu_thread_range_field;
  StructType *RangeTy = threadRangeType(C);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Loop = BasicBlock::Create(C, "groups", F), *Body = BasicBlock::Create(C, "group", F);
  auto *Ret = BasicBlock::Create(C, "done", F), *Slow = BasicBlock::Create(C, "in_order", F);
  auto *Iter = BasicBlock::Create(C, "strides", F), *Fin = BasicBlock::Create(C, "finish", F);
  auto *Next = BasicBlock::Create(C, "next_group", F);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 8> States;
  // Each round loads the kernel's arrays and stores the carried values at the same pace, 4
  // or 8 bytes a thread: where an array and the state array have the same address modulo
  // 4 KiB, each load waits on the store before it with the same low 12 address bits (4K
  // aliasing: seed 004's sum took 16 ms a call instead of 9 on one thread). Large arrays are
  // page-aligned (mmap, 256-byte device alignment), so each state array starts at 1 KiB plus
  // a quarter KiB per array past a page boundary, away from them and from each other.
  const DataLayout &DL = M.getDataLayout();
  for (unsigned J = 0; J < S.State.size(); ++J) {
    uint64_t Bytes = DL.getTypeAllocSize(S.State[J]->getType()) * S.GroupThreads;
    AllocaInst *Page = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), Bytes + 4096), nullptr,
                                      "gs.state.page");
    Page->setAlignment(Align(4096));
    States.push_back(B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Page, 1024 + 256 * J, "gs.state"));
  }
  Value *Sub = B.CreateAlloca(RangeTy, nullptr, "gs.range");
  Value *AllRounds = StepAll ? B.CreateAlloca(I64, nullptr, "gs.all_rounds") : nullptr;
  Value *Threads = B.getInt32(1);
  for (unsigned D = 0; D < 3; ++D) {
    Value *Begin = B.CreateLoad(I32, threadRangeElement(B, Range, R::begin, D));
    Value *End = B.CreateLoad(I32, threadRangeElement(B, Range, R::end, D));
    B.CreateStore(Begin, threadRangeElement(B, Sub, R::begin, D));
    B.CreateStore(End, threadRangeElement(B, Sub, R::end, D));
    Value *N = B.CreateSelect(B.CreateICmpULT(Begin, End), B.CreateSub(End, Begin), B.getInt32(0));
    Threads = B.CreateMul(Threads, N);
  }
  auto NumBlocksField = [&](Value *Rg) {
    return B.CreateInBoundsGEP(RangeTy, Rg, {B.getInt32(0), B.getInt32(R::num_blocks)});
  };
  Value *NumBlocks = B.CreateLoad(I32, NumBlocksField(Range));
  Value *Empty = B.CreateOr(B.CreateICmpEQ(Threads, B.getInt32(0)),
                            B.CreateICmpEQ(NumBlocks, B.getInt32(0)));
  Value *PerGroup = B.CreateBinaryIntrinsic(
      Intrinsic::umax, B.getInt32(1),
      B.CreateUDiv(B.getInt32(S.GroupThreads),
                   B.CreateBinaryIntrinsic(Intrinsic::umax, Threads, B.getInt32(1))));
  Value *GX = B.CreateZExt(readIndexSlot(B, SlotNctaid), I64);
  Value *GY = B.CreateZExt(readIndexSlot(B, SlotNctaid + 1), I64);
  Value *First[3];
  for (unsigned D = 0; D < 3; ++D)
    First[D] = B.CreateZExt(B.CreateLoad(I32, threadRangeElement(B, Range, R::block, D)), I64);
  Value *Linear0 = B.CreateAdd(First[0], B.CreateMul(GX, B.CreateAdd(First[1],
                                                                     B.CreateMul(GY, First[2]))));
  B.CreateCondBr(Empty, Ret, Loop);

  B.SetInsertPoint(Loop);
  PHINode *Done = B.CreatePHI(I32, 2, "blocks_done");
  Done->addIncoming(B.getInt32(0), Entry);
  B.CreateCondBr(B.CreateICmpULT(Done, NumBlocks), Body, Ret);

  B.SetInsertPoint(Body);
  Value *Count = B.CreateBinaryIntrinsic(Intrinsic::umin, PerGroup, B.CreateSub(NumBlocks, Done));
  Value *Lin = B.CreateAdd(Linear0, B.CreateZExt(Done, I64));
  Value *Q = B.CreateUDiv(Lin, GX);
  Value *Block[3] = {B.CreateURem(Lin, GX), B.CreateURem(Q, GY), B.CreateUDiv(Q, GY)};
  for (unsigned D = 0; D < 3; ++D)
    B.CreateStore(B.CreateTrunc(Block[D], I32), threadRangeElement(B, Sub, R::block, D));
  B.CreateStore(Count, NumBlocksField(Sub));
  SmallVector<Value *, 12> PhaseArgs{Args, Sub};
  append_range(PhaseArgs, States);
  SmallVector<Value *, 12> InitArgs(PhaseArgs.begin(), PhaseArgs.end());
  InitArgs.push_back(B.getInt64(0));
  SmallVector<Value *, 12> CheckArgs(InitArgs.begin(), InitArgs.end());
  if (AllRounds)
    CheckArgs.push_back(AllRounds);
  Value *Ok = B.CreateCall(Init, CheckArgs);
  BasicBlock *Passed = Body;
  if (InitState) {
    Passed = BasicBlock::Create(C, "init_state", F, Iter);
    B.CreateCondBr(Ok, Passed, Slow);
    B.SetInsertPoint(Passed);
    B.CreateCall(InitState, InitArgs);
    B.CreateBr(Iter);
  } else {
    B.CreateCondBr(Ok, Iter, Slow);
  }

  B.SetInsertPoint(Slow);
  B.CreateCall(Fallback, {Args, Sub});
  B.CreateBr(Next);

  Value *FirstTested = B.getInt64(0); // the first round whose condition Step tests
  if (StepAll) {
    // Rounds every thread of the group has: no test, nothing to count.
    auto *AllHead = BasicBlock::Create(C, "all_strides", F, Iter);
    auto *AllBody = BasicBlock::Create(C, "all_stride", F, Iter);
    auto *AllDone = BasicBlock::Create(C, "all_strides_done", F, Iter);
    Iter->replaceAllUsesWith(AllHead); // the branch into the rounds
    B.SetInsertPoint(Passed->getTerminator()); // written by the Check entry, read once
    Value *Rounds = B.CreateLoad(I64, AllRounds, "all_rounds");
    B.SetInsertPoint(AllHead);
    PHINode *KA = B.CreatePHI(I64, 2, "k_all");
    KA->addIncoming(B.getInt64(0), Passed);
    B.CreateCondBr(B.CreateICmpULT(KA, Rounds), AllBody, AllDone);
    B.SetInsertPoint(AllBody);
    SmallVector<Value *, 12> AllArgs(PhaseArgs.begin(), PhaseArgs.end());
    AllArgs.push_back(KA);
    B.CreateCall(StepAll, AllArgs);
    KA->addIncoming(B.CreateAdd(KA, B.getInt64(1), "", true, true), AllBody);
    B.CreateBr(AllHead);
    B.SetInsertPoint(AllDone);
    B.CreateBr(Iter);
    FirstTested = Rounds;
    Passed = AllDone;
  }
  B.SetInsertPoint(Iter);
  PHINode *K64 = B.CreatePHI(I64, 2, "k");
  K64->addIncoming(FirstTested, Passed);
  SmallVector<Value *, 12> StepArgs(PhaseArgs.begin(), PhaseArgs.end());
  StepArgs.push_back(K64);
  Value *Any = B.CreateCall(Step, StepArgs);
  K64->addIncoming(B.CreateAdd(K64, B.getInt64(1), "", true, true), Iter);
  B.CreateCondBr(Any, Iter, Fin);

  B.SetInsertPoint(Fin);
  if (Finish) { // null: the finish phase has no effect (phaseDoesNothing)
    SmallVector<Value *, 12> FinArgs(PhaseArgs.begin(), PhaseArgs.end());
    FinArgs.push_back(B.getInt64(0));
    B.CreateCall(Finish, FinArgs);
  }
  B.CreateBr(Next);

  B.SetInsertPoint(Next);
  Done->addIncoming(B.CreateAdd(Done, Count), Next);
  B.CreateBr(Loop);

  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
  return F;
}

/// Marks the thread loops of PhaseEntry, a phase that runs once or twice a group of blocks
/// (the check, the initial values, the tested step after the untested rounds, the finish),
/// to stay scalar: not vectorised, not unrolled, not versioned by ThreadLoopVersioning. Only
/// the loop that runs every round is worth that code; compiling the others as well cost
/// about a fifth of an interchanged kernel's compile time (issue 15's sixth round). Returns
/// how many loops it marked.
unsigned keepLoopsScalar(Function &PhaseEntry) {
  LLVMContext &C = PhaseEntry.getContext();
  unsigned Marked = 0;
  for (BasicBlock &BB : PhaseEntry) {
    Instruction *Term = BB.getTerminator();
    if (!Term || !Term->getMetadata(LLVMContext::MD_loop))
      continue;
    // A fresh loop ID without ThreadLoopMarker: the versioning pass leaves it alone.
    Metadata *Ops[] = {
        nullptr,
        MDNode::get(C, {MDString::get(C, "llvm.loop.vectorize.enable"),
                        ConstantAsMetadata::get(ConstantInt::getFalse(C))}),
        MDNode::get(C, {MDString::get(C, "llvm.loop.unroll.disable")})};
    MDNode *ID = MDNode::getDistinct(C, Ops);
    ID->replaceOperandWith(0, ID);
    Term->setMetadata(LLVMContext::MD_loop, ID);
    ++Marked;
  }
  return Marked;
}

/// Whether Phase, a phase clone, has no effect: no instruction that writes memory, may
/// throw or may not return, and no cycle (a loop without side effects may still not end).
/// Calling it for every thread then changes nothing, so the phase entry need not be built:
/// a grid-stride loop with no code after it has such a Finish, whose thread loop the
/// optimiser would only delete again (issue 15's seventh round).
bool phaseDoesNothing(Function &Phase) {
  for (Instruction &I : instructions(Phase))
    if (!isa<ReturnInst>(I) && I.mayHaveSideEffects())
      return false;
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
  FindFunctionBackedges(Phase, BackEdges);
  return BackEdges.empty();
}

/// Builds the interchanged entry of K, or says why not.
std::string interchange(KernelEntry &K, FunctionAnalysisManager &FAM, std::string &How) {
  if (K.Fn->hasOptNone())
    return NoLoop; // -O0: nothing is optimised, and nothing said
  Function *Body = bodyCalledBy(*K.CpuBlockEntry);
  if (!Body || !Body->getReturnType()->isVoidTy())
    return "its block entry has no body to analyse";
  ValueToValueMapTy VMap;
  Function *Work = CloneFunction(Body, VMap);
  Work->setName(K.Name + ".kp.gridstride.body");
  auto Fail = [&](const std::string &Why) {
    FAM.clear(*Work, Work->getName());
    Work->eraseFromParent();
    return Why;
  };
  // The index array always exists: its reads may move out of the loop (gridsize(1)).
  unsigned IdxArg = Work->arg_size() - 1;
  Work->addParamAttr(IdxArg, Attribute::getWithDereferenceableBytes(
                                 Work->getContext(), NumSlots * sizeof(uint32_t)));
  Work->addParamAttr(IdxArg, Attribute::getWithAlignment(Work->getContext(), Align(4)));
  if (!simplifyBody(*Work, FAM))
    return Fail("its body is too large once its calls are inlined");
  std::string Why = whyOrderingReached(*Work);
  if (!Why.empty())
    return Fail(Why);
  for (Instruction &I : instructions(*Work))
    if (isa<AllocaInst>(I))
      return Fail("it has a local array");
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(*Work);
  GridStrideShape S;
  Why = NoLoop;
  for (Loop *L : LI) {
    GridStrideShape Try;
    std::string WhyNot = matchShape(*Work, L, Try);
    if (WhyNot.empty()) {
      S = Try, Why.clear();
      break;
    }
    if (Why == NoLoop)
      Why = WhyNot;
  }
  if (!Why.empty())
    return Fail(Why);
  std::string Base = K.Name + ".kp.gridstride";
  // The check at two threads a block where it has a closed form: the thread-by-thread loop
  // that evaluates it otherwise is most of the interchanged entry's code to compile.
  bool Closed = S.ClosedFormSlot >= 0;
  Phase CheckPhase = Closed ? Phase::Check : Phase::Init;
  std::string CheckName = Base + (Closed ? ".check" : ".init");
  Function *CheckFn = clonePhase(*Work, S, CheckPhase, CheckName);
  Function *CheckEntry = emitPhaseEntry(K, *Work, CheckFn, S, CheckPhase, CheckName);
  Function *InitStateEntry = nullptr;
  if (Closed && !S.State.empty()) {
    Function *InitStateFn = clonePhase(*Work, S, Phase::InitState, Base + ".init");
    InitStateEntry = emitPhaseEntry(K, *Work, InitStateFn, S, Phase::InitState, Base + ".init");
  }
  Function *StepFn = clonePhase(*Work, S, Phase::Step, Base + ".step");
  Function *StepAllEntry = nullptr;
  if (Closed) {
    Function *StepAllFn = clonePhase(*Work, S, Phase::StepAll, Base + ".stepall");
    StepAllEntry = emitPhaseEntry(K, *Work, StepAllFn, S, Phase::StepAll, Base + ".stepall");
  }
  Function *FinishFn = clonePhase(*Work, S, Phase::Finish, Base + ".finish");
  Function *StepEntry = emitPhaseEntry(K, *Work, StepFn, S, Phase::Step, Base + ".step");
  Function *FinishEntry = nullptr;
  bool NoFinish = phaseDoesNothing(*FinishFn);
  if (NoFinish)
    FinishFn->eraseFromParent();
  else
    FinishEntry = emitPhaseEntry(K, *Work, FinishFn, S, Phase::Finish, Base + ".finish");
  // The loop that runs every round (the untested step where there is one) is the one to
  // vectorise; the phases that run once or twice a group stay scalar.
  unsigned Scalar = 0;
  for (Function *Edge : {CheckEntry, InitStateEntry, Closed ? StepEntry : nullptr, FinishEntry})
    if (Edge)
      Scalar += keepLoopsScalar(*Edge);
  K.CpuBlockEntry = emitInterchangedEntry(K, S, CheckEntry, InitStateEntry, StepEntry,
                                          StepAllEntry, FinishEntry, K.CpuBlockEntry);
  How = Closed ? "range checked at each block's first and last thread; the rounds every "
                 "thread of a group runs go without the loop's test"
               : "range checked thread by thread: start is not threadIdx.x plus a per-block "
                 "value, or step or n differ between threads";
  if (Scalar)
    How += "; the thread loops run once a group (check, start, last rounds, finish) are "
           "kept scalar";
  if (NoFinish)
    How += "; no finish phase (nothing after the loop has an effect)";
  FAM.clear(*Work, Work->getName());
  Work->eraseFromParent();
  return "";
}

} // namespace

bool simplifyGridStrideBody(Function &F, FunctionAnalysisManager &FAM) {
  return simplifyBody(F, FAM);
}

bool isMathFunctionName(StringRef Name) { return isMathFunction(Name); }

std::string whyThreadsOrdered(Function &F) { return whyOrderingReached(F); }

Function *bodyCalledBy(Function &BlockEntry) {
  for (Instruction &I : instructions(BlockEntry))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction(); Callee && !Callee->isDeclaration())
        return Callee;
  return nullptr;
}


PreservedAnalyses GridStrideInterchangePass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  FunctionAnalysisManager &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (KernelEntry &K : Kernels) {
    if (K.CpuEntry != CpuEntryKind::BlockLoop || !K.CpuBlockEntry)
      continue;
    std::string How;
    std::string Why = interchange(K, FAM, How);
    if (Why.empty()) {
      Changed = true;
      remark(*K.HostFn, "GridStride",
             "kernel '" + K.Name +
                 "': CPU entry = grid-stride loop interchanged (threads innermost), " + How);
    } else if (Why != NoLoop) { // the CpuEntry remark has said it all
      remark(*K.HostFn, "GridStride",
             "kernel '" + K.Name + "': CPU entry = block loop (no grid-stride interchange: " +
                 Why + ")");
    }
  }
  if (!Changed)
    return PreservedAnalyses::all();
  writeKernelEntries(M, Kernels);
  return PreservedAnalyses::none();
}

} // namespace kernplug
