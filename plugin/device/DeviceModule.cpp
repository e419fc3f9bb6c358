//===- DeviceModule.cpp - clone the device closure for NVPTX ----*- C++ -*-===//
#include "ConstantMemory.h"
#include "LaunchBounds.h"
#include "DevicePass.h"
#include "ClangCompat.h"
#include "Diagnostics.h"
#include "KernelMetadata.h"
#include "device/DeviceInstrumentation.h"
#include "device/DeviceParams.h"
#include "device/IndirectBranches.h"
#include "Primitives.h"

#include "attributes/Attributes.h"
#include "abi/kp_abi.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace kernplug {

/// NVPTX 64-bit, as LLVM 19 defines it.
static const char *const NVPTXDataLayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";
static const char *const NVPTXTriple = "nvptx64-nvidia-cuda";

namespace {

/// Collects the functions and globals reachable from a set of roots.
class Closure {
public:
  void addRoot(Function *F) { add(F); }

  void run() {
    while (!Work.empty()) {
      Function *F = Work.pop_back_val();
      for (Instruction &I : instructions(*F))
        for (Value *Op : I.operands())
          visitValue(Op);
    }
  }

  bool contains(const GlobalValue *GV) const {
    return Members.count(const_cast<GlobalValue *>(GV));
  }
  const SetVector<GlobalValue *> &members() const { return Members; }

private:
  void add(GlobalValue *GV) {
    if (!Members.insert(GV))
      return;
    if (auto *F = dyn_cast<Function>(GV)) {
      if (!F->isDeclaration())
        Work.push_back(F);
    } else if (auto *Var = dyn_cast<GlobalVariable>(GV)) {
      if (Var->hasInitializer())
        visitValue(Var->getInitializer());
    }
  }

  void visitValue(Value *V) {
    if (auto *GV = dyn_cast<GlobalValue>(V))
      return add(GV);
    if (auto *C = dyn_cast<Constant>(V))
      if (Visited.insert(C).second)
        for (Value *Op : C->operands())
          visitValue(Op);
  }

  SetVector<GlobalValue *> Members;
  SmallVector<Function *, 16> Work;
  SmallPtrSet<Constant *, 32> Visited;
};

/// KP_KERNEL_* flags from the runtime primitives a kernel reaches.
uint64_t kernelFlags(const Closure &C) {
  uint64_t Flags = 0;
  for (const GlobalValue *GV : C.members()) {
    const Primitive *P = primitiveOf(dyn_cast<Function>(GV));
    if (!P)
      continue;
    if (P->Class == PrimitiveClass::Barrier || P->Class == PrimitiveClass::Collective)
      Flags |= KP_KERNEL_USES_BARRIER;
    else if (P->Class == PrimitiveClass::GridBarrier)
      Flags |= KP_KERNEL_USES_BARRIER | KP_KERNEL_COOPERATIVE;
    else if (P->Class == PrimitiveClass::Warp)
      Flags |= KP_KERNEL_USES_WARP;
    else if (P->Class == PrimitiveClass::DynamicShared)
      Flags |= KP_KERNEL_USES_DYNAMIC_SHARED;
  }
  return Flags;
}

/// Bytes of the `shared` arrays a kernel reaches, laid out one after another
/// at their alignments as ptxas places them: the static part of the block's
/// shared memory, which the runtime adds to the dynamic part for its limit
/// check before the GPU code is even loaded.
uint64_t staticSharedBytes(const Closure &C, const SmallPtrSetImpl<const GlobalValue *> &Shared,
                           const DataLayout &DL) {
  uint64_t Bytes = 0;
  for (const GlobalValue *GV : C.members()) {
    auto *Var = dyn_cast<GlobalVariable>(GV);
    if (!Var || !Shared.count(Var))
      continue;
    Bytes = alignTo(Bytes, DL.getPreferredAlign(Var));
    Bytes += DL.getTypeAllocSize(Var->getValueType());
  }
  return Bytes;
}

/// Function metadata that carries the static shared bytes of a kernel to
/// rewriteHostModule (HostSide.cpp reads it by the same name).
const char *const SharedBytesMD = "kernplug.shared_bytes";

void setStaticSharedBytes(Function &F, uint64_t Bytes) {
  LLVMContext &C = F.getContext();
  F.setMetadata(SharedBytesMD, MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(
                                                  Type::getInt64Ty(C), Bytes))));
}

/// Host attributes that mean nothing (or the wrong thing) for NVPTX.
void stripHostAttributes(Function &F) {
  bool OptNone = F.hasFnAttribute(Attribute::OptimizeNone);
  for (StringRef A : {"target-cpu", "target-features", "tune-cpu", "frame-pointer",
                      "stack-protector-buffer-size", "min-legal-vector-width", "probe-stack",
                      "stackrealign", "no_caller_saved_registers", "zero-call-used-regs"})
    F.removeFnAttr(A);
  for (Attribute::AttrKind K : {Attribute::OptimizeNone, Attribute::UWTable,
                                Attribute::StackProtect, Attribute::StackProtectStrong,
                                Attribute::StackProtectReq, Attribute::SafeStack})
    F.removeFnAttr(K);
  // -O0 marks every function noinline only because of optnone.
  if (OptNone)
    F.removeFnAttr(Attribute::NoInline);
  if (F.hasPersonalityFn())
    F.setPersonalityFn(nullptr);
  for (unsigned I = 0; I < F.arg_size(); ++I)
    F.removeParamAttr(I, IndirectArgAttr);
}

/// Moves a `shared` array into the shared address space. Shared memory cannot
/// be initialised, so the initializer goes.
void moveToSharedSpace(GlobalVariable *GV) {
  Module &M = *GV->getParent();
  auto *NewGV = new GlobalVariable(M, GV->getValueType(), /*isConstant=*/false,
                                   GlobalValue::InternalLinkage,
                                   UndefValue::get(GV->getValueType()), "", nullptr,
                                   GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  NewGV->setAlignment(GV->getAlign());
  NewGV->takeName(GV);
  GV->replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(NewGV, GV->getType()));
  GV->eraseFromParent();
}

/// Keeps only the module flags that make sense for the device.
void resetModuleFlags(Module &Dev) {
  SmallVector<Module::ModuleFlagEntry, 8> Flags;
  Dev.getModuleFlagsMetadata(Flags);
  if (NamedMDNode *N = Dev.getModuleFlagsMetadata())
    Dev.eraseNamedMetadata(N);
  for (const Module::ModuleFlagEntry &F : Flags)
    if (F.Key->getString() == "Debug Info Version" || F.Key->getString() == "Dwarf Version")
      Dev.addModuleFlag(F.Behavior, F.Key->getString(), F.Val);
  Dev.addModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  for (StringRef Name : {"llvm.linker.options", "llvm.dependent-libraries", "llvm.ident"})
    if (NamedMDNode *N = Dev.getNamedMetadata(Name))
      Dev.eraseNamedMetadata(N);
}

/// ptxas refuses optimised code with DWARF in the PTX; line directives alone
/// (.file/.loc, what -g asks for here) are what DebugDirectivesOnly emits.
void useLineDirectivesOnly(Module &Dev) {
  NamedMDNode *CUs = Dev.getNamedMetadata("llvm.dbg.cu");
  if (!CUs)
    return;
  DenseMap<DICompileUnit *, DICompileUnit *> Map;
  for (MDNode *N : CUs->operands()) {
    auto *CU = cast<DICompileUnit>(N);
    Map[CU] = DICompileUnit::getDistinct(
        Dev.getContext(), CU->getSourceLanguage(), CU->getFile(), CU->getProducer(),
        CU->isOptimized(), CU->getFlags(), CU->getRuntimeVersion(),
        CU->getSplitDebugFilename(), DICompileUnit::DebugDirectivesOnly, {}, {}, {}, {}, {},
        CU->getDWOId(), CU->getSplitDebugInlining(), false, CU->getNameTableKind(),
        CU->getRangesBaseAddress(), CU->getSysRoot(), CU->getSDK());
  }
  DebugInfoFinder Finder;
  Finder.processModule(Dev);
  for (DISubprogram *SP : Finder.subprograms())
    if (DICompileUnit *New = Map.lookup(SP->getUnit()))
      SP->replaceUnit(New);
  CUs->clearOperands();
  for (auto &[Old, New] : Map)
    CUs->addOperand(New);
}

void eraseUnusedDeclarations(Module &Dev) {
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : make_early_inc_range(Dev.functions()))
      if (F.isDeclaration() && F.use_empty()) {
        F.eraseFromParent();
        Changed = true;
      }
    for (GlobalVariable &GV : make_early_inc_range(Dev.globals()))
      if ((GV.isDeclaration() || GV.hasLocalLinkage()) && GV.use_empty()) {
        GV.eraseFromParent();
        Changed = true;
      }
  }
}

/// Reports Msg at an instruction of device code (a function of All) that uses GV, directly
/// or through a constant expression; without one, as a plain error.
void reportAtUse(const GlobalValue &GV, const Closure &All, const PassReporter &Report,
                 const std::string &Msg) {
  SmallVector<const User *, 8> Users(GV.users());
  while (!Users.empty()) {
    const User *U = Users.pop_back_val();
    if (isa<ConstantExpr>(U))
      Users.append(U->user_begin(), U->user_end());
    if (auto *I = dyn_cast<Instruction>(U))
      if (All.contains(I->getFunction()))
        return reportAt(*I->getFunction(), I, Msg);
  }
  Report.Error(Msg);
}

} // namespace

std::unique_ptr<Module> buildDeviceModule(Module &Host, std::vector<KernelEntry> &Kernels,
                                          ArrayRef<Function *> Exports,
                                          const PluginOptions &Opts,
                                          const PassReporter &Report) {
  // The set answers "is it shared?"; the list keeps source order, so that the device module
  // (and the PTX) does not depend on where the allocator put the globals.
  std::vector<GlobalValue *> SharedInOrder = annotatedGlobals(Host, AnnotShared, /*Remove=*/false);
  SmallPtrSet<const GlobalValue *, 8> Shared(SharedInOrder.begin(), SharedInOrder.end());
  // Every `constant` variable goes to the device module (the runtime uploads each one).
  std::vector<GlobalValue *> ConstantsInOrder =
      annotatedGlobals(Host, AnnotConstant, /*Remove=*/false);
  SmallPtrSet<const GlobalValue *, 8> Constants(ConstantsInOrder.begin(), ConstantsInOrder.end());

  const DataLayout DeviceLayout(NVPTXDataLayout);
  std::vector<uint64_t> SharedBytes;
  Closure All;
  for (KernelEntry &K : Kernels) {
    Closure One;
    One.addRoot(K.Fn);
    One.run();
    K.Flags |= kernelFlags(One);
    SharedBytes.push_back(staticSharedBytes(One, Shared, DeviceLayout));
    All.addRoot(K.Fn);
  }
  for (Function *F : Exports)
    All.addRoot(F);
  All.run();
  // Computed gotos become switches in the host functions themselves, before the device clone
  // and the CPU entries copy them (IndirectBranches.cpp says why both need it).
  for (GlobalValue *GV : All.members())
    if (auto *F = dyn_cast<Function>(GV))
      expandIndirectBranches(*F);

  // What the AST checks let through must be constant or shared; anything else
  // would be host memory the GPU cannot see.
  for (GlobalValue *GV : All.members())
    if (auto *Var = dyn_cast<GlobalVariable>(GV))
      if (!Var->isConstant() && !Shared.count(Var) && !Constants.count(Var) &&
          !Var->getName().starts_with("llvm.") &&
          !isSanitizerData(*Var)) {
        reportAtUse(*Var, All, Report,
                    "device code uses the host variable '" + Var->getName().str() +
                        "', which the GPU cannot access");
        return nullptr;
      }
  for (GlobalValue *GV : All.members())
    if (auto *F = dyn_cast<Function>(GV))
      if (F->getName().starts_with("llvm.x86.")) {
        reportAtUse(*F, All, Report,
                    "device code uses the x86 intrinsic '" + F->getName().str() + "'");
        return nullptr;
      }

  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Dev =
      CloneModule(Host, VMap,
                  [&](const GlobalValue *GV) { return All.contains(GV) || Constants.count(GV); });
  eraseKernelMetadata(*Dev); // the host's: it names host functions
  Dev->setModuleIdentifier(Host.getModuleIdentifier() + ".kp-device");
  compat::setTargetTriple(*Dev, NVPTXTriple);
  Dev->setDataLayout(NVPTXDataLayout);
  Dev->setModuleInlineAsm("");

  for (StringRef Name : {"llvm.global.annotations", "llvm.global_ctors", "llvm.global_dtors",
                         "llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *GV = Dev->getGlobalVariable(Name, /*AllowInternal=*/true))
      GV->eraseFromParent();
  for (GlobalAlias &GA : make_early_inc_range(Dev->aliases()))
    if (GA.use_empty())
      GA.eraseFromParent();

  SmallPtrSet<Function *, 8> DeviceKernels, DeviceExports;
  for (KernelEntry &K : Kernels)
    DeviceKernels.insert(cast<Function>(VMap[K.Fn]));
  for (Function *F : Exports)
    DeviceExports.insert(cast<Function>(VMap[F]));

  for (Function &F : Dev->functions()) {
    stripHostAttributes(F);
    // x86-64 conventions (ms_abi, regcall, preserve_most, …) mean nothing to NVPTX: device
    // functions use PTX's one convention, and so must every call of them (below).
    F.setCallingConv(DeviceKernels.count(&F) ? CallingConv::PTX_Kernel : CallingConv::C);
    if (F.isDeclaration())
      continue;
    if (DeviceKernels.count(&F) || DeviceExports.count(&F)) {
      F.setLinkage(GlobalValue::ExternalLinkage);
      F.setVisibility(GlobalValue::DefaultVisibility);
    } else {
      F.setLinkage(GlobalValue::InternalLinkage);
    }
    F.setComdat(nullptr);
  }
  for (Function &F : Dev->functions())
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          Call->setCallingConv(Callee->getCallingConv());
  for (KernelEntry &K : Kernels)
    widenKernelParams(*cast<Function>(VMap[K.Fn]));
  // launch_bounds and maxrregcount: .maxntid, .minnctapersm and .maxnreg in the PTX.
  std::map<const Function *, LaunchBounds> Bounds = readLaunchBounds(Host, /*Remove=*/false);
  for (KernelEntry &K : Kernels) {
    auto It = Bounds.find(K.Fn);
    LaunchBounds B = It != Bounds.end() ? It->second : LaunchBounds();
    if (B.MaxThreads || B.MinBlocks || Opts.MaxRegisters)
      annotateDeviceKernel(*cast<Function>(VMap[K.Fn]), B, Opts.MaxRegisters);
  }
  for (GlobalVariable &GV : Dev->globals())
    if (!GV.isDeclaration()) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setComdat(nullptr);
      GV.setSection("");
      GV.setThreadLocal(false);
    }
  for (const GlobalValue *GV : SharedInOrder)
    if (auto *DevGV = dyn_cast_or_null<GlobalVariable>(VMap.lookup(GV)))
      if (!DevGV->isDeclaration())
        moveToSharedSpace(DevGV);
  for (const GlobalValue *GV : ConstantsInOrder)
    if (auto *DevGV = dyn_cast_or_null<GlobalVariable>(VMap.lookup(GV)))
      moveToConstantSpace(DevGV);

  // Set on the host functions only after cloning, so the device module never
  // carries it; rewriteHostModule moves it into the descriptor.
  for (size_t I = 0; I < Kernels.size(); ++I)
    setStaticSharedBytes(*Kernels[I].Fn, SharedBytes[I]);

  lowerHostInstrumentation(*Dev);
  resetModuleFlags(*Dev);
  if (Opts.DebugLineInfo) {
    stripNonLineTableDebugInfo(*Dev);
    useLineDirectivesOnly(*Dev);
  } else {
    StripDebugInfo(*Dev);
  }
  eraseUnusedDeclarations(*Dev);
  return Dev;
}

} // namespace kernplug
