//===- DeviceAtomics.cpp - memory orderings NVPTX 19 can select -*- C++ -*-===//
//
// LLVM 19's NVPTX backend selects atomic loads and stores only when relaxed
// (monotonic) and no `fence` at all: C11 atomics, stdatomic.h and
// __sync_synchronize in a kernel crashed clang with "Cannot select". Its
// read-modify-write atomics are PTX `atom`, which is relaxed whatever the IR's
// ordering. The mapping below is the conservative one from the PTX memory
// model: membar (= fence.sc) around relaxed accesses, at system scope, the
// scope of C's atomics (memory may be shared with the host):
//   load acquire                -> ld.relaxed; membar.sys
//   load seq_cst                -> membar.sys; ld.relaxed; membar.sys
//   store release               -> membar.sys; st.relaxed
//   store seq_cst               -> membar.sys; st.relaxed; membar.sys
//   rmw/cmpxchg acquire         -> atom; membar.sys        (release: before,
//                                                           acq_rel/seq_cst: both)
//   fence                       -> membar.sys  (a single-thread/signal fence: nothing)
// kernplug.h's atomic_add & co. are relaxed, as CUDA's atomicAdd, and unchanged.
//
//===----------------------------------------------------------------------===//
#include "device/DeviceAtomics.h"
#include "ClangCompat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {
namespace {

bool isAcquire(AtomicOrdering O) {
  return O == AtomicOrdering::Acquire || O == AtomicOrdering::AcquireRelease ||
         O == AtomicOrdering::SequentiallyConsistent;
}
bool isRelease(AtomicOrdering O) {
  return O == AtomicOrdering::Release || O == AtomicOrdering::AcquireRelease ||
         O == AtomicOrdering::SequentiallyConsistent;
}

/// The ordering of an atomic access, NotAtomic for anything else.
AtomicOrdering orderingOf(const Instruction &I) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getOrdering();
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getOrdering();
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getOrdering();
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getMergedOrdering();
  return AtomicOrdering::NotAtomic;
}

void relaxAtomicAccess(Instruction &I, FunctionCallee Membar) {
  AtomicOrdering O = orderingOf(I);
  bool SeqCst = O == AtomicOrdering::SequentiallyConsistent;
  // A seq_cst load and store also get the fence on their other side, so that they stay
  // ordered with each other (store; load of another address must not be reordered).
  bool Before = isa<LoadInst>(I) ? SeqCst : isRelease(O);
  bool After = isa<StoreInst>(I) ? SeqCst : isAcquire(O);
  if (Before)
    IRBuilder<>(&I).CreateCall(Membar);
  if (After)
    IRBuilder<>(I.getNextNode()).CreateCall(Membar);
  const AtomicOrdering Relaxed = AtomicOrdering::Monotonic;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    LI->setOrdering(Relaxed);
  else if (auto *SI = dyn_cast<StoreInst>(&I))
    SI->setOrdering(Relaxed);
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    RMW->setOrdering(Relaxed);
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    CX->setSuccessOrdering(Relaxed);
    CX->setFailureOrdering(Relaxed);
  }
}

} // namespace

void lowerAtomicOrderings(Module &Dev) {
  SmallVector<Instruction *, 16> Accesses, Fences;
  for (Function &F : Dev)
    for (Instruction &I : instructions(F))
      if (isa<FenceInst>(I))
        Fences.push_back(&I);
      else if (AtomicOrdering O = orderingOf(I); isAcquire(O) || isRelease(O))
        Accesses.push_back(&I);
  if (Accesses.empty() && Fences.empty())
    return;
  FunctionCallee Membar = compat::intrinsic(Dev, Intrinsic::nvvm_membar_sys);
  for (Instruction *I : Accesses)
    relaxAtomicAccess(*I, Membar);
  for (Instruction *I : Fences) {
    if (cast<FenceInst>(I)->getSyncScopeID() != SyncScope::SingleThread)
      IRBuilder<>(I).CreateCall(Membar);
    I->eraseFromParent();
  }
}

PreservedAnalyses LowerDeviceAtomicsPass::run(Module &Dev, ModuleAnalysisManager &) {
  lowerAtomicOrderings(Dev);
  return PreservedAnalyses::none();
}

} // namespace kernplug
