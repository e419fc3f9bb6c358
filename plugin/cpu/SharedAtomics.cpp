//===- SharedAtomics.cpp - kernplug-cpu-shared-atomics ----------*- C++ -*-===//
#include "cpu/SharedAtomics.h"
#include "ClangCompat.h"
#include "Diagnostics.h"
#include "Primitives.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/LowerAtomic.h" // buildAtomicRMWValue

using namespace llvm;

namespace kernplug {

const char *const CpuSharedMD = "kernplug.cpu_shared";
const char *const CpuSharedRMWMD = "kernplug.shared_rmw";

namespace {

/// Whether F is local and its every use is a direct call (no address taken):
/// only then do its call sites say everything its parameters get.
bool onlyCalledDirectly(const Function &F) {
  if (!F.hasLocalLinkage() || F.isDeclaration())
    return false;
  for (const Use &U : F.uses()) {
    const auto *Call = dyn_cast<CallBase>(U.getUser());
    if (!Call || !Call->isCallee(&U) || Call->getFunctionType() != F.getFunctionType())
      return false;
  }
  return true;
}

/// The accesses to a local array (an alloca) whose address never escapes: only
/// they can read or write it. The entries split at barriers keep values that
/// live across a barrier, such as the dynamic shared pointer, in such arrays.
struct LocalSlots {
  bool Escapes = false;
  SmallVector<const LoadInst *, 4> Loads;
  SmallVector<const StoreInst *, 4> Stores;
};

LocalSlots findLocalSlots(const AllocaInst &AI) {
  LocalSlots S;
  SmallVector<const Value *, 8> Work = {&AI};
  while (!Work.empty() && !S.Escapes) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (auto *L = dyn_cast<LoadInst>(Usr))
        S.Loads.push_back(L);
      else if (auto *St = dyn_cast<StoreInst>(Usr); St && St->getPointerOperand() == V)
        S.Stores.push_back(St);
      else if (isa<GetElementPtrInst>(Usr))
        Work.push_back(Usr);
      else if (auto *II = dyn_cast<IntrinsicInst>(Usr); II && II->isLifetimeStartOrEnd())
        continue;
      else
        S.Escapes = true; // stored as a value, passed to a call, compared, ...
    }
  }
  return S;
}

/// The values that provably point into the calling worker's shared memory.
class SharedPointers {
public:
  explicit SharedPointers(Module &M) {
    for (GlobalVariable &GV : M.globals())
      if (GV.getMetadata(CpuSharedMD))
        Roots.push_back(&GV);
    for (Function &F : M)
      if (isPrimitive(&F, PrimitiveClass::DynamicShared))
        for (User *U : F.users())
          if (auto *Call = dyn_cast<CallBase>(U); Call && Call->getCalledFunction() == &F)
            Roots.push_back(Call);
    // Optimistic first, then take back every phi, select or parameter with an input that is
    // not shared, until none is left (each round only shrinks the set).
    while (true) {
      close();
      SmallVector<const Value *, 8> Refuted;
      for (const Value *V : Shared)
        if (!inputsShared(V))
          Refuted.push_back(V);
      if (Refuted.empty())
        break;
      Excluded.insert(Refuted.begin(), Refuted.end());
    }
  }

  bool contains(const Value *V) const { return Shared.contains(V); }
  bool empty() const { return Roots.empty(); }

private:
  /// Shared = what the roots derive, not entering Excluded.
  void close() {
    Shared.clear();
    SmallVector<const Value *, 32> Work(Roots.begin(), Roots.end());
    // (Loads from local arrays are added when a shared pointer is stored into one.)
    Shared.insert(Roots.begin(), Roots.end());
    auto Add = [&](const Value *V) {
      if (!Excluded.contains(V) && Shared.insert(V).second)
        Work.push_back(V);
    };
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const Use &U : V->uses()) {
        const User *Usr = U.getUser();
        if (auto *GEP = dyn_cast<GEPOperator>(Usr)) {
          if (GEP->getPointerOperand() == V)
            Add(GEP);
        } else if (isa<BitCastOperator, AddrSpaceCastOperator>(Usr)) {
          Add(Usr);
        } else if (isa<PHINode>(Usr)) {
          Add(Usr);
        } else if (auto *Sel = dyn_cast<SelectInst>(Usr)) {
          if (Sel->getCondition() != V)
            Add(Sel);
        } else if (auto *II = dyn_cast<IntrinsicInst>(Usr)) {
          if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
            Add(II);
        } else if (auto *St = dyn_cast<StoreInst>(Usr)) {
          // Kept in a local array: what is loaded back is shared if all it holds is.
          auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(St->getPointerOperand()));
          if (St->getValueOperand() == V && AI && !slotsOf(*AI).Escapes)
            for (const LoadInst *L : slotsOf(*AI).Loads)
              if (L->getType()->isPointerTy())
                Add(L);
        } else if (auto *Call = dyn_cast<CallBase>(Usr)) {
          const Function *Callee = Call->getCalledFunction();
          if (Callee && Call->isArgOperand(&U) && onlyCalledDirectly(*Callee) &&
              Call->getArgOperandNo(&U) < Callee->arg_size())
            Add(Callee->getArg(Call->getArgOperandNo(&U)));
        }
      }
    }
  }

  /// Whether every input of V (a phi's incoming values, a select's two values,
  /// every value stored into the local array a load reads, a parameter's
  /// argument at each call) is shared; true for other values.
  bool inputsShared(const Value *V) {
    if (auto *Phi = dyn_cast<PHINode>(V))
      return all_of(Phi->incoming_values(), [&](const Use &In) { return contains(In.get()); });
    if (auto *Sel = dyn_cast<SelectInst>(V))
      return contains(Sel->getTrueValue()) && contains(Sel->getFalseValue());
    if (auto *L = dyn_cast<LoadInst>(V)) {
      auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(L->getPointerOperand()));
      return AI && !slotsOf(*AI).Escapes && all_of(slotsOf(*AI).Stores, [&](const StoreInst *St) {
               return contains(St->getValueOperand());
             });
    }
    if (auto *Arg = dyn_cast<Argument>(V))
      return all_of(Arg->getParent()->uses(), [&](const Use &U) {
        return contains(cast<CallBase>(U.getUser())->getArgOperand(Arg->getArgNo()));
      });
    return true;
  }

  const LocalSlots &slotsOf(const AllocaInst &AI) {
    auto [It, New] = Slots.try_emplace(&AI);
    if (New)
      It->second = findLocalSlots(AI);
    return It->second;
  }

  SmallVector<const Value *, 8> Roots;
  DenseSet<const Value *> Shared, Excluded;
  DenseMap<const AllocaInst *, LocalSlots> Slots;
};

/// The address an atomic accesses (non-volatile ones only), or nullptr.
const Value *atomicAddress(const Instruction &I) {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->isVolatile() ? nullptr : RMW->getPointerOperand();
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->isVolatile() ? nullptr : CX->getPointerOperand();
  if (auto *Call = dyn_cast<CallInst>(&I))
    if (isPrimitive(Call->getCalledFunction(), PrimitiveClass::Atomic) && Call->arg_size() == 2)
      return Call->getArgOperand(0);
  return nullptr;
}

/// atomic_inc_u32 / atomic_dec_u32 (CUDA's wrap-around): LLVM's uinc_wrap and
/// udec_wrap.
std::optional<AtomicRMWInst::BinOp> primitiveOp(const CallInst &Call) {
  StringRef Short = primitiveOf(Call.getCalledFunction())->ShortName;
  if (Short == "atomic_inc_u32")
    return AtomicRMWInst::UIncWrap;
  if (Short == "atomic_dec_u32")
    return AtomicRMWInst::UDecWrap;
  return std::nullopt;
}

/// Replaces an atomic on Ptr with a plain load of the old value and a store of
/// New(old), both tagged !kernplug.shared_rmw, and returns the old value. A
/// loop that waits on such an atomic would never end on the CPU (the thread it
/// waits for runs later); llvm.sideeffect keeps it a loop that hangs, as it did
/// with the atomic, rather than one the optimiser may assume finishes.
Value *loadModifyStore(IRBuilder<> &B, Type *Ty, Value *Ptr, Align A,
                       function_ref<Value *(Value *Old)> New) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(compat::intrinsic(M, Intrinsic::sideeffect));
  MDNode *Tag = MDNode::get(B.getContext(), {});
  LoadInst *Old = B.CreateAlignedLoad(Ty, Ptr, A);
  Old->setMetadata(CpuSharedRMWMD, Tag);
  B.CreateAlignedStore(New(Old), Ptr, A)->setMetadata(CpuSharedRMWMD, Tag);
  return Old;
}

/// I as a plain load, operation and store; false if it stays.
bool relax(Instruction &I) {
  IRBuilder<> B(&I);
  Value *Result;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Result = loadModifyStore(B, RMW->getType(), RMW->getPointerOperand(), RMW->getAlign(),
                             [&](Value *Old) {
                               return buildAtomicRMWValue(RMW->getOperation(), B, Old,
                                                          RMW->getValOperand());
                             });
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Value *Equal = nullptr;
    Value *Old = loadModifyStore(B, CX->getNewValOperand()->getType(), CX->getPointerOperand(),
                                 CX->getAlign(), [&](Value *Old) {
                                   Equal = B.CreateICmpEQ(Old, CX->getCompareOperand());
                                   return B.CreateSelect(Equal, CX->getNewValOperand(), Old);
                                 });
    Result = B.CreateInsertValue(B.CreateInsertValue(PoisonValue::get(CX->getType()), Old, 0),
                                 Equal, 1);
  } else {
    auto *Call = cast<CallInst>(&I);
    std::optional<AtomicRMWInst::BinOp> Op = primitiveOp(*Call);
    Value *Val = Call->getArgOperand(1);
    if (!Op || !Call->getType()->isIntegerTy(32) || Val->getType() != Call->getType())
      return false;
    Result = loadModifyStore(B, Call->getType(), Call->getArgOperand(0), Align(4),
                             [&](Value *Old) { return buildAtomicRMWValue(*Op, B, Old, Val); });
  }
  I.replaceAllUsesWith(Result);
  I.eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses CpuSharedAtomicsPass::run(Module &M, ModuleAnalysisManager &) {
  if (Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all();
  SharedPointers Shared(M);
  if (Shared.empty())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M) {
    SmallVector<Instruction *, 8> Relaxable;
    for (Instruction &I : instructions(F))
      if (const Value *Ptr = atomicAddress(I); Ptr && Shared.contains(Ptr))
        Relaxable.push_back(&I);
    unsigned Relaxed = 0;
    for (Instruction *I : Relaxable)
      Relaxed += relax(*I);
    if (!Relaxed)
      continue;
    Changed = true;
    remark(F, "SharedAtomics",
           Twine(Relaxed) + (Relaxed == 1 ? " atomic" : " atomics") + " on shared memory in '" +
               F.getName() +
               (Relaxed == 1 ? "' is a plain load and store" : "' are plain loads and stores") +
               " on the CPU backend (a block's threads never run at the same time there)");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kernplug
