//===- CpuBlockEntry.cpp - one CPU call per block, not per thread -*- C++ -*-===//
//
// The CPU backend used to call a kernel's host copy once per GPU thread, through
// a void** trampoline, with every threadIdx/blockIdx read a call into the
// runtime: ~10 ns per thread, 7-10x OpenMP on element-wise kernels. For kernels
// without barriers or warp collectives this builds instead
//
//   void <k>.kp.cpu_block(void **args, const kp_cpu_thread_range *r)
//
// a loop nest over the block's threads (x innermost) around a copy of the body
// that reads the thread indices from the loop variables: every function the
// body reaches that reads an index is cloned with one extra parameter, a
// pointer to the indices ([13 x i32]: tid, ctaid, ntid, nctaid, linear id),
// and its index calls become loads from it. The block entry fills that array
// on its stack, the copy of the body is always-inlined into the loop, and SROA
// turns the loads into the loop variables and block-invariant values: what is
// left is the loop a C programmer would write (the work-item loop of PoCL and
// AdaptiveCpp's CPU back end).
//
//===----------------------------------------------------------------------===//
#include "cpu/CpuBlockEntry.h"
#include "ClangCompat.h"
#include "DevicePass.h"
#include "KernelMetadata.h"
#include "Primitives.h"
#include "cpu/ThreadLoopVersioning.h"
#include "host/AbiTypes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace kernplug {
namespace {

const unsigned LaneSlot = ~0u; // laneid: linear id % 32

/// On a function, its indexed clone: kernplug-cpu-block-entry and kernplug-barrier-fission
/// share the clones of the helpers their kernels reach.
const char *const IndexedCloneMD = "kernplug.indexed_clone";

Function *linkedClone(const Function &F) {
  MDNode *N = F.getMetadata(IndexedCloneMD);
  auto *VAM = N ? dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get()) : nullptr;
  return VAM ? dyn_cast<Function>(VAM->getValue()) : nullptr;
}

/// The index slot a runtime primitive reads, LaneSlot for laneid, or nullopt.
std::optional<unsigned> indexSlot(const Function *F) {
  const Primitive *P = primitiveOf(F);
  if (!P)
    return std::nullopt;
  if (P->Class == PrimitiveClass::LaneId)
    return LaneSlot;
  if (P->Class == PrimitiveClass::Index)
    return P->Slot;
  return std::nullopt;
}

/// A call of the runtime's index primitive Name, which dead-code elimination
/// may drop when the value goes unused.
Value *readIndex(IRBuilder<> &B, StringRef Name) {
  Module &M = *B.GetInsertBlock()->getModule();
  CallInst *Call = B.CreateCall(M.getOrInsertFunction(Name, B.getInt32Ty()));
  Call->setDoesNotAccessMemory();
  Call->setDoesNotThrow();
  Call->addFnAttr(Attribute::WillReturn);
  return Call;
}

/// The defined functions Root reaches through direct calls, Root first; false
/// when one of them makes an indirect call (it could reach index reads we
/// cannot rewrite).
bool directCallClosure(Function *Root, SetVector<Function *> &Out) {
  Out.insert(Root);
  for (size_t I = 0; I < Out.size(); ++I)
    for (BasicBlock &BB : *Out[I])
      for (Instruction &Inst : BB) {
        auto *Call = dyn_cast<CallBase>(&Inst);
        if (!Call || Call->isInlineAsm())
          continue;
        Function *Callee = Call->getCalledFunction();
        if (!Callee)
          return false;
        if (!Callee->isDeclaration())
          Out.insert(Callee);
      }
  return true;
}

} // namespace

Function *CpuBlockEntryBuilder::indexedClone(Function *F) {
  if (Function *NF = linkedClone(*F))
    return NF;
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 8> Params(F->getFunctionType()->params());
  Params.push_back(PointerType::get(C, 0));
  auto *Ty = FunctionType::get(F->getReturnType(), Params, false);
  Function *NF = Function::Create(Ty, GlobalValue::InternalLinkage, F->getName() + ".kp.blk", M);
  ValueToValueMapTy VMap;
  for (Argument &A : F->args())
    VMap[&A] = NF->getArg(A.getArgNo());
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(NF, F, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  NF->setLinkage(GlobalValue::InternalLinkage);
  NF->setVisibility(GlobalValue::DefaultVisibility);
  NF->setComdat(nullptr);
  NF->setMetadata(IndexedCloneMD, nullptr);
  for (unsigned I = 0; I < F->arg_size(); ++I)
    NF->removeParamAttr(I, IndirectArgAttr); // a kernel's: for its stub only
  // An index is constant for one GPU thread, so a helper that reads one may be `const` or
  // `pure`; the loop over a block's threads changes it, and the clone reads it from memory
  // through its new parameter: were it still memory(none), LICM would hoist its calls out
  // of the thread loop and every thread would get thread 0's index.
  MemoryEffects ME = F->getMemoryEffects() | MemoryEffects::argMemOnly(ModRefInfo::Ref);
  NF->removeFnAttr(Attribute::Memory);
  if (ME != MemoryEffects::unknown())
    NF->setMemoryEffects(ME);
  unsigned IdxArg = F->arg_size();
  NF->getArg(IdxArg)->setName("kp.idx");
  NF->addParamAttr(IdxArg, Attribute::NoAlias);
  NF->addParamAttr(IdxArg, Attribute::ReadOnly);
  compat::addNoCapture(*NF, IdxArg);
  F->setMetadata(IndexedCloneMD, MDNode::get(C, ValueAsMetadata::get(NF)));
  Pending.push_back(NF);
  return NF;
}

/// Index reads become loads from the clone's last parameter; calls to other
/// index-reading functions go to their clones, passing it on.
void CpuBlockEntryBuilder::rewriteClone(Function *NF, const SmallPtrSetImpl<Function *> &Reads) {
  LLVMContext &C = M.getContext();
  Argument *Idx = NF->getArg(NF->arg_size() - 1);
  Type *I32 = Type::getInt32Ty(C);
  auto *IdxTy = ArrayType::get(I32, NumSlots);
  for (BasicBlock &BB : *NF)
    for (Instruction &Inst : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallInst>(&Inst);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      IRBuilder<> B(Call);
      if (std::optional<unsigned> Slot = indexSlot(Callee)) {
        auto Load = [&](unsigned S) {
          return B.CreateLoad(I32, B.CreateConstInBoundsGEP2_32(IdxTy, Idx, 0, S));
        };
        Value *V = *Slot == LaneSlot ? B.CreateURem(Load(SlotLinear), B.getInt32(32))
                                     : Load(*Slot);
        Call->replaceAllUsesWith(B.CreateZExtOrTrunc(V, Call->getType()));
        Call->eraseFromParent();
      } else if (Reads.count(Callee)) {
        SmallVector<Value *, 8> Args(Call->args());
        Args.push_back(Idx);
        Function *Target = indexedClone(Callee);
        CallInst *New = B.CreateCall(Target, Args);
        New->setCallingConv(Call->getCallingConv());
        New->setAttributes(Call->getAttributes());
        New->removeFnAttr(Attribute::Memory); // the call site's memory(none): the clone's rule
        New->setTailCallKind(Call->getTailCallKind());
        New->setDebugLoc(Call->getDebugLoc());
        Call->replaceAllUsesWith(New);
        Call->eraseFromParent();
      }
    }
}

/// Whether F calls an index primitive or a function already in Reads.
static bool callsIndexReader(Function &F, const SmallPtrSetImpl<Function *> &Reads,
                             bool &TypeMismatch) {
  for (BasicBlock &BB : F)
    for (Instruction &Inst : BB) {
      auto *Call = dyn_cast<CallBase>(&Inst);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || !(indexSlot(Callee) || Reads.count(Callee)))
        continue;
      // A call whose type is not its callee's (K&R C) cannot simply gain an argument.
      TypeMismatch |= Call->getFunctionType() != Callee->getFunctionType();
      return true;
    }
  return false;
}

Function *CpuBlockEntryBuilder::indexedBody(Function *Body) {
  SetVector<Function *> Reach;
  if (!directCallClosure(Body, Reach))
    return nullptr;
  // The functions that read an index, directly or through a callee.
  SmallPtrSet<Function *, 8> Reads;
  bool TypeMismatch = false;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function *F : Reach)
      if (!Reads.count(F) && callsIndexReader(*F, Reads, TypeMismatch)) {
        Reads.insert(F);
        Changed = true;
      }
  }
  if (TypeMismatch)
    return nullptr;
  for (Function *F : Reads)
    if (F->isVarArg())
      return nullptr;
  Reads.insert(Body); // cloned even when it reads no index, to be inlined into the loop

  Function *BodyClone = indexedClone(Body);
  while (!Pending.empty())
    rewriteClone(Pending.pop_back_val(), Reads);
  // Nothing calls a kernel body; forget it, since the caller may erase it.
  Body->setMetadata(IndexedCloneMD, nullptr);
  return BodyClone;
}

Function *CpuBlockEntryBuilder::build(Function *Body, const std::string &Name) {
  Function *BodyClone = indexedBody(Body);
  if (!BodyClone)
    return nullptr;
  // Inlined into the one loop that calls it, whatever -O level left on the body.
  BodyClone->removeFnAttr(Attribute::NoInline);
  BodyClone->removeFnAttr(Attribute::OptimizeNone);
  BodyClone->addFnAttr(Attribute::AlwaysInline);
  return emitLoop(Body, BodyClone, Name);
}

Value *readIndexSlot(IRBuilder<> &B, unsigned Slot) {
  return readIndex(B, indexPrimitiveName(Slot));
}

BlockEntryFrame beginBlockEntry(Function *Body, Function *BodyClone, const std::string &Name,
                                IRBuilder<> &B, ArrayRef<Type *> ExtraParams, Type *Result) {
  Module &M = *Body->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C);
  auto *IdxTy = ArrayType::get(I32, NumSlots);
  BlockEntryFrame Fr;
  SmallVector<Type *, 8> Params{Ptr, Ptr};
  Params.append(ExtraParams.begin(), ExtraParams.end());
  Function *F = Fr.F =
      Function::Create(FunctionType::get(Result ? Result : Type::getVoidTy(C), Params, false),
                       GlobalValue::InternalLinkage, Name + ".kp.cpu_block", M);
  // Target and frame attributes as the body's, so that inlining it is allowed.
  for (Attribute A : Body->getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      F->addFnAttr(A);
  // probe-stack stays: a block entry runs on a worker's stack, whose guard a large frame
  // must not jump (the body's frame is inlined here).
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(BlockEntryAttr);
  // Kept out of the per-thread entry, which would otherwise get a second copy of the loop.
  F->addFnAttr(Attribute::NoInline);
  F->getArg(0)->setName("args");
  F->getArg(1)->setName("range");

  B.SetInsertPoint(BasicBlock::Create(C, "entry", F));
  Value *Idx = Fr.Idx = B.CreateAlloca(IdxTy, nullptr, "kp.idx");
  auto Slot = [&](unsigned S) { return B.CreateConstInBoundsGEP2_32(IdxTy, Idx, 0, S); };
  for (unsigned S = SlotCtaid; S < SlotLinear; ++S) // ctaid, ntid, nctaid: block-invariant
    B.CreateStore(readIndex(B, indexPrimitiveName(S)), Slot(S));
  for (Argument &A : BodyClone->args()) {
    if (A.getArgNo() + 1 == BodyClone->arg_size())
      break; // the index pointer
    Value *P = B.CreateLoad(Ptr, B.CreateConstGEP1_64(Ptr, F->getArg(0), A.getArgNo()));
    Fr.Args.push_back(A.hasByValAttr() ? P : B.CreateLoad(A.getType(), P));
  }
  for (unsigned D = 0; D < 3; ++D) {
    using R = kp_cpu_thread_range_field;
    Fr.Begin[D] = B.CreateLoad(I32, threadRangeElement(B, F->getArg(1), R::begin, D));
    Fr.End[D] = B.CreateLoad(I32, threadRangeElement(B, F->getArg(1), R::end, D));
    Fr.Ntid[D] = B.CreateLoad(I32, Slot(SlotNtid + D));
  }
  return Fr;
}

// Top-tested loops z > y > x.
ThreadLoopNest openThreadLoops(IRBuilder<> &B, const BlockEntryFrame &Fr) {
  LLVMContext &C = B.getContext();
  auto *IdxTy = ArrayType::get(B.getInt32Ty(), NumSlots);
  ThreadLoopNest Nest;
  for (unsigned D : {2u, 1u, 0u}) {
    BasicBlock *Pre = B.GetInsertBlock();
    std::string Dim(1, char('x' + D));
    ThreadLoopNest::Level &L = Nest.Dims[D];
    L.Header = BasicBlock::Create(C, "loop." + Dim, Fr.F);
    L.Exit = BasicBlock::Create(C, "done." + Dim, Fr.F);
    BasicBlock *Body = BasicBlock::Create(C, "body." + Dim, Fr.F);
    B.CreateBr(L.Header);
    B.SetInsertPoint(L.Header);
    L.Counter = B.CreatePHI(B.getInt32Ty(), 2, Dim);
    L.Counter->addIncoming(Fr.Begin[D], Pre);
    B.CreateCondBr(B.CreateICmpULT(L.Counter, Fr.End[D]), Body, L.Exit);
    B.SetInsertPoint(Body);
    B.CreateStore(L.Counter, B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotTid + D));
  }
  Value *YZ = B.CreateAdd(Nest.Dims[1].Counter, B.CreateMul(Fr.Ntid[1], Nest.Dims[2].Counter));
  Nest.Linear = B.CreateAdd(Nest.Dims[0].Counter, B.CreateMul(Fr.Ntid[0], YZ));
  B.CreateStore(Nest.Linear, B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotLinear));
  return Nest;
}

void closeThreadLoops(IRBuilder<> &B, ThreadLoopNest &Nest) {
  for (unsigned D = 0; D < 3; ++D) {
    ThreadLoopNest::Level &L = Nest.Dims[D];
    // At most 1024 threads: wraps neither way, which lets SCEV see through sign extensions.
    L.Counter->addIncoming(B.CreateAdd(L.Counter, B.getInt32(1), "", /*HasNUW=*/true,
                                       /*HasNSW=*/true),
                           B.GetInsertBlock());
    Instruction *Latch = B.CreateBr(L.Header);
    if (D == 0)
      markThreadLoop(Latch);
    B.SetInsertPoint(L.Exit);
  }
}

BlockRunLoop openBlockRunLoop(IRBuilder<> &B, const BlockEntryFrame &Fr) {
  LLVMContext &C = B.getContext();
  Type *I32 = B.getInt32Ty();
  auto *IdxTy = ArrayType::get(I32, NumSlots);
  using R = kp_cpu_thread_range_field;
  Value *Range = Fr.F->getArg(1);
  Value *First[3];
  for (unsigned D = 0; D < 3; ++D)
    First[D] = B.CreateLoad(I32, threadRangeElement(B, Range, R::block, D));
  Value *Count = B.CreateLoad(
      I32, B.CreateInBoundsGEP(threadRangeType(C), Range, {B.getInt32(0), B.getInt32(R::num_blocks)}));
  BlockRunLoop L;
  for (unsigned D = 0; D < 3; ++D)
    L.Nctaid[D] = B.CreateLoad(I32, B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotNctaid + D));
  BasicBlock *Pre = B.GetInsertBlock();
  L.Header = BasicBlock::Create(C, "blocks", Fr.F);
  L.Exit = BasicBlock::Create(C, "blocks.done", Fr.F);
  BasicBlock *Body = BasicBlock::Create(C, "block", Fr.F);
  B.CreateBr(L.Header);
  B.SetInsertPoint(L.Header);
  L.Counter = B.CreatePHI(I32, 2, "nblock");
  L.Counter->addIncoming(B.getInt32(0), Pre);
  for (unsigned D = 0; D < 3; ++D) {
    L.Ctaid[D] = B.CreatePHI(I32, 2, std::string("ctaid.") + char('x' + D));
    L.Ctaid[D]->addIncoming(First[D], Pre);
  }
  B.CreateCondBr(B.CreateICmpULT(L.Counter, Count), Body, L.Exit);
  B.SetInsertPoint(Body);
  for (unsigned D = 0; D < 3; ++D)
    B.CreateStore(L.Ctaid[D], B.CreateConstInBoundsGEP2_32(IdxTy, Fr.Idx, 0, SlotCtaid + D));
  return L;
}

void closeBlockRunLoop(IRBuilder<> &B, BlockRunLoop &L) {
  // The next block in linear order: x + 1, carrying into y and z at the grid's edges.
  Value *One = B.getInt32(1), *Zero = B.getInt32(0);
  Value *NX = B.CreateAdd(L.Ctaid[0], One);
  Value *WrapX = B.CreateICmpEQ(NX, L.Nctaid[0]);
  Value *NY = B.CreateAdd(L.Ctaid[1], B.CreateZExt(WrapX, B.getInt32Ty()));
  Value *WrapY = B.CreateICmpEQ(NY, L.Nctaid[1]);
  Value *NZ = B.CreateAdd(L.Ctaid[2], B.CreateZExt(WrapY, B.getInt32Ty()));
  BasicBlock *Latch = B.GetInsertBlock();
  L.Ctaid[0]->addIncoming(B.CreateSelect(WrapX, Zero, NX), Latch);
  L.Ctaid[1]->addIncoming(B.CreateSelect(WrapY, Zero, NY), Latch);
  L.Ctaid[2]->addIncoming(NZ, Latch);
  L.Counter->addIncoming(B.CreateAdd(L.Counter, One, "", /*HasNUW=*/true), Latch);
  B.CreateBr(L.Header);
  B.SetInsertPoint(L.Exit);
}

/// The entry itself: unpack args[] once, fill the block-invariant indices,
/// then for each block of the run and z, y, x in the range: store the thread's
/// indices and call the body.
Function *CpuBlockEntryBuilder::emitLoop(Function *Body, Function *BodyClone,
                                         const std::string &Name) {
  IRBuilder<> B(M.getContext());
  BlockEntryFrame Fr = beginBlockEntry(Body, BodyClone, Name, B);
  BlockRunLoop Blocks = openBlockRunLoop(B, Fr);
  ThreadLoopNest Nest = openThreadLoops(B, Fr);
  SmallVector<Value *, 8> Args(Fr.Args);
  Args.push_back(Fr.Idx);
  CallInst *Call = B.CreateCall(BodyClone, Args);
  useCalleeABI(BodyClone, Call);
  closeThreadLoops(B, Nest);
  closeBlockRunLoop(B, Blocks);
  B.CreateRetVoid();
  return Fr.F;
}

Function *CpuBlockEntryBuilder::threadEntry(Function *BlockEntry, const std::string &Name) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                                 GlobalValue::InternalLinkage, Name + ".kp.cpu", M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Range = B.CreateAlloca(threadRangeType(C), nullptr, "kp.range");
  using R = kp_cpu_thread_range_field;
  for (unsigned D = 0; D < 3; ++D) {
    Value *Tid = readIndex(B, indexPrimitiveName(SlotTid + D));
    B.CreateStore(Tid, threadRangeElement(B, Range, R::begin, D));
    B.CreateStore(B.CreateAdd(Tid, B.getInt32(1)), threadRangeElement(B, Range, R::end, D));
    B.CreateStore(readIndex(B, indexPrimitiveName(SlotCtaid + D)),
                  threadRangeElement(B, Range, R::block, D));
  }
  B.CreateStore(B.getInt32(1), B.CreateInBoundsGEP(threadRangeType(C), Range,
                                                   {B.getInt32(0), B.getInt32(R::num_blocks)}));
  B.CreateCall(BlockEntry, {F->getArg(0), Range});
  B.CreateRetVoid();
  return F;
}

} // namespace kernplug

namespace kernplug {

void dropIndexedCloneLinks(Module &M) {
  for (Function &F : M)
    F.setMetadata(IndexedCloneMD, nullptr);
}

PreservedAnalyses CpuBlockEntryPass::run(Module &M, ModuleAnalysisManager &) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  CpuBlockEntryBuilder Builder(M);
  bool Changed = false;
  for (KernelEntry &K : Kernels) {
    if (K.CpuEntry != CpuEntryKind::BlockLoop || K.CpuEntriesBuilt)
      continue;
    K.CpuEntriesBuilt = true;
    K.CpuBlockEntry = Builder.build(K.Fn, K.Name);
    if (K.CpuBlockEntry)
      K.CpuThreadEntry = Builder.threadEntry(K.CpuBlockEntry, K.Name);
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  writeKernelEntries(M, Kernels);
  return PreservedAnalyses::none();
}

} // namespace kernplug
