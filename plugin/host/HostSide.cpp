//===- HostSide.cpp - stubs, trampolines, descriptors -----------*- C++ -*-===//
//
// The IR globals built here are abi/kp_abi.h's descriptors: their types and
// field names come from abi/descriptors.def (host/AbiTypes.h), and each
// initializer is filled by field name.
//
//===----------------------------------------------------------------------===//
#include "DevicePass.h"

#include "cpu/CheckedAccess.h"
#include "cpu/SharedAtomics.h"
#include "cpu/ThreadLoopVersioning.h"
#include "generated/CpuRangeEntry.h"
#include "host/AbiTypes.h"
#include "host/SignatureDesc.h"

#include "attributes/Attributes.h"
#include "abi/kp_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <map>

using namespace llvm;

namespace kernplug {
namespace {

/// Moves F's body into a new internal function and returns it; F is left a
/// declaration with the same signature, ready to become the stub.
Function *detachBody(Function *F) {
  Module &M = *F->getParent();
  Function *Body = Function::Create(F->getFunctionType(), GlobalValue::InternalLinkage,
                                    F->getName() + ".kp.body", M);
  Body->copyAttributesFrom(F);
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->setVisibility(GlobalValue::DefaultVisibility);
  Body->setComdat(nullptr);
  Body->splice(Body->begin(), F);
  for (unsigned I = 0; I < F->arg_size(); ++I) {
    F->getArg(I)->replaceAllUsesWith(Body->getArg(I));
    Body->getArg(I)->takeName(F->getArg(I));
  }
  Body->setSubprogram(F->getSubprogram());
  F->setSubprogram(nullptr);
  for (unsigned I = 0; I < Body->arg_size(); ++I)
    Body->removeParamAttr(I, IndirectArgAttr); // stays byval: only the plugin's entries call it
  return Body;
}

/// void <name>.kp.cpu(void **args): unpacks args[] and calls the body; the
/// CPU backend calls it once per thread.
Function *makeTrampoline(Function *Body, const std::string &Name, const AbiTypes &T) {
  Module &M = *Body->getParent();
  LLVMContext &C = M.getContext();
  Function *Tr = Function::Create(FunctionType::get(Type::getVoidTy(C), {T.Ptr}, false),
                                  GlobalValue::InternalLinkage, Name + ".kp.cpu", M);
  Tr->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Tr));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Body->args()) {
    Value *Slot = B.CreateLoad(T.Ptr, B.CreateConstGEP1_64(T.Ptr, Tr->getArg(0), A.getArgNo()));
    Args.push_back(A.hasByValAttr() ? Slot : B.CreateLoad(A.getType(), Slot));
  }
  CallInst *Call = B.CreateCall(Body, Args);
  useCalleeABI(Body, Call);
  B.CreateRetVoid();
  return Tr;
}

/// Gives the (now bodiless) kernel F a body that packs its arguments and
/// calls __kp_launch(desc, args).
void makeStub(Function *F, Constant *Desc, const AbiTypes &T) {
  Module &M = *F->getParent();
  LLVMContext &C = M.getContext();
  F->removeFnAttr(Attribute::OptimizeNone);
  F->removeFnAttr(Attribute::NoInline);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  auto *ArrTy = ArrayType::get(T.Ptr, std::max<size_t>(F->arg_size(), 1));
  Value *Arr = B.CreateAlloca(ArrTy, nullptr, "kp.args");
  const DataLayout &DL = M.getDataLayout();
  for (Argument &A : F->args()) {
    Value *P = &A;
    if (!A.hasByValAttr()) {
      // An i24 (a 3-byte struct) is read as the 4 bytes of its slot by the device's .u32
      // (DeviceParams.cpp): the slot holds it zero-extended, with no undefined byte.
      Type *SlotTy = A.getType();
      Value *V = &A;
      if (SlotTy->isIntegerTy() &&
          DL.getTypeSizeInBits(SlotTy) != DL.getTypeAllocSizeInBits(SlotTy)) {
        SlotTy = B.getIntNTy(DL.getTypeAllocSizeInBits(SlotTy));
        V = B.CreateZExt(&A, SlotTy);
      }
      Value *Slot = B.CreateAlloca(SlotTy, nullptr, A.getName() + ".slot");
      B.CreateStore(V, Slot);
      P = Slot;
    }
    B.CreateStore(P, B.CreateConstGEP2_64(ArrTy, Arr, 0, A.getArgNo()));
  }
  FunctionCallee Launch = M.getOrInsertFunction(
      "__kp_launch", FunctionType::get(Type::getVoidTy(C), {T.Ptr, T.Ptr}, false));
  B.CreateCall(Launch, {Desc, Arr});
  B.CreateRetVoid();
  // The stub keeps the ABI callers use: the pointer to their copy of a parameter that
  // passIndirectArgsByValue made byval (stored above as the pointer the runtime reads).
  for (unsigned I = 0; I < F->arg_size(); ++I)
    if (F->getAttributes().hasParamAttr(I, IndirectArgAttr)) {
      F->removeParamAttr(I, Attribute::ByVal);
      F->removeParamAttr(I, IndirectArgAttr);
    }
}

Constant *paramTable(Module &M, const KernelEntry &K, const AbiTypes &T) {
  using F = kp_param_desc_field;
  std::vector<Constant *> Rows;
  for (const IRParam &P : K.Params)
    Rows.push_back(DescriptorInit<F>(T.kp_param_desc)
                       .set(F::name, descriptorString(M, P.Name, "__kp_pname"))
                       .setInt(F::kind, P.Kind)
                       .setInt(F::flags, P.Flags)
                       .setInt(F::size, P.Size)
                       .setInt(F::elem_size, P.ElemSize)
                       .get());
  if (Rows.empty())
    return ConstantPointerNull::get(T.Ptr);
  auto *Ty = ArrayType::get(T.kp_param_desc, Rows.size());
  return new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage,
                            ConstantArray::get(Ty, Rows), "__kp_params." + K.Name);
}

Constant *imageTable(Module &M, const std::vector<DeviceImage> &Images, const AbiTypes &T) {
  using F = kp_image_desc_field;
  std::vector<Constant *> Rows;
  for (const DeviceImage &I : Images) {
    bool IsPTX = I.Kind == KP_IMAGE_PTX;
    auto *Data = ConstantDataArray::getRaw(I.Bytes, I.Bytes.size(),
                                           Type::getInt8Ty(M.getContext()));
    auto *GV = new GlobalVariable(M, Data->getType(), true, GlobalValue::PrivateLinkage, Data,
                                  IsPTX ? "__kp_ptx" : "__kp_cubin_sm" + std::to_string(I.SM));
    // Plain text in its own section, so that tools can find the PTX.
    GV->setSection(IsPTX ? ".kp_ptx" : ".kp_cubin");
    GV->setAlignment(Align(IsPTX ? 1 : 8));
    Rows.push_back(DescriptorInit<F>(T.kp_image_desc)
                       .setInt(F::kind, I.Kind)
                       .setInt(F::sm, I.SM)
                       .set(F::data, GV)
                       .setInt(F::size, I.Bytes.size())
                       .get());
  }
  auto *Ty = ArrayType::get(T.kp_image_desc, Rows.size());
  return new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage,
                            ConstantArray::get(Ty, Rows), "__kp_images");
}

/// The static shared bytes buildDeviceModule (DeviceModule.cpp) left on a
/// kernel as metadata; taken off, since it only carries the value here.
uint64_t takeStaticSharedBytes(Function &F) {
  const char *const SharedBytesMD = "kernplug.shared_bytes";
  MDNode *N = F.getMetadata(SharedBytesMD);
  if (!N)
    return 0;
  F.setMetadata(SharedBytesMD, nullptr);
  return mdconst::extract<ConstantInt>(N->getOperand(0))->getZExtValue();
}

/// Optimised for size: a fraction of the host compile time of a fully optimised (unrolled,
/// vectorised) copy, for code that rarely runs.
void compileForSize(Function &F) {
  if (F.hasFnAttribute(Attribute::OptimizeNone))
    return; // -O0: nothing is optimised anyway (and optnone excludes minsize)
  F.addFnAttr(Attribute::MinSize);
  F.addFnAttr(Attribute::OptimizeForSize);
}

/// Not optimised at all (optnone: clang's -O0 code for it, from the pipeline and the
/// code generator alike), for code that runs only on paths where speed does not matter.
void compileUnoptimised(Function &F) {
  F.removeFnAttr(Attribute::MinSize);
  F.removeFnAttr(Attribute::OptimizeForSize);
  F.removeFnAttr(Attribute::AlwaysInline);
  F.addFnAttr(Attribute::NoInline);
  F.addFnAttr(Attribute::OptimizeNone);
}

/// The per-thread entry (Tr, calling Body) of a kernel split at its barriers or warp
/// collectives. Split at warp collectives (KP_KERNEL_CPU_BLOCK_WARPS), it runs every block
/// whose shape the split does not cover (warps that are not 32 x of one row): for size.
/// Split at barriers only (KP_KERNEL_CPU_BLOCK_BARRIERS), it runs only a launch from a thread
/// whose stack is too small for the split entry (under 1 MiB left), and the replay of a
/// block that faulted, to name the thread: not optimised, which halves again what the copy
/// for size cost (measured: 3-5 ms per kernel, 2026-11-24, AMD EPYC, load 8-10).
void compileThreadEntry(const KernelEntry &K, Function &Body, Function &Tr) {
  if (Body.hasFnAttribute(Attribute::OptimizeNone))
    return; // -O0 already
  bool RarePath = (K.Flags & KP_KERNEL_CPU_BLOCK_BARRIERS) && !(K.Flags & KP_KERNEL_CPU_BLOCK_WARPS);
  for (Function *F : {&Body, &Tr})
    RarePath ? compileUnoptimised(*F) : compileForSize(*F);
}

/// The block entries Entry calls: an interchanged grid-stride entry's block-loop entry
/// (GridStrideInterchange.cpp), which runs only the groups that fail the interchange's
/// run-time check (a grid-stride bound of 2^29 or more), and the per-thread entry's replay
/// of a faulting block. Compiled at -O2 it would be a second fully optimised copy of the
/// body for that rare path (unrolled, versioned by ThreadLoopVersioning): for size, without
/// the block-entry mark that asks ThreadLoopVersioning for a guard-free copy. (It saves
/// little, 1-2 ms per grid-stride kernel: the block loop around a grid-stride loop does not
/// vectorise anyway.)
void compileFallbacksForSize(Function &Entry) {
  SmallPtrSet<Function *, 2> Done;
  for (BasicBlock &BB : Entry)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee != &Entry && Callee->hasFnAttribute(BlockEntryAttr) &&
            // the interchange's phases, inlined into Entry, are Entry's own code
            !Callee->hasFnAttribute(Attribute::AlwaysInline) && Done.insert(Callee).second &&
            !Callee->hasFnAttribute(Attribute::OptimizeNone)) {
          Callee->removeFnAttr(BlockEntryAttr);
          compileForSize(*Callee);
        }
}

} // namespace

void rewriteHostModule(Module &M, std::vector<KernelEntry> &Kernels,
                       const std::vector<DeviceImage> &Images, const std::string &Source) {
  LLVMContext &C = M.getContext();
  AbiTypes T(C);

  // The CPU backend runs one block per worker thread at a time, so a
  // thread-local copy of a shared array is exactly one copy per block.
  // Marked for kernplug-cpu-shared-atomics (cpu/SharedAtomics.h): no other thread sees it
  // while a block runs.
  for (GlobalValue *GV : annotatedGlobals(M, AnnotShared, /*Remove=*/true))
    if (auto *Var = dyn_cast<GlobalVariable>(GV)) {
      Var->setThreadLocal(true);
      Var->setMetadata(CpuSharedMD, MDNode::get(C, {}));
    }

  auto *KernelsTy = ArrayType::get(T.kp_kernel_desc, Kernels.size());
  auto *KernelTable = new GlobalVariable(M, KernelsTy, false, GlobalValue::InternalLinkage,
                                         nullptr, "__kp_kernels");
  auto *ModuleDesc = new GlobalVariable(M, T.kp_module_desc, false,
                                        GlobalValue::InternalLinkage, nullptr, "__kp_module");
  // One kp_signature_desc per distinct signature: a general vectorize kernel and its
  // variants share theirs.
  std::map<std::string, Constant *> Signatures;

  std::vector<Constant *> Rows;
  for (size_t I = 0; I < Kernels.size(); ++I) {
    KernelEntry &K = Kernels[I];
    Constant *Desc = ConstantExpr::getInBoundsGetElementPtr(
        KernelsTy, KernelTable,
        ArrayRef<Constant *>{ConstantInt::get(T.I64, 0), ConstantInt::get(T.I64, I)});
    uint64_t SharedBytes = takeStaticSharedBytes(*K.Fn);
    // Generated kernels (vectorize, guvectorize, reduce) have no stub: the runtime finds
    // them through the user's scalar function (HostFn) and launches them itself.
    bool Generated =
        K.Flags & (KP_KERNEL_VECTORIZE | KP_KERNEL_GUVECTORIZE | KP_KERNEL_REDUCE);
    Function *Body = K.Fn;
    if (!Generated) {
      Body = detachBody(K.Fn);
      makeStub(K.Fn, Desc, T);
    }
    // A block loop's per-thread entry goes through its block entry. A kernel split at its
    // barriers runs whole blocks only through its block entry; its per-thread entry is the
    // body, for the fibers that run it otherwise.
    Function *BlockEntry = K.CpuBlockEntry;
    Function *Tr = K.CpuThreadEntry ? K.CpuThreadEntry : makeTrampoline(Body, K.Name, T);
    if (BlockEntry && !K.CpuThreadEntry)
      compileThreadEntry(K, *Body, *Tr);
    if (BlockEntry)
      compileFallbacksForSize(*BlockEntry);
    // Not when the body is also the row's host_fn (a generated kernel whose IR names itself
    // as its scalar function, as hand-written tests/passes inputs do): the row needs it.
    if (BlockEntry && Body->use_empty() && Body != K.HostFn) {
      if (Body == K.Fn)
        K.Fn = nullptr;
      Body->eraseFromParent(); // its clone is the code now; saves host codegen at -O0
    }
    using KF = kp_kernel_desc_field;
    DescriptorInit<KF> Row(T.kp_kernel_desc);
    Row.set(KF::name, descriptorString(M, K.Name, "__kp_kname"))
        .set(KF::host_fn, K.HostFn)
        .set(KF::cpu_entry, Tr)
        .set(KF::module, ModuleDesc)
        .setInt(KF::flags, K.Flags)
        .setInt(KF::num_params, K.Params.size())
        .set(KF::params, paramTable(M, K, T))
        .setInt(KF::shared_bytes, SharedBytes)
        .set(KF::file, descriptorString(M, K.File, "__kp_file"))
        .setInt(KF::line, K.Line)
        .setNull(KF::runtime_data);
    if (Generated) {
      Constant *&Sig = Signatures[K.Signature];
      if (!Sig)
        Sig = signatureDesc(M, K, T);
      Row.set(KF::signature, Sig);
    } else {
      Row.setNull(KF::signature);
    }
    if (BlockEntry)
      Row.set(KF::cpu_block_entry, BlockEntry);
    else
      Row.setNull(KF::cpu_block_entry);
    // Generated kernels' range entries (generated/CpuRangeEntry.h), found by name.
    if (Function *Range = Generated ? M.getFunction(cpuRangeEntryName(K.Name)) : nullptr)
      Row.set(KF::cpu_range_entry, Range);
    else
      Row.setNull(KF::cpu_range_entry);
    Rows.push_back(Row.get());
  }
  KernelTable->setInitializer(ConstantArray::get(KernelsTy, Rows));
  emitCheckedEntryTable(M, Kernels, KernelTable); // KP_CHECK's entries, when built
  using MF = kp_module_desc_field;
  ModuleDesc->setInitializer(DescriptorInit<MF>(T.kp_module_desc)
                                 .setInt(MF::abi_version, KP_ABI_VERSION)
                                 .set(MF::source, descriptorString(M, Source, "__kp_source"))
                                 .setInt(MF::num_kernels, Kernels.size())
                                 .set(MF::kernels, KernelTable)
                                 .setInt(MF::num_images, Images.size())
                                 .set(MF::images, imageTable(M, Images, T))
                                 .setNull(MF::runtime_data)
                                 .get());

  // Registered from a constructor, unregistered from the matching destructor: at dlclose()
  // the library's descriptors are unmapped, and the runtime must forget them first (ABI 4).
  // llvm.global_dtors (.fini_array) rather than clang CUDA's atexit() from the constructor:
  // both run at dlclose, but at exit the destructor keeps the constructor's mirror order, so
  // atexit handlers, C++ static destructors and destructor functions of objects initialised
  // after this one still find the kernels registered; an atexit() handler would run before
  // every destructor function.
  auto EmitCall = [&](StringRef Name, StringRef Callee) {
    Function *F = Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                                   GlobalValue::InternalLinkage, Name, M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", F));
    B.CreateCall(M.getOrInsertFunction(Callee, FunctionType::get(Type::getVoidTy(C), {T.Ptr},
                                                                 false)),
                 {ModuleDesc});
    B.CreateRetVoid();
    return F;
  };
  appendToGlobalCtors(M, EmitCall("__kp_register", "__kp_register_module"), 65535);
  appendToGlobalDtors(M, EmitCall("__kp_unregister", "__kp_unregister_module"), 65535);
}

} // namespace kernplug
