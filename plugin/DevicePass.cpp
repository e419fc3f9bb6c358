//===- DevicePass.cpp - the module pass that separates device code -*- C++ -*-===//
#include "DevicePass.h"
#include "device/DeviceJob.h"

#include "attributes/Attributes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

void useCalleeABI(const Function *Callee, CallBase *Call) {
  // A call whose convention is not its callee's is undefined behaviour, which the optimiser
  // turns into no call at all (ms_abi, vectorcall, preserve_most, … kernels did nothing).
  Call->setCallingConv(Callee->getCallingConv());
  AttributeList FA = Callee->getAttributes();
  SmallVector<AttributeSet, 8> Params;
  for (unsigned I = 0; I < Callee->arg_size(); ++I)
    Params.push_back(FA.getParamAttrs(I));
  Call->setAttributes(AttributeList::get(Callee->getContext(), AttributeSet(), FA.getRetAttrs(),
                                         Params));
}

std::vector<GlobalValue *> annotatedGlobals(Module &M, StringRef Name, bool Remove) {
  std::vector<GlobalValue *> Found;
  GlobalVariable *Table = M.getGlobalVariable("llvm.global.annotations");
  if (!Table || !Table->hasInitializer())
    return Found;
  auto *Arr = dyn_cast<ConstantArray>(Table->getInitializer());
  if (!Arr)
    return Found;
  std::vector<Constant *> Kept;
  for (Use &U : Arr->operands()) {
    auto *Entry = cast<ConstantStruct>(U.get());
    auto *GV = dyn_cast<GlobalValue>(Entry->getOperand(0)->stripPointerCasts());
    auto *Str = dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    StringRef Annotation;
    if (Str && Str->hasInitializer())
      if (auto *CDA = dyn_cast<ConstantDataArray>(Str->getInitializer()))
        Annotation = CDA->getAsCString();
    if (GV && Annotation == Name)
      Found.push_back(GV);
    else
      Kept.push_back(Entry);
  }
  if (!Remove || Found.empty())
    return Found;
  if (Kept.empty()) {
    Table->eraseFromParent();
  } else {
    auto *Ty = ArrayType::get(Arr->getType()->getElementType(), Kept.size());
    auto *NewTable = new GlobalVariable(M, Ty, Table->isConstant(), Table->getLinkage(),
                                        ConstantArray::get(Ty, Kept), "", Table);
    NewTable->setSection(Table->getSection());
    NewTable->takeName(Table);
    Table->eraseFromParent();
  }
  return Found;
}

/// Takes the kernplug.* annotations out of the host object; they only carried
/// information into this pass.
static void removeMarkerAnnotations(Module &M) {
  for (const char *Name : {AnnotKernel, AnnotVectorize, AnnotGuvectorize, AnnotReduce})
    annotatedGlobals(M, Name, /*Remove=*/true);
  // The annotation strings are now unused private globals.
  for (GlobalVariable &GV : make_early_inc_range(M.globals()))
    if (GV.getSection() == "llvm.metadata" && GV.use_empty() && GV.hasPrivateLinkage())
      GV.eraseFromParent();
}

/// The CPU backend runs kernels with barriers on fibers whose stacks sit next to each other
/// with a guard between them. A frame larger than the guard could step over it into another
/// fiber's stack; stack probes (what -fstack-clash-protection adds) touch every page on the
/// way down, so such a frame faults on the guard and is reported as a stack overflow. Every
/// function the kernels reach gets them, not only the kernels: a helper's frame is as large
/// (and at -O0 it is not inlined into one that probes).
static void probeHostStacks(const std::vector<KernelEntry> &Kernels) {
  SetVector<Function *> Reach;
  for (const KernelEntry &K : Kernels)
    Reach.insert(K.Fn);
  for (size_t I = 0; I < Reach.size(); ++I)
    for (Instruction &Inst : instructions(*Reach[I]))
      if (auto *Call = dyn_cast<CallBase>(&Inst))
        if (Function *Callee = Call->getCalledFunction(); Callee && !Callee->isDeclaration())
          Reach.insert(Callee);
  for (Function *F : Reach)
    if (!F->isDeclaration() && !F->hasFnAttribute("probe-stack"))
      F->addFnAttr("probe-stack", "inline-asm");
}

PreservedAnalyses KernplugPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (Info->Functions.empty())
    return PreservedAnalyses::all(); // no annotations: exactly as without the plugin

  std::vector<KernelEntry> Kernels;
  for (const DeviceFunctionInfo &F : Info->Functions) {
    if (F.TheRole != DeviceFunctionInfo::Kernel)
      continue;
    Function *Fn = M.getFunction(F.IRName);
    if (!Fn || Fn->isDeclaration())
      continue; // defined elsewhere, or unused and not emitted
    KernelEntry E;
    E.Name = F.IRName;
    E.Fn = E.HostFn = Fn;
    passIndirectArgsByValue(*Fn, F);
    E.Params = describeKernelParams(*Fn, F);
    E.File = F.File;
    E.Line = F.Line;
    Kernels.push_back(std::move(E));
  }
  addVectorizeKernels(M, *Info, Kernels, Report);
  addGuvectorizeKernels(M, *Info, Kernels, Report);
  addReduceKernels(M, *Info, *Opts, Kernels, Report);

  if (!Kernels.empty()) {
    std::unique_ptr<Module> Dev = buildDeviceModule(M, Kernels, *Opts, Report);
    if (!Dev)
      return PreservedAnalyses::all();
    lowerPrintf(*Dev);
    lowerMemoryCalls(*Dev);
    lowerMathToLibdevice(*Dev);
    std::vector<std::string> Names;
    for (const KernelEntry &K : Kernels)
      Names.push_back(K.Name);
    // The device job runs while the host module is rewritten and optimised; the images
    // are placeholders until KernplugFinishPass fills them in.
    std::unique_ptr<DeviceJob> Job = DeviceJob::start(*Dev, std::move(Names), *Opts);
    Dev.reset();
    useReduceHostCopies(M, *Opts, Kernels);
    probeHostStacks(Kernels);
    rewriteHostModule(M, Kernels, Job->placeholders(), Info->MainFile, *Opts, Report);
    Pending->ImageTable = M.getNamedGlobal("__kp_images");
    Pending->Job = std::move(Job);
    if (!Pending->FinishScheduled)
      KernplugFinishPass(Pending, Report).run(M, MAM);
  }
  removeMarkerAnnotations(M);
  return PreservedAnalyses::none();
}

} // namespace kernplug
