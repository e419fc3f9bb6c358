//===- ReduceKernels.cpp - block-reduction kernels for kp_reduce() -*- C++ -*-===//
//
// For each reduce function T f(T, T) this adds, to the host module,
//
//   void __kp_reduce_<f>(i64 n, const T *in, T *out)
//
// out[blockIdx.x] = f folded in index order over the block's contiguous range
// of `in` (contract and code: runtime/device/reduce_template.c). The kernels
// are written once in C per element width and shipped as host-triple bitcode,
// kernplug-reduce.bc: the two templates of T's width are linked in, cloned,
// their helper calls inlined, and every __kp_reduce_op_<w>(a, b) in them
// becomes f(a, b).
//
// The GPU template (a warp-shuffle tree per 1 KiB tile, per-warp partials in
// shared memory, one barrier) is what the device module compiles. The CPU
// backend would run that as fibers, paying for every shuffle and barrier, so
// once the device code exists useReduceHostCopies() swaps in the CPU template
// (thread 0 of each block folds the block's range with f inlined) as the host
// copy: same name, same arguments, same contract, no barrier or warp flags.
//
//===----------------------------------------------------------------------===//
#include "DevicePass.h"

#include "abi/kp_abi.h"
#include "attributes/Signature.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>

using namespace llvm;

namespace kernplug {
namespace {

const char *const HostCopySuffix = ".kp.host";

/// The element type of a reduce function: its short name and template width.
struct ReduceType {
  std::string ShortName; // "f32", "u8", …: the descriptor's signature (abi/types.def)
  std::string Width;     // "f32", "i8", …: the template (signed and unsigned share one)
  unsigned Bytes = 0;
};

/// The element type of f, or false if kp_reduce has no kernel for it.
bool reduceTypeOf(const Function &F, const DeviceFunctionInfo &Info, ReduceType &Out) {
  Type *T = F.getReturnType();
  FunctionType *FT = F.getFunctionType();
  if (FT->getNumParams() != 2 || FT->getParamType(0) != T || FT->getParamType(1) != T)
    return false;
  ElemType E;
  if (T->isFloatTy() || T->isDoubleTy()) {
    E.Kind = ElemKind::Float;
    E.Bits = T->isFloatTy() ? 32 : 64;
    Out.Bytes = E.Bits / 8;
    Out.ShortName = Out.Width = E.shortName();
    return true;
  }
  // _Bool is i1 in registers and one byte in memory: an unsigned byte.
  if (!T->isIntegerTy(1) && !T->isIntegerTy(8) && !T->isIntegerTy(16) && !T->isIntegerTy(32) &&
      !T->isIntegerTy(64))
    return false;
  Out.Bytes = T->isIntegerTy(1) ? 1 : T->getIntegerBitWidth() / 8;
  E.Kind = Info.Result.IsSigned ? ElemKind::Int : ElemKind::UInt;
  E.Bits = static_cast<unsigned>(Out.Bytes * 8);
  Out.ShortName = E.shortName();
  Out.Width = "i" + std::to_string(E.Bits);
  return true;
}

/// Links the templates the module needs from the reduce bitcode; false after
/// reporting an error.
bool linkTemplates(Module &M, const std::string &Path, const std::vector<std::string> &Names,
                   const PassReporter &Report) {
  SMDiagnostic Err;
  std::unique_ptr<Module> Lib = parseIRFile(Path, Err, M.getContext());
  if (!Lib) {
    Report.Error("cannot read the reduce kernels '" + Path + "': " + Err.getMessage().str());
    return false;
  }
  for (const std::string &N : Names)
    if (!Lib->getFunction(N)) {
      Report.Error("the reduce kernels '" + Path + "' have no '" + N +
                   "': the file does not match this plugin");
      return false;
    }
  // Same target as the user's code; the user's module flags (PIC, wchar_size, …) govern.
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  if (NamedMDNode *Flags = Lib->getModuleFlagsMetadata())
    Lib->eraseNamedMetadata(Flags);
  for (StringRef MD : {"llvm.ident", "llvm.linker.options", "llvm.dependent-libraries"})
    if (NamedMDNode *N = Lib->getNamedMetadata(MD))
      Lib->eraseNamedMetadata(N);
  // LinkOnlyNeeded brings what the declarations ask for (and the annotation of the shared
  // array, which the device module and HostSide.cpp then treat like a user's `shared`).
  for (const std::string &N : Names)
    M.getOrInsertFunction(N, Lib->getFunction(N)->getFunctionType());
  if (Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded)) {
    Report.Error("cannot link the reduce kernels '" + Path + "'");
    return false;
  }
  return true;
}

/// Inlines every call of a function defined in the module, until none is left:
/// the template's helpers call __kp_reduce_op_<w> too, and only calls in the
/// clone itself are rewritten.
void inlineDefinedCallees(Function &F) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    SmallVector<CallBase *, 16> Calls;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && Callee != &F)
              Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      Changed |= InlineFunction(*CB, IFI).isSuccess();
    }
  }
}

/// Converts a template value to f's parameter type and back: only _Bool
/// differs (i1 in f, a byte in the template), converted as C does.
Value *toParam(IRBuilder<> &B, Value *V, Type *Ty) {
  if (V->getType() == Ty)
    return V;
  return B.CreateICmpNE(V, ConstantInt::get(V->getType(), 0));
}
Value *fromResult(IRBuilder<> &B, Value *V, Type *Ty) {
  return V->getType() == Ty ? V : B.CreateZExt(V, Ty);
}

/// Clones template Tmpl as Name with every op call replaced by a call of F.
Function *instantiate(Function *Tmpl, Function *F, const std::string &Name) {
  ValueToValueMapTy VMap;
  Function *K = CloneFunction(Tmpl, VMap);
  K->setName(Name);
  K->setLinkage(GlobalValue::InternalLinkage);
  K->setVisibility(GlobalValue::DefaultVisibility);
  inlineDefinedCallees(*K);
  SmallVector<CallInst *, 16> OpCalls;
  for (BasicBlock &BB : *K)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Callee->getName().starts_with("__kp_reduce_op_"))
            OpCalls.push_back(CI);
  for (CallInst *CI : OpCalls) {
    IRBuilder<> B(CI);
    Type *P = F->getFunctionType()->getParamType(0);
    CallInst *Call =
        B.CreateCall(F, {toParam(B, CI->getArgOperand(0), P), toParam(B, CI->getArgOperand(1), P)});
    useCalleeABI(F, Call);
    CI->replaceAllUsesWith(fromResult(B, Call, CI->getType()));
    CI->eraseFromParent();
  }
  // The runtime passes separate buffers: `in` is only read (ld.global.nc on the GPU).
  K->addParamAttr(1, Attribute::NoAlias);
  K->addParamAttr(1, Attribute::ReadOnly);
  K->addParamAttr(2, Attribute::NoAlias);
  // f's target (-march, …) so that the host compiler may inline f into the kernel.
  for (StringRef A : {"target-cpu", "target-features", "tune-cpu"}) {
    K->removeFnAttr(A);
    if (F->hasFnAttribute(A))
      K->addFnAttr(F->getFnAttribute(A));
  }
  return K;
}

std::string gpuTemplate(const ReduceType &T) { return "__kp_reduce_gpu_" + T.Width; }
std::string cpuTemplate(const ReduceType &T) { return "__kp_reduce_cpu_" + T.Width; }

/// Removes what linking brought in (the templates, their helpers and the op
/// declarations) once the clones exist and nothing uses it any more.
void eraseTemplates(Module &M, const SmallPtrSetImpl<Function *> &Before,
                    const std::vector<std::string> &Templates) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M.functions())) {
      if (Before.count(&F) || !F.use_empty())
        continue;
      StringRef N = F.getName();
      bool Template = std::find(Templates.begin(), Templates.end(), N) != Templates.end();
      if (Template || N.starts_with("__kp_reduce_op_") || !N.starts_with("__kp_reduce_")) {
        F.eraseFromParent();
        Changed = true;
      }
    }
  }
}

} // namespace

void addReduceKernels(Module &M, const TranslationUnitInfo &Info, const PluginOptions &Opts,
                      std::vector<KernelEntry> &Kernels, const PassReporter &Report) {
  struct Pending {
    const DeviceFunctionInfo *Info;
    Function *F;
    ReduceType T;
  };
  std::vector<Pending> Work;
  std::vector<std::string> Templates;
  for (const DeviceFunctionInfo &RI : Info.Functions) {
    if (RI.TheRole != DeviceFunctionInfo::Reduce)
      continue;
    Function *F = M.getFunction(RI.IRName);
    if (!F || F->isDeclaration())
      continue; // unused and not emitted: nothing can pass it to kp_reduce
    ReduceType T;
    if (!reduceTypeOf(*F, RI, T)) {
      Report.Error(RI.File + ":" + std::to_string(RI.Line) + ": reduce function '" + RI.IRName +
                   "': kp_reduce supports 8- to 64-bit integers, float and double as the "
                   "element type");
      continue;
    }
    for (const std::string &N : {gpuTemplate(T), cpuTemplate(T)})
      if (std::find(Templates.begin(), Templates.end(), N) == Templates.end())
        Templates.push_back(N);
    Work.push_back({&RI, F, T});
  }
  if (Work.empty())
    return;
  if (Opts.ReduceRuntime.empty()) {
    Report.Error("the reduce kernels kernplug-reduce.bc were not found next to the plugin; "
                 "pass -fplugin-arg-kernplug-reduce-runtime=<path>");
    return;
  }
  SmallPtrSet<Function *, 32> Before;
  for (Function &F : M)
    Before.insert(&F);
  if (!linkTemplates(M, Opts.ReduceRuntime, Templates, Report))
    return;

  for (const Pending &P : Work) {
    KernelEntry E;
    E.Name = "__kp_reduce_" + P.Info->IRName;
    E.Fn = instantiate(M.getFunction(gpuTemplate(P.T)), P.F, E.Name);
    instantiate(M.getFunction(cpuTemplate(P.T)), P.F, E.Name + HostCopySuffix);
    E.HostFn = P.F;
    E.Signature = P.T.ShortName;
    E.Flags = KP_KERNEL_REDUCE;
    E.File = P.Info->File;
    E.Line = P.Info->Line;
    E.Params.push_back({"n", KP_PARAM_VALUE, 0, 8, 0});
    E.Params.push_back({"in", KP_PARAM_POINTER, KP_PARAM_CONST, 8, P.T.Bytes});
    E.Params.push_back({"out", KP_PARAM_POINTER, 0, 8, P.T.Bytes});
    Kernels.push_back(std::move(E));
  }
  eraseTemplates(M, Before, Templates);
}

void useReduceHostCopies(Module &M, const PluginOptions &Opts,
                         std::vector<KernelEntry> &Kernels) {
  if (Opts.ReduceFibers)
    return; // the GPU kernel on the CPU too: its algorithm tested without a GPU
  for (KernelEntry &K : Kernels) {
    if (!(K.Flags & KP_KERNEL_REDUCE))
      continue;
    Function *Host = M.getFunction(K.Name + HostCopySuffix);
    if (!Host)
      continue;
    // buildDeviceModule left the static shared bytes on the device version.
    SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
    K.Fn->getAllMetadata(MDs);
    for (auto &[Kind, Node] : MDs)
      Host->setMetadata(Kind, Node);
    K.Fn->eraseFromParent();
    Host->setName(K.Name);
    K.Fn = Host;
    K.Flags &= ~uint64_t(KP_KERNEL_USES_BARRIER | KP_KERNEL_USES_WARP);
  }
}

} // namespace kernplug
