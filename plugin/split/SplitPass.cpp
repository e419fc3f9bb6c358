//===- SplitPass.cpp - split mode: keep only the kernel side ----*- C++ -*-===//
#include "split/SplitPass.h"

#include "host/AbiTypes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

using namespace llvm;

namespace kernplug {
namespace {

std::string splitId(const PassState &S) {
  // Alone under opt the options are the defaults: a fixed id, so tests can match it.
  return S.Opts->SplitId.empty() ? "0" : S.Opts->SplitId;
}

/// The functions the descriptors name as host_fn: the launch stubs, and the user's
/// vectorize, guvectorize and reduce functions. The other compiler's code calls them and
/// takes their addresses (the runtime's registry is keyed by host_fn).
SmallPtrSet<Function *, 8> splitRoots(Module &M) {
  SmallPtrSet<Function *, 8> Roots;
  GlobalVariable *Table = M.getNamedGlobal("__kp_kernels");
  if (!Table || !Table->hasInitializer())
    return Roots;
  auto *Rows = dyn_cast<ConstantArray>(Table->getInitializer());
  for (unsigned I = 0, E = Rows ? Rows->getNumOperands() : 0; I < E; ++I)
    if (auto *Row = dyn_cast<ConstantStruct>(Rows->getOperand(I)))
      if (auto *F = dyn_cast<Function>(
              Row->getOperand(kp_kernel_desc_field::host_fn)->stripPointerCasts()))
        Roots.insert(F);
  return Roots;
}

/// The host copies of the file's `constant` variables, which kp_module_desc.constants names
/// (host-stubs' __kp_constants). The other compiler defines them: host code reads them and
/// kp_copy_to_constant writes them, so there must be one of each.
SmallPtrSet<GlobalVariable *, 4> splitConstants(Module &M) {
  SmallPtrSet<GlobalVariable *, 4> Vars;
  GlobalVariable *Table = M.getNamedGlobal("__kp_constants");
  auto *Rows = Table && Table->hasInitializer()
                   ? dyn_cast<ConstantArray>(Table->getInitializer())
                   : nullptr;
  for (unsigned I = 0, E = Rows ? Rows->getNumOperands() : 0; I < E; ++I)
    if (auto *Row = dyn_cast<ConstantStruct>(Rows->getOperand(I)))
      if (auto *V = dyn_cast<GlobalVariable>(
              Row->getOperand(kp_constant_desc_field::host)->stripPointerCasts()))
        Vars.insert(V);
  return Vars;
}

/// A `constant` variable becomes a declaration of the other compiler's definition (a static
/// one under its per-file name). Its debug info goes too: the other compiler's compile unit
/// describes it. The device module, cloned before this pass, keeps the initial value.
void declareConstant(GlobalVariable &V, const std::string &Id) {
  if (V.hasLocalLinkage()) {
    V.setName(splitStaticRootName(Id, V.getName().str()));
    V.setVisibility(GlobalValue::HiddenVisibility);
    V.setDSOLocal(true);
  }
  SmallVector<DIGlobalVariableExpression *, 1> Exprs;
  V.getDebugInfo(Exprs);
  V.eraseMetadata(LLVMContext::MD_dbg);
  for (DICompileUnit *CU : V.getParent()->debug_compile_units()) {
    SmallVector<Metadata *, 8> Kept;
    for (DIGlobalVariableExpression *E : CU->getGlobalVariables())
      if (!is_contained(Exprs, E))
        Kept.push_back(E);
    if (Kept.size() != CU->getGlobalVariables().size())
      CU->replaceGlobalVariables(MDTuple::get(V.getContext(), Kept));
  }
  V.setInitializer(nullptr);
  V.setComdat(nullptr);
  V.setLinkage(GlobalValue::ExternalLinkage);
}

/// kernplug's own constructors and destructors (registration, checked entries): local
/// functions named __kp_*. The user's run in the other compiler's half only.
bool isKernplugStructor(const Constant *C) {
  auto *F = dyn_cast<Function>(C->stripPointerCasts());
  return F && F->hasLocalLinkage() && F->getName().starts_with("__kp_");
}

void keepOnlyKernplugStructors(Module &M, StringRef ListName) {
  GlobalVariable *List = M.getNamedGlobal(ListName);
  if (!List)
    return;
  auto *Entries = dyn_cast_or_null<ConstantArray>(
      List->hasInitializer() ? List->getInitializer() : nullptr);
  SmallVector<Constant *, 4> Kept;
  for (unsigned I = 0, E = Entries ? Entries->getNumOperands() : 0; I < E; ++I) {
    auto *Entry = dyn_cast<ConstantStruct>(Entries->getOperand(I));
    if (Entry && isKernplugStructor(Entry->getOperand(1)))
      Kept.push_back(Entry);
  }
  if (Entries && Kept.size() == Entries->getNumOperands())
    return;
  if (Kept.empty()) {
    List->eraseFromParent();
    return;
  }
  auto *Ty = ArrayType::get(Kept.front()->getType(), Kept.size());
  auto *NewList = new GlobalVariable(M, Ty, false, GlobalValue::AppendingLinkage,
                                     ConstantArray::get(Ty, Kept), "", nullptr,
                                     GlobalValue::NotThreadLocal, List->getAddressSpace());
  NewList->takeName(List);
  List->eraseFromParent();
}

void internalize(GlobalValue &GV) {
  if (GV.hasAvailableExternallyLinkage()) { // a copy of code defined elsewhere: drop it
    if (auto *F = dyn_cast<Function>(&GV))
      F->deleteBody();
    else if (auto *V = dyn_cast<GlobalVariable>(&GV))
      V->setInitializer(nullptr);
    GV.setLinkage(GlobalValue::ExternalLinkage);
    return;
  }
  if (auto *GO = dyn_cast<GlobalObject>(&GV))
    GO->setComdat(nullptr);
  GV.setLinkage(GlobalValue::InternalLinkage);
  GV.setVisibility(GlobalValue::DefaultVisibility);
  GV.setDSOLocal(true);
}

} // namespace

std::string splitStaticRootName(const std::string &Id, const std::string &Name) {
  return "__kp." + Id + "." + Name;
}

PreservedAnalyses SplitHostPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::string Id = splitId(S);
  SmallPtrSet<Function *, 8> Roots = splitRoots(M);
  SmallPtrSet<GlobalVariable *, 4> Constants = splitConstants(M);
  keepOnlyKernplugStructors(M, "llvm.global_ctors");
  keepOnlyKernplugStructors(M, "llvm.global_dtors");
  for (StringRef Used : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *GV = M.getNamedGlobal(Used))
      GV->eraseFromParent();
  M.setModuleInlineAsm("");
  for (GlobalValue &GV : M.global_values()) {
    if (GV.isDeclaration() || GV.getName().starts_with("llvm."))
      continue;
    if (auto *V = dyn_cast<GlobalVariable>(&GV); V && Constants.count(V)) {
      declareConstant(*V, Id);
      continue;
    }
    auto *F = dyn_cast<Function>(&GV);
    if (!F || !Roots.count(F)) {
      internalize(GV);
      continue;
    }
    if (F->hasLocalLinkage()) { // static: a per-file name, not exported from a library
      F->setName(splitStaticRootName(Id, F->getName().str()));
      F->setLinkage(GlobalValue::ExternalLinkage);
      F->setVisibility(GlobalValue::HiddenVisibility);
      F->setDSOLocal(true);
    }
  }
  MAM.invalidate(M, PreservedAnalyses::none());
  GlobalDCEPass().run(M, MAM);
  return PreservedAnalyses::none();
}

PreservedAnalyses SplitNamesPass::run(Module &M, ModuleAnalysisManager &) {
  std::string Prefix = "kp." + splitId(S) + ".";
  bool Changed = false;
  for (GlobalValue &GV : M.global_values()) {
    if (!GV.hasLocalLinkage() || GV.getName().starts_with(Prefix) ||
        GV.getName().starts_with("llvm."))
      continue;
    GV.setName(Prefix + (GV.hasName() ? GV.getName().str() : std::string("anon")));
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace kernplug
