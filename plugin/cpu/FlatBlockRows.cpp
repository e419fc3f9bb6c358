//===- FlatBlockRows.cpp - a row of blocks as one loop over the global x -*- C++ -*-===//
//
// A block-loop entry (CpuBlockEntry.cpp) runs its run of blocks one after another, each as
// a loop nest over the block's threads. With tiny blocks (PolyBench's 2DCONV launches 4x4)
// the innermost loop has 4 iterations: it neither vectorises nor pays for its own overhead,
// while the OpenMP loop of the same computation walks a whole row. A CUDA programmer
// expects x across the grid to behave as one long loop, and so it does here: for each row
// of consecutive blocks of the run (same blockIdx.y and .z), for each threadIdx.z and .y,
//
//   for (gx = bx0 * bdx; gx < (bx1 + 1) * bdx; ++gx)     // the global x index
//     body(threadIdx.x = gx - bx * bdx, blockIdx.x = bx) // bx steps every bdx iterations
//
// so that the body's blockIdx.x * blockDim.x + threadIdx.x folds into the counter (the
// entry computes threadIdx.x as gx - bx * bdx). That loop is cut into three pieces, the
// row's first block, its middle blocks and its last block, each marked for
// ThreadLoopVersioning: a guard such as `0 < j && j < n - 1` changes only in the blocks at
// the domain's edges, so the middle piece runs guard-free and vectorises.
//
// Legality. Each GPU thread still runs whole, its operations in program order; only which
// thread runs before which changes (threads of neighbouring blocks interleave by rows).
// For a kernel without barriers or warp collectives (the block-loop entry's condition) any
// order of whole threads is an execution a GPU may produce, unless a thread waits for, or
// sees the order of, another: through fences, ordered or volatile accesses, shared memory or
// code the analysis cannot see (whyThreadsOrdered, as for the grid-stride interchange),
// atomic loads, or atomics whose result is used. The pass proves their absence on a copy of
// the body with every call inlined; otherwise, or where the body reads threadIdx.x or
// blockIdx.x otherwise than in blockIdx.x * blockDim.x + threadIdx.x (then bx and the
// thread index stay recurrences of the flat loop, which would not vectorise where the
// block loop might), the block-loop entry stays. A remark says which entry ran and why.
//
//===----------------------------------------------------------------------===//
#include "cpu/FlatBlockRows.h"
#include "cpu/FlatRowsEdgeCut.h"
#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Primitives.h"
#include "cpu/CpuBlockEntry.h"
#include "cpu/GridStrideInterchange.h"
#include "cpu/ThreadLoopVersioning.h"
#include "host/AbiTypes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace kernplug {
namespace {

/// Threads in one flat loop at most: its counter and the row's global x stay far from
/// wrapping in 32 bits.
const uint32_t MaxRowThreads = 1u << 30;

/// The byte offset in the index array Idx that L reads, or -1.
int64_t slotOffset(const LoadInst &L, const Argument *Idx) {
  const DataLayout &DL = L.getModule()->getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(L.getPointerOperandType()), 0);
  const Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Off, true);
  return Base == Idx ? Off.getSExtValue() : -1;
}

bool isSlotLoad(const Value *V, const Argument *Idx, unsigned Slot) {
  auto *L = dyn_cast<LoadInst>(V);
  return L && L->isSimple() && L->getType()->isIntegerTy(32) &&
         slotOffset(*L, Idx) == int64_t(Slot * 4);
}

/// blockIdx.x * blockDim.x
bool isBlockStartX(const Value *V, const Argument *Idx) {
  auto *M = dyn_cast<BinaryOperator>(V);
  if (!M || M->getOpcode() != Instruction::Mul)
    return false;
  for (unsigned Side = 0; Side < 2; ++Side)
    if (isSlotLoad(M->getOperand(Side), Idx, SlotCtaid) &&
        isSlotLoad(M->getOperand(1 - Side), Idx, SlotNtid))
      return true;
  return false;
}

/// blockIdx.x * blockDim.x + threadIdx.x
bool isGlobalX(const Value *V, const Argument *Idx) {
  auto *A = dyn_cast<BinaryOperator>(V);
  if (!A || A->getOpcode() != Instruction::Add)
    return false;
  for (unsigned Side = 0; Side < 2; ++Side)
    if (isSlotLoad(A->getOperand(Side), Idx, SlotTid) &&
        isBlockStartX(A->getOperand(1 - Side), Idx))
      return true;
  return false;
}

bool overlapsSlot(int64_t Off, uint64_t Size, unsigned Slot) {
  return Off < int64_t(Slot * 4 + 4) && Off + int64_t(Size) > int64_t(Slot * 4);
}

/// Why the simplified body reads threadIdx.x or blockIdx.x (through its index array Idx)
/// otherwise than in blockIdx.x * blockDim.x + threadIdx.x, or "".
std::string whyNotGlobalX(const Argument *Idx) {
  const DataLayout &DL = Idx->getParent()->getParent()->getDataLayout();
  SmallVector<const Value *, 8> Work{Idx};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (auto *G = dyn_cast<GetElementPtrInst>(U); G && G->getPointerOperand() == P) {
        Work.push_back(G);
        continue;
      }
      auto *L = dyn_cast<LoadInst>(U);
      if (!L || L->getPointerOperand() != P)
        return "the thread's indices escape the body";
      int64_t Off = slotOffset(*L, Idx);
      if (Off < 0)
        return "it reads the thread's indices at a variable offset";
      uint64_t Size = DL.getTypeStoreSize(L->getType());
      if (overlapsSlot(Off, Size, SlotLinear))
        return "it reads the linear thread index or the lane";
      bool Tid = overlapsSlot(Off, Size, SlotTid), Cta = overlapsSlot(Off, Size, SlotCtaid);
      if (!Tid && !Cta)
        continue;
      const char *Apart = Tid ? "it uses threadIdx.x apart from blockIdx.x * blockDim.x + "
                                "threadIdx.x"
                              : "it uses blockIdx.x apart from blockIdx.x * blockDim.x + "
                                "threadIdx.x";
      if (!isSlotLoad(L, Idx, Tid ? SlotTid : SlotCtaid))
        return Apart;
      for (const User *V : L->users()) {
        bool OK = Tid ? isGlobalX(V, Idx)
                      : isBlockStartX(V, Idx) && all_of(V->users(), [&](const User *W) {
                          return isGlobalX(W, Idx);
                        });
        if (!OK)
          return Apart;
      }
    }
  }
  return "";
}

/// Why a GPU thread of F could see another's progress in a way whyThreadsOrdered allows:
/// an atomic load, or an atomic whose result is used (a thread could wait on it), or "".
std::string whyThreadsObserve(Function &F) {
  for (Instruction &I : instructions(F)) {
    if (auto *L = dyn_cast<LoadInst>(&I); L && L->isAtomic())
      return "it has an atomic load";
    bool Atomic = isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      const Function *Callee = Call->getCalledFunction();
      if (Callee && !Callee->isDeclaration())
        return "it calls " + Callee->getName().str() + ", which could not be inlined";
      if (const Primitive *P = Callee ? primitiveOf(Callee) : nullptr;
          P && P->Class == PrimitiveClass::Atomic)
        Atomic = true;
    }
    if (Atomic && !I.use_empty())
      return "it uses the result of an atomic";
  }
  return "";
}

/// Why the flat rows are not used for K's body (legality first), or "". Edge: the body's
/// problem-size guard, where it has one (FlatRowsEdgeCut.h).
std::string whyNotFlat(Function &Body, FunctionAnalysisManager &FAM,
                       std::optional<EdgeBound> &Edge) {
  ValueToValueMapTy VMap;
  Function *Work = CloneFunction(&Body, VMap);
  Work->setName(Body.getName() + ".kp.flat.body");
  unsigned IdxArg = Work->arg_size() - 1;
  Work->addParamAttr(IdxArg, Attribute::getWithDereferenceableBytes(
                                 Work->getContext(), NumSlots * sizeof(uint32_t)));
  Work->addParamAttr(IdxArg, Attribute::getWithAlignment(Work->getContext(), Align(4)));
  std::string Why;
  if (!simplifyGridStrideBody(*Work, FAM))
    Why = "its body is too large once its calls are inlined";
  if (Why.empty())
    Why = whyThreadsOrdered(*Work);
  if (Why.empty())
    Why = whyThreadsObserve(*Work);
  if (Why.empty())
    Why = whyNotGlobalX(Work->getArg(IdxArg));
  if (Why.empty())
    Edge = findEdgeBound(*Work, Work->getArg(IdxArg), [&](const Value *V) {
      return isGlobalX(V, Work->getArg(IdxArg));
    });
  FAM.clear(*Work, Work->getName());
  Work->eraseFromParent();
  return Why;
}

/// A top-tested loop `for (C = From; C <u To; ++C)` opened at B; B is left in its body.
struct CountedLoop {
  BasicBlock *Header, *Exit;
  PHINode *Counter;
};

CountedLoop openLoop(IRBuilder<> &B, Value *From, Value *To, const Twine &Name) {
  Function *F = B.GetInsertBlock()->getParent();
  LLVMContext &C = F->getContext();
  CountedLoop L;
  BasicBlock *Pre = B.GetInsertBlock();
  L.Header = BasicBlock::Create(C, "loop." + Name, F);
  L.Exit = BasicBlock::Create(C, "done." + Name, F);
  BasicBlock *Body = BasicBlock::Create(C, "body." + Name, F);
  B.CreateBr(L.Header);
  B.SetInsertPoint(L.Header);
  L.Counter = B.CreatePHI(From->getType(), 2, Name);
  L.Counter->addIncoming(From, Pre);
  B.CreateCondBr(B.CreateICmpULT(L.Counter, To), Body, L.Exit);
  B.SetInsertPoint(Body);
  return L;
}

/// Closes L from B's block (counters stay below 2^31: no wrap); returns the latch branch.
Instruction *closeLoop(IRBuilder<> &B, CountedLoop &L) {
  L.Counter->addIncoming(B.CreateAdd(L.Counter, ConstantInt::get(L.Counter->getType(), 1), "",
                                     /*HasNUW=*/true, /*HasNSW=*/true),
                         B.GetInsertBlock());
  Instruction *Latch = B.CreateBr(L.Header);
  B.SetInsertPoint(L.Exit);
  return Latch;
}

/// The fourth piece [Cut, len) of a row, where Edge cuts it (FlatRowsEdgeCut.h); Cut null
/// without one.
struct EdgeCutPieces {
  Value *Cut = nullptr, *CutBX = nullptr;
  bool SkipPast = false; // the threads from the cut on do nothing: no fourth piece
};

/// K = bound - the row's first global x, clamped to [0, Len] (computed in 64 bits), and
/// the block of the row's K-th thread.
EdgeCutPieces edgeCut(IRBuilder<> &B, std::optional<EdgeBound> Edge,
                      const BlockEntryFrame &Fr, Value *GX0, Value *Len, Value *BX) {
  if (!Edge)
    return {};
  Type *I64 = B.getInt64Ty();
  Value *Bound = Fr.Args[Edge->ArgNo];
  if (!Bound->getType()->isIntegerTy() || Bound->getType()->getIntegerBitWidth() > 32)
    return {};
  Value *Bound64 = Edge->Signed ? B.CreateSExt(Bound, I64) : B.CreateZExt(Bound, I64);
  Value *Start64 = Edge->Signed ? B.CreateSExt(GX0, I64) : B.CreateZExt(GX0, I64);
  Value *Len64 = B.CreateZExt(Len, I64);
  Value *K = B.CreateSub(Bound64, Start64);
  K = B.CreateBinaryIntrinsic(Intrinsic::smin, K, Len64);
  K = B.CreateBinaryIntrinsic(Intrinsic::smax, K, B.getInt64(0));
  // Only where the body's 32-bit gx does not wrap within the row (grids of 2^31 threads or
  // more in x): then it is monotone there and K is where the guard stops holding; else no
  // cut (K = Len).
  Value *RowEnd = B.CreateAdd(Start64, Len64);
  Value *NoWrap = B.CreateICmpSLE(RowEnd, B.getInt64(Edge->Signed ? 1ll << 31 : 1ll << 32));
  K = B.CreateSelect(NoWrap, K, Len64);
  EdgeCutPieces EC;
  EC.Cut = B.CreateTrunc(K, B.getInt32Ty(), "edge.cut");
  EC.SkipPast = Edge->PastIsEmpty;
  Value *Bdx = B.CreateBinaryIntrinsic(Intrinsic::umax, Fr.Ntid[0], B.getInt32(1));
  EC.CutBX = B.CreateAdd(BX, B.CreateUDiv(B.CreateAdd(Fr.Begin[0], EC.Cut), Bdx), "edge.ctaid.x");
  return EC;
}

/// Pieces 0-2 end at the cut at the latest; piece 3 runs [cut, len) from the cut's block,
/// unless the threads there do nothing (EC.SkipPast: then there is no piece 3).
/// The same threads in the same increasing order as the three pieces.
void applyEdgeCut(IRBuilder<> &B, const EdgeCutPieces &EC, Value *Piece, Value *&Lo,
                  Value *&Hi, Value *&PieceBX) {
  Value *Below = B.CreateBinaryIntrinsic(
      Intrinsic::umax, Lo, B.CreateBinaryIntrinsic(Intrinsic::umin, Hi, EC.Cut));
  if (EC.SkipPast) {
    Below->setName("piece.hi.cut");
    Hi = Below;
    return;
  }
  Value *IsEdge = B.CreateICmpEQ(Piece, B.getInt32(3));
  Value *RowEnd = Hi; // piece 3's Hi before the cut: the row's length
  Lo = B.CreateSelect(IsEdge, EC.Cut, Lo, "piece.lo.cut");
  Hi = B.CreateSelect(IsEdge, RowEnd, Below, "piece.hi.cut");
  PieceBX = B.CreateSelect(IsEdge, EC.CutBX, PieceBX);
}

/// The flat entry: for each row of consecutive blocks of the run, z, y, then the row's x
/// threads as one loop in three pieces (first block, middle blocks, last block). A range
/// that is not whole blocks in x (the per-thread entry's) runs one block per row.
Function *emitFlatEntry(const KernelEntry &K, Function *BodyClone,
                        std::optional<EdgeBound> SizeGuard) {
  IRBuilder<> B(K.Fn->getContext());
  BlockEntryFrame Fr = beginBlockEntry(K.Fn, BodyClone, K.Name + ".flat", B);
  LLVMContext &C = B.getContext();
  Type *I32 = B.getInt32Ty();
  auto *IdxTy = ArrayType::get(I32, NumSlots);
  auto Slot = [&](unsigned S) { return B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, S); };
  using R = kp_cpu_thread_range_field;
  Value *Range = Fr.F->getArg(1);
  Value *First[3], *Nctaid[3];
  for (unsigned D = 0; D < 3; ++D) {
    First[D] = B.CreateLoad(I32, threadRangeElement(B, Range, R::block, D));
    Nctaid[D] = B.CreateLoad(I32, Slot(SlotNctaid + D));
  }
  Value *Count = B.CreateLoad(I32, B.CreateInBoundsGEP(threadRangeType(C), Range,
                                                       {B.getInt32(0), B.getInt32(R::num_blocks)}));
  Value *Bdx = Fr.Ntid[0];
  Value *WholeX = B.CreateAnd(B.CreateICmpEQ(Fr.Begin[0], B.getInt32(0)),
                              B.CreateICmpEQ(Fr.End[0], Bdx));
  Value *One = B.getInt32(1), *Zero = B.getInt32(0);
  Value *MaxRowBlocks = B.CreateUDiv(B.getInt32(MaxRowThreads),
                                     B.CreateBinaryIntrinsic(Intrinsic::umax, Bdx, One));
  MaxRowBlocks = B.CreateBinaryIntrinsic(Intrinsic::umax, MaxRowBlocks, One);

  // The rows of the run: Done blocks run so far, the row's first block (BX, BY, BZ).
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *RowsH = BasicBlock::Create(C, "rows", Fr.F);
  BasicBlock *RowsExit = BasicBlock::Create(C, "rows.done", Fr.F);
  BasicBlock *RowB = BasicBlock::Create(C, "row", Fr.F);
  B.CreateBr(RowsH);
  B.SetInsertPoint(RowsH);
  PHINode *Done = B.CreatePHI(I32, 2, "done.blocks");
  PHINode *BX = B.CreatePHI(I32, 2, "row.ctaid.x"), *BY = B.CreatePHI(I32, 2, "ctaid.y"),
          *BZ = B.CreatePHI(I32, 2, "ctaid.z");
  Done->addIncoming(Zero, Pre);
  BX->addIncoming(First[0], Pre), BY->addIncoming(First[1], Pre), BZ->addIncoming(First[2], Pre);
  B.CreateCondBr(B.CreateICmpULT(Done, Count), RowB, RowsExit);
  B.SetInsertPoint(RowB);
  Value *RowBlocks = B.CreateBinaryIntrinsic(
      Intrinsic::umin, B.CreateSub(Count, Done),
      B.CreateBinaryIntrinsic(Intrinsic::umin, B.CreateSub(Nctaid[0], BX), MaxRowBlocks));
  RowBlocks = B.CreateSelect(WholeX, RowBlocks, One, "row.blocks");
  B.CreateStore(BY, Slot(SlotCtaid + 1));
  B.CreateStore(BZ, Slot(SlotCtaid + 2));
  // Threads in the row's x loop, and where the middle piece starts and ends.
  Value *Len = B.CreateAdd(B.CreateMul(B.CreateSub(RowBlocks, One), Bdx),
                           B.CreateSub(Fr.End[0], Fr.Begin[0]), "row.len");
  Value *Cut1 = B.CreateBinaryIntrinsic(Intrinsic::umin, Len, Bdx);
  Value *Cut2 = B.CreateSub(
      Len, B.CreateBinaryIntrinsic(Intrinsic::umin, B.CreateSub(Len, Cut1), Bdx));
  Value *GX0 = B.CreateAdd(B.CreateMul(BX, Bdx), Fr.Begin[0], "row.gx");

  // Where the problem-size guard cuts the row (FlatRowsEdgeCut.h).
  EdgeCutPieces EC = edgeCut(B, SizeGuard, Fr, GX0, Len, BX);
  CountedLoop Z = openLoop(B, Fr.Begin[2], Fr.End[2], "z");
  B.CreateStore(Z.Counter, Slot(SlotTid + 2));
  CountedLoop Y = openLoop(B, Fr.Begin[1], Fr.End[1], "y");
  B.CreateStore(Y.Counter, Slot(SlotTid + 1));
  Value *YZ = B.CreateAdd(Y.Counter, B.CreateMul(Fr.Ntid[1], Z.Counter));
  CountedLoop P = openLoop(B, Zero, B.getInt32(EC.Cut && !EC.SkipPast ? 4 : 3), "piece");
  Value *IsFirst = B.CreateICmpEQ(P.Counter, Zero), *IsMiddle = B.CreateICmpEQ(P.Counter, One);
  Value *Lo = B.CreateSelect(IsFirst, Zero, B.CreateSelect(IsMiddle, Cut1, Cut2), "piece.lo");
  Value *Hi = B.CreateSelect(IsFirst, Cut1, B.CreateSelect(IsMiddle, Cut2, Len), "piece.hi");
  // The block of the piece's first thread (a non-empty middle piece starts at the row's
  // second block, a non-empty last piece at its last), and the global x where the next
  // block starts.
  Value *PieceBX = B.CreateSelect(
      IsFirst, BX,
      B.CreateSelect(IsMiddle, B.CreateAdd(BX, One), B.CreateSub(B.CreateAdd(BX, RowBlocks), One)));
  if (EC.Cut)
    applyEdgeCut(B, EC, P.Counter, Lo, Hi, PieceBX);
  Value *PieceEdge = B.CreateMul(B.CreateAdd(PieceBX, One), Bdx);
  BasicBlock *PieceB = B.GetInsertBlock();
  CountedLoop X = openLoop(B, Lo, Hi, "x");
  PHINode *CX = PHINode::Create(I32, 2, "ctaid.x");
  PHINode *Edge = PHINode::Create(I32, 2, "next.block.gx");
  CX->insertBefore(X.Header->getFirstNonPHIIt());
  Edge->insertBefore(X.Header->getFirstNonPHIIt());
  CX->addIncoming(PieceBX, PieceB);
  Edge->addIncoming(PieceEdge, PieceB);
  Value *GX = B.CreateAdd(GX0, X.Counter, "gx");
  // threadIdx.x = gx - blockIdx.x * blockDim.x: the body's blockIdx.x * blockDim.x +
  // threadIdx.x is then gx.
  Value *Tx = B.CreateSub(GX, B.CreateMul(CX, Bdx), "tid.x");
  B.CreateStore(CX, Slot(SlotCtaid));
  B.CreateStore(Tx, Slot(SlotTid));
  B.CreateStore(B.CreateAdd(Tx, B.CreateMul(Bdx, YZ)), Slot(SlotLinear));
  SmallVector<Value *, 8> Args(Fr.Args);
  Args.push_back(Fr.Idx);
  CallInst *Call = B.CreateCall(BodyClone, Args);
  useCalleeABI(BodyClone, Call);
  Value *NextGX = B.CreateAdd(GX, One);
  Value *NewBlock = B.CreateICmpEQ(NextGX, Edge);
  CX->addIncoming(B.CreateAdd(CX, B.CreateZExt(NewBlock, I32)), B.GetInsertBlock());
  Edge->addIncoming(B.CreateSelect(NewBlock, B.CreateAdd(Edge, Bdx), Edge), B.GetInsertBlock());
  markThreadLoop(closeLoop(B, X));
  // Not unrolled: three copies of the body would triple the code to compile.
  Instruction *PieceLatch = closeLoop(B, P);
  MDNode *NoUnroll = MDNode::get(C, {MDString::get(C, "llvm.loop.unroll.disable")});
  MDNode *PieceID = MDNode::getDistinct(C, {nullptr, NoUnroll});
  PieceID->replaceOperandWith(0, PieceID);
  PieceLatch->setMetadata(LLVMContext::MD_loop, PieceID);
  closeLoop(B, Y);
  closeLoop(B, Z);

  // The next row starts after this one, in the grid's linear order.
  BasicBlock *Latch = B.GetInsertBlock();
  Value *NX = B.CreateAdd(BX, RowBlocks);
  Value *WrapX = B.CreateICmpEQ(NX, Nctaid[0]);
  Value *NY = B.CreateAdd(BY, B.CreateZExt(WrapX, I32));
  Value *WrapY = B.CreateICmpEQ(NY, Nctaid[1]);
  Done->addIncoming(B.CreateAdd(Done, RowBlocks), Latch);
  BX->addIncoming(B.CreateSelect(WrapX, Zero, NX), Latch);
  BY->addIncoming(B.CreateSelect(WrapY, Zero, NY), Latch);
  BZ->addIncoming(B.CreateAdd(BZ, B.CreateZExt(WrapY, I32)), Latch);
  B.CreateBr(RowsH);
  B.SetInsertPoint(RowsExit);
  B.CreateRetVoid();
  return Fr.F;
}

} // namespace

PreservedAnalyses CpuFlatBlockRowsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (KernelEntry &K : Kernels) {
    // Only the block-loop entry CpuBlockEntry built (not an interchanged grid-stride one).
    Function *Old = K.CpuBlockEntry;
    if (K.CpuEntry != CpuEntryKind::BlockLoop || !Old ||
        Old->getName() != K.Name + ".kp.cpu_block" || K.Fn->hasOptNone())
      continue;
    Function *Body = bodyCalledBy(*Old);
    if (!Body || !Body->getReturnType()->isVoidTy())
      continue;
    std::optional<EdgeBound> Edge;
    std::string Why = whyNotFlat(*Body, FAM, Edge);
    if (!Why.empty()) {
      remark(*K.HostFn, "FlatBlockRows",
             "kernel '" + K.Name + "': CPU entry = block loop (no flat rows of blocks: " + Why +
                 ")");
      continue;
    }
    Function *Flat = emitFlatEntry(K, Body, Edge);
    // In the old entry's place in the module: the output reads in the same order.
    Flat->removeFromParent();
    M.getFunctionList().insert(Old->getIterator(), Flat);
    // The per-thread entry runs one thread through it as well: the old entry goes.
    Old->replaceAllUsesWith(Flat);
    Flat->takeName(Old);
    Old->eraseFromParent();
    K.CpuBlockEntry = Flat;
    Changed = true;
    remark(*K.HostFn, "FlatBlockRows",
           "kernel '" + K.Name +
               "': CPU entry = flat rows of blocks (consecutive blocks in x run as one loop "
               "over blockIdx.x * blockDim.x + threadIdx.x)" +
               (Edge ? std::string("; its pieces cut where the guard blockIdx.x * blockDim.x + "
                                   "threadIdx.x < (parameter ") +
                           std::to_string(Edge->ArgNo + 1) +
                           ") stops holding: the edge block's threads below the bound run "
                           "the guard-free copy" +
                           (Edge->PastIsEmpty ? std::string("; the threads past it do nothing "
                                                            "and are skipped")
                                              : std::string())
                     : std::string()));
  }
  if (!Changed)
    return PreservedAnalyses::all();
  writeKernelEntries(M, Kernels);
  return PreservedAnalyses::none();
}

} // namespace kernplug
