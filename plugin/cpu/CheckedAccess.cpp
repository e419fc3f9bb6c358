//===- CheckedAccess.cpp - kernplug-cpu-checked-access ----------*- C++ -*-===//
//
// Checked per-thread CPU entries for KP_CHECK (CheckedAccess.h).
//
//===----------------------------------------------------------------------===//
#include "cpu/CheckedAccess.h"

#include "DevicePass.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "Primitives.h"

#include "abi/kp_abi.h"
#include "attributes/Attributes.h"
#include "host/AbiTypes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace kernplug {
namespace {

// Inlining stops after this many rounds (recursion) or once the clone is this large: the
// accesses of calls left out are not checked.
constexpr unsigned MaxInlineRounds = 8;
constexpr unsigned MaxCloneInstructions = 100000;

/// Where an address comes from.
struct Root {
  enum KindTy { Unknown, Pending, Param, Shared, DynamicShared } Kind = Unknown;
  unsigned ParamNo = 0;
  GlobalVariable *Array = nullptr;
  bool operator==(const Root &O) const {
    return Kind == O.Kind && ParamNo == O.ParamNo && Array == O.Array;
  }
};

class Instrumenter {
public:
  Instrumenter(Module &M, const KernelEntry &K, const SmallPtrSetImpl<GlobalValue *> &SharedArrays)
      : M(M), K(K), SharedArrays(SharedArrays), DL(M.getDataLayout()) {}

  Function *build();

private:
  Module &M;
  const KernelEntry &K;
  const SmallPtrSetImpl<GlobalValue *> &SharedArrays;
  const DataLayout &DL;
  Function *Clone = nullptr;
  Argument *Bounds = nullptr; // {i64 lo, i64 hi} per parameter
  StringMap<Constant *> Places;
  DenseMap<GlobalVariable *, Constant *> ArrayNames;

  void inlineCalls();
  void promoteLocals();
  Root rootOf(Value *P, SmallPtrSetImpl<Value *> &Seen);
  Constant *placeOf(const Instruction &I);
  bool check(Instruction &At, Value *Ptr, Value *Bytes, bool Write);
  unsigned instrument();
  Function *makeEntry();
};

void Instrumenter::inlineCalls() {
  for (unsigned Round = 0; Round < MaxInlineRounds; ++Round) {
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(*Clone))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *F = CB->getCalledFunction())
          if (!F->isDeclaration() && !F->isIntrinsic() && F != Clone)
            Calls.push_back(CB);
    if (Calls.empty())
      return;
    for (CallBase *CB : Calls) {
      if (Clone->getInstructionCount() > MaxCloneInstructions)
        return;
      InlineFunctionInfo IFI;
      (void)InlineFunction(*CB, IFI); // one that cannot be inlined stays a call, unchecked
    }
  }
}

void Instrumenter::promoteLocals() {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : Clone->getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
  if (Allocas.empty())
    return;
  DominatorTree DT(*Clone);
  PromoteMemToReg(Allocas, DT);
}

Root Instrumenter::rootOf(Value *P, SmallPtrSetImpl<Value *> &Seen) {
  for (;;) {
    if (auto *GEP = dyn_cast<GEPOperator>(P))
      P = GEP->getPointerOperand();
    else if (isa<BitCastOperator>(P) || isa<AddrSpaceCastOperator>(P))
      P = cast<Operator>(P)->getOperand(0);
    else if (auto *II = dyn_cast<IntrinsicInst>(P);
             II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
      P = II->getArgOperand(0);
    else
      break;
  }
  Root R;
  if (auto *A = dyn_cast<Argument>(P)) {
    if (A->getParent() == Clone && A->getArgNo() < K.Params.size() &&
        K.Params[A->getArgNo()].Kind == KP_PARAM_POINTER && !A->hasByValAttr()) {
      R.Kind = Root::Param;
      R.ParamNo = A->getArgNo();
    }
    return R;
  }
  if (auto *G = dyn_cast<GlobalVariable>(P)) {
    if (SharedArrays.count(G)) {
      R.Kind = Root::Shared;
      R.Array = G;
    }
    return R;
  }
  if (auto *CI = dyn_cast<CallInst>(P)) {
    if (isPrimitive(CI->getCalledFunction(), PrimitiveClass::DynamicShared))
      R.Kind = Root::DynamicShared;
    return R;
  }
  if (isa<PHINode>(P) || isa<SelectInst>(P)) {
    if (!Seen.insert(P).second) {
      R.Kind = Root::Pending; // a cycle: decided by the other inputs
      return R;
    }
    Root Joined;
    Joined.Kind = Root::Pending;
    auto *I = cast<Instruction>(P);
    for (unsigned Op = isa<SelectInst>(P) ? 1 : 0; Op < I->getNumOperands(); ++Op) {
      Root In = rootOf(I->getOperand(Op), Seen);
      if (In.Kind == Root::Pending)
        continue;
      if (Joined.Kind == Root::Pending)
        Joined = In;
      else if (!(Joined == In))
        return R;
    }
    return Joined;
  }
  return R;
}

/// "file:line" of I, one private string per place; null without debug info.
Constant *Instrumenter::placeOf(const Instruction &I) {
  PointerType *Ptr = PointerType::get(M.getContext(), 0);
  const DILocation *Loc = I.getDebugLoc().get();
  if (!Loc || !Loc->getLine())
    return ConstantPointerNull::get(Ptr);
  std::string Text = (Loc->getFilename() + ":" + Twine(Loc->getLine())).str();
  Constant *&C = Places[Text];
  if (!C)
    C = IRBuilder<>(M.getContext()).CreateGlobalString(Text, "__kp_check_place", 0, &M);
  return C;
}

bool Instrumenter::check(Instruction &At, Value *Ptr, Value *Bytes, bool Write) {
  SmallPtrSet<Value *, 8> Seen;
  Root R = rootOf(Ptr, Seen);
  if (R.Kind == Root::Unknown || R.Kind == Root::Pending)
    return false;
  LLVMContext &C = M.getContext();
  IRBuilder<> B(&At);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty(), *PtrTy = B.getPtrTy();
  Value *Flags = B.getInt32(Write ? 1 : 0);
  Value *Size = B.CreateZExtOrTrunc(Bytes, I64);
  Constant *Where = placeOf(At);
  Type *Void = Type::getVoidTy(C);
  switch (R.Kind) {
  case Root::Param: {
    // lo <= p && p + bytes <= hi (and no wrap), else the runtime's report, which does not
    // return. The bounds do not change during a launch: invariant loads, hoisted and CSE'd.
    MDNode *Invariant = MDNode::get(C, {});
    Value *Pair = B.CreateConstGEP1_64(I64, Bounds, 2 * R.ParamNo);
    LoadInst *Lo = B.CreateAlignedLoad(I64, Pair, Align(8), "kp.lo");
    LoadInst *Hi =
        B.CreateAlignedLoad(I64, B.CreateConstGEP1_64(I64, Pair, 1), Align(8), "kp.hi");
    Lo->setMetadata(LLVMContext::MD_invariant_load, Invariant);
    Hi->setMetadata(LLVMContext::MD_invariant_load, Invariant);
    Value *Addr = B.CreatePtrToInt(Ptr, I64);
    Value *End = B.CreateAdd(Addr, Size);
    Value *Bad = B.CreateOr(B.CreateOr(B.CreateICmpULT(Addr, Lo), B.CreateICmpUGT(End, Hi)),
                            B.CreateICmpULT(End, Addr), "kp.out_of_bounds");
    MDNode *Unlikely = MDBuilder(C).createBranchWeights(1, 1 << 20);
    Instruction *Then = SplitBlockAndInsertIfThen(Bad, &At, /*Unreachable=*/true, Unlikely);
    IRBuilder<> F(Then);
    F.CreateCall(M.getOrInsertFunction(
                     "__kp_check_param",
                     FunctionType::get(Void, {I32, PtrTy, I64, I32, PtrTy}, false)),
                 {F.getInt32(R.ParamNo), Ptr, Size, Flags, Where});
    break;
  }
  case Root::Shared: {
    Constant *&Name = ArrayNames[R.Array];
    if (!Name)
      Name = B.CreateGlobalString(R.Array->getName(), "__kp_check_array", 0, &M);
    uint64_t ArrayBytes = DL.getTypeAllocSize(R.Array->getValueType());
    B.CreateCall(M.getOrInsertFunction(
                     "__kp_check_shared",
                     FunctionType::get(Void, {PtrTy, I64, PtrTy, PtrTy, I64, I32, PtrTy}, false)),
                 {R.Array, B.getInt64(ArrayBytes), Name, Ptr, Size, Flags, Where});
    break;
  }
  case Root::DynamicShared:
    B.CreateCall(M.getOrInsertFunction(
                     "__kp_check_dynamic_shared",
                     FunctionType::get(Void, {PtrTy, I64, I32, PtrTy}, false)),
                 {Ptr, Size, Flags, Where});
    break;
  default:
    return false;
  }
  return true;
}

unsigned Instrumenter::instrument() {
  struct Access {
    Instruction *At;
    Value *Ptr;
    Value *Bytes;
    bool Write;
  };
  SmallVector<Access, 32> Accesses;
  Type *I64 = Type::getInt64Ty(M.getContext());
  auto Bytes = [&](Type *T) { return ConstantInt::get(I64, DL.getTypeStoreSize(T)); };
  for (Instruction &I : instructions(*Clone)) {
    if (auto *L = dyn_cast<LoadInst>(&I))
      Accesses.push_back({&I, L->getPointerOperand(), Bytes(L->getType()), false});
    else if (auto *S = dyn_cast<StoreInst>(&I))
      Accesses.push_back(
          {&I, S->getPointerOperand(), Bytes(S->getValueOperand()->getType()), true});
    else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      Accesses.push_back({&I, RMW->getPointerOperand(), Bytes(RMW->getType()), true});
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
      Accesses.push_back(
          {&I, CX->getPointerOperand(), Bytes(CX->getNewValOperand()->getType()), true});
    else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      Accesses.push_back({&I, MI->getRawDest(), MI->getLength(), true});
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        Accesses.push_back({&I, MT->getRawSource(), MT->getLength(), false});
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      // atomic_inc/dec_u32: a read-modify-write of the u32 their first argument points at
      if (isPrimitive(CB->getCalledFunction(), PrimitiveClass::Atomic) && CB->arg_size() &&
          CB->getArgOperand(0)->getType()->isPointerTy())
        Accesses.push_back({&I, CB->getArgOperand(0), ConstantInt::get(I64, 4), true});
    }
  }
  unsigned Checked = 0;
  for (const Access &A : Accesses)
    Checked += check(*A.At, A.Ptr, A.Bytes, A.Write);
  return Checked;
}

/// void <k>.kp.cpu_checked(void **args): unpacks args[] as the plain trampoline does
/// (host/HostSide.cpp) and calls the checked clone.
Function *Instrumenter::makeEntry() {
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::get(C, 0);
  Function *E = Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                                 GlobalValue::InternalLinkage, checkedEntryName(K.Name), M);
  E->addFnAttr(Attribute::NoUnwind);
  E->addFnAttr(Attribute::NoInline);
  IRBuilder<> B(BasicBlock::Create(C, "entry", E));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Clone->args()) {
    Value *Slot = B.CreateLoad(Ptr, B.CreateConstGEP1_64(Ptr, E->getArg(0), A.getArgNo()));
    if (&A == Bounds) // args[n]: the bounds array itself
      Args.push_back(Slot);
    else
      Args.push_back(A.hasByValAttr() ? Slot : B.CreateLoad(A.getType(), Slot));
  }
  CallInst *Call = B.CreateCall(Clone, Args);
  useCalleeABI(Clone, Call);
  B.CreateRetVoid();
  return E;
}

Function *Instrumenter::build() {
  // The clone takes one more argument: the launch's {lo, hi} per parameter (the runtime puts
  // it after the arguments in args[]), so that a check is two compares and no call.
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 8> Params(K.Fn->getFunctionType()->params());
  Params.push_back(PointerType::get(C, 0));
  Clone = Function::Create(FunctionType::get(K.Fn->getReturnType(), Params, false),
                           GlobalValue::InternalLinkage, K.Name + ".kp.checked", M);
  ValueToValueMapTy VMap;
  for (Argument &A : K.Fn->args()) {
    VMap[&A] = Clone->getArg(A.getArgNo());
    Clone->getArg(A.getArgNo())->setName(A.getName());
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Clone, K.Fn, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->setVisibility(GlobalValue::DefaultVisibility);
  Clone->setComdat(nullptr);
  Bounds = Clone->getArg(Clone->arg_size() - 1);
  Bounds->setName("kp.bounds");
  for (unsigned I = 0; I + 1 < Clone->arg_size(); ++I)
    Clone->removeParamAttr(I, IndirectArgAttr); // a kernel's: for its stub only
  inlineCalls();
  promoteLocals();
  unsigned Checked = instrument();
  Function *Entry = makeEntry();
  remark(*K.Fn, "CheckedAccess",
         Twine("checked entry: ") + Twine(Checked) + " access" + (Checked == 1 ? "" : "es") +
             " through pointer parameters and shared memory checked (KP_CHECK)");
  return Entry;
}

} // namespace

std::string checkedEntryName(StringRef Kernel) { return (Kernel + ".kp.cpu_checked").str(); }

PreservedAnalyses CpuCheckedAccessPass::run(Module &M, ModuleAnalysisManager &) {
  std::vector<KernelEntry> Kernels = readKernelEntries(M);
  SmallPtrSet<GlobalValue *, 16> SharedArrays;
  for (GlobalValue *GV : annotatedGlobals(M, AnnotShared, /*Remove=*/false))
    SharedArrays.insert(GV);
  bool Changed = false;
  for (const KernelEntry &K : Kernels) {
    if (K.Flags & (KP_KERNEL_VECTORIZE | KP_KERNEL_GUVECTORIZE | KP_KERNEL_REDUCE))
      continue; // the runtime builds generated kernels' arguments
    if (!K.Fn || K.Fn->isDeclaration() || M.getFunction(checkedEntryName(K.Name)))
      continue;
    Instrumenter(M, K, SharedArrays).build();
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void emitCheckedEntryTable(Module &M, ArrayRef<KernelEntry> Kernels,
                           GlobalVariable *KernelTable) {
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::get(C, 0);
  Type *I64 = Type::getInt64Ty(C);
  StructType *RowTy = AbiTypes(C).kp_checked_entry;
  using Row = kp_checked_entry_field;
  std::vector<Constant *> Rows;
  for (size_t I = 0; I < Kernels.size(); ++I)
    if (Function *Entry = M.getFunction(checkedEntryName(Kernels[I].Name))) {
      Constant *Desc = ConstantExpr::getInBoundsGetElementPtr(
          KernelTable->getValueType(), KernelTable,
          ArrayRef<Constant *>{ConstantInt::get(I64, 0), ConstantInt::get(I64, I)});
      Rows.push_back(DescriptorInit<Row>(RowTy).set(Row::kernel, Desc).set(Row::entry, Entry).get());
    }
  if (Rows.empty())
    return;
  auto *Ty = ArrayType::get(RowTy, Rows.size());
  auto *Table = new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage,
                                   ConstantArray::get(Ty, Rows), "__kp_checked_entries");
  auto Emit = [&](StringRef Name, StringRef Callee, bool WithCount) {
    Function *F = Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                                   GlobalValue::InternalLinkage, Name, M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", F));
    SmallVector<Type *, 2> Params{Ptr};
    SmallVector<Value *, 2> Args{Table};
    if (WithCount) {
      Params.push_back(I64);
      Args.push_back(ConstantInt::get(I64, Rows.size()));
    }
    B.CreateCall(M.getOrInsertFunction(Callee,
                                       FunctionType::get(Type::getVoidTy(C), Params, false)),
                 Args);
    B.CreateRetVoid();
    return F;
  };
  appendToGlobalCtors(M, Emit("__kp_register_checked_entries", "__kp_register_checked", true),
                      65535);
  appendToGlobalDtors(
      M, Emit("__kp_unregister_checked_entries", "__kp_unregister_checked", false), 65535);
}

} // namespace kernplug
