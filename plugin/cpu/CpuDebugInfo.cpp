//===- CpuDebugInfo.cpp - kernplug-cpu-debug-info ----------------*- C++ -*-===//
//
// The plugin builds the CPU entries of a kernel as new functions around clones of its body
// (CpuBlockEntry.cpp, BarrierFission.cpp, HostSide.cpp's trampolines, the generated ufunc
// kernels). Those functions have no DISubprogram, so the body's debug locations in them,
// whether the plugin inlined the body itself (the barrier split) or the always-inliner does
// later, are invalid and LLVM drops them: gdb could not break at a kernel line, and ASan and
// valgrind reported the CPU entry without a line.
//
// Each such function gets an artificial DISubprogram named after it, at its kernel's file
// and line (the body's, or the first callee's with debug info). Code that carries another
// function's locations becomes code inlined at that line (an inlinedAt appended to its
// location chain, for instructions and debug records alike), and instructions without a
// location get the line itself, which calls of inlinable functions need.
//
// A block entry's index array (CpuBlockEntry.h: the slots the thread loops write) becomes the
// variable `kp_thread` (threadIdx, blockIdx, blockDim, gridDim, linear id), which
// share/kernplug/kernplug-gdb.py reads for its `kp` command and `$kp_thread_idx()`.
//
//===----------------------------------------------------------------------===//
#include "cpu/CpuDebugInfo.h"
#include "ClangCompat.h"
#include "cpu/CpuBlockEntry.h"
#include "Primitives.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

using namespace llvm;

namespace kernplug {
namespace {

/// Functions the plugin generates: `<k>.kp.<what>` and the generated kernels' `__kp_*`.
bool isGenerated(const Function &F) {
  return F.getName().contains(".kp.") || F.getName().starts_with("__kp_");
}

/// The subprogram whose file and line F stands for: its kernel's (a function named by F's
/// name up to ".kp." or one of its `.kp.` siblings), or else its first callee's.
DISubprogram *anchorOf(Function &F) {
  Module &M = *F.getParent();
  StringRef Name = F.getName();
  size_t Dot = Name.find(".kp.");
  if (Dot != StringRef::npos) {
    StringRef Kernel = Name.take_front(Dot);
    for (StringRef Suffix : {"", ".kp.body", ".kp.blk"})
      if (Function *K = M.getFunction((Kernel + Suffix).str()))
        if (DISubprogram *SP = K->getSubprogram())
          return SP;
  }
  for (Instruction &I : instructions(F)) {
    if (DILocation *L = I.getDebugLoc().get())
      return L->getInlinedAtScope()->getSubprogram();
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction())
        if (DISubprogram *SP = Callee->getSubprogram())
          return SP;
  }
  return nullptr;
}

/// Loc as code inlined at CallSite (a location in F's new subprogram).
DebugLoc inlinedAt(const DebugLoc &Loc, DILocation *CallSite, LLVMContext &C,
                   DenseMap<const MDNode *, MDNode *> &Cache) {
  if (!Loc)
    return DebugLoc(CallSite);
  // As the inliner does: the chain above Loc rebuilt on top of CallSite, then Loc on it.
  DILocation *Above = DebugLoc::appendInlinedAt(Loc, CallSite, C, Cache);
  return DILocation::get(C, Loc.getLine(), Loc.getCol(), Loc.getScope(), Above);
}

/// The index array of a block entry: the alloca of NumSlots i32 at its start.
AllocaInst *indexArray(Function &F) {
  if (!F.getName().ends_with(".kp.cpu_block"))
    return nullptr;
  for (Instruction &I : F.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      auto *Ty = dyn_cast<ArrayType>(A->getAllocatedType());
      if (Ty && Ty->getNumElements() == NumSlots && Ty->getElementType()->isIntegerTy(32))
        return A;
    }
  return nullptr;
}

/// struct { unsigned threadIdx[3], blockIdx[3], blockDim[3], gridDim[3], linear; }, the
/// slots' layout (Primitives.h, CpuBlockEntry.h).
DICompositeType *indexArrayType(DIBuilder &DIB, DIFile *File) {
  DIBasicType *U32 = DIB.createBasicType("unsigned int", 32, dwarf::DW_ATE_unsigned);
  DICompositeType *Dim3 = DIB.createArrayType(96, 32, U32, DIB.getOrCreateArray({DIB.getOrCreateSubrange(0, 3)}));
  struct Field {
    const char *Name;
    unsigned Slot;
    DIType *Ty;
  } Fields[] = {{"threadIdx", SlotTid, Dim3},   {"blockIdx", SlotCtaid, Dim3},
                {"blockDim", SlotNtid, Dim3},   {"gridDim", SlotNctaid, Dim3},
                {"linear", SlotLinear, U32}};
  SmallVector<Metadata *, 5> Members;
  for (const Field &Fd : Fields)
    Members.push_back(DIB.createMemberType(nullptr, Fd.Name, File, 0, Fd.Ty->getSizeInBits(),
                                           32, Fd.Slot * 32, DINode::FlagZero, Fd.Ty));
  return DIB.createStructType(nullptr, "kp_thread_index", File, 0, NumSlots * 32, 32,
                              DINode::FlagZero, nullptr, DIB.getOrCreateArray(Members));
}

bool giveSubprogram(Function &F) {
  DISubprogram *Anchor = anchorOf(F);
  // Not for the location tracking -Rpass turns on without -g (NoDebug units).
  if (!Anchor || !Anchor->getUnit() ||
      Anchor->getUnit()->getEmissionKind() == DICompileUnit::NoDebug)
    return false;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  DIBuilder DIB(M, /*AllowUnresolved=*/false, Anchor->getUnit());
  DISubprogram *SP = DIB.createFunction(
      Anchor->getFile(), F.getName(), F.getName(), Anchor->getFile(), Anchor->getLine(),
      DIB.createSubroutineType(DIB.getOrCreateTypeArray({})), Anchor->getLine(),
      DINode::FlagArtificial,
      DISubprogram::SPFlagDefinition | DISubprogram::SPFlagLocalToUnit);
  F.setSubprogram(SP);
  DILocation *Here = DILocation::get(C, Anchor->getLine(), 0, SP);
  DenseMap<const MDNode *, MDNode *> Cache;
  for (Instruction &I : instructions(F)) {
    I.setDebugLoc(inlinedAt(I.getDebugLoc(), Here, C, Cache));
    for (DbgRecord &R : I.getDbgRecordRange())
      R.setDebugLoc(inlinedAt(R.getDebugLoc(), Here, C, Cache));
    // A loop's start and end locations (in !llvm.loop) move with its code, as the inliner
    // moves them.
    updateLoopMetadataDebugLocations(I, [&](Metadata *MD) -> Metadata * {
      auto *L = dyn_cast<DILocation>(MD);
      return L ? inlinedAt(DebugLoc(L), Here, C, Cache).get() : MD;
    });
  }
  if (AllocaInst *Idx = indexArray(F)) {
    DILocalVariable *Var = DIB.createAutoVariable(SP, "kp_thread", Anchor->getFile(),
                                                  Anchor->getLine(),
                                                  indexArrayType(DIB, Anchor->getFile()),
                                                  /*AlwaysPreserve=*/true, DINode::FlagArtificial);
    compat::insertDeclareBefore(DIB, Idx->getNextNode(), Idx, Var, DIB.createExpression(), Here);
  }
  DIB.finalizeSubprogram(SP);
  return true;
}

} // namespace

PreservedAnalyses CpuDebugInfoPass::run(Module &M, ModuleAnalysisManager &) {
  if (M.debug_compile_units().empty())
    return PreservedAnalyses::all(); // no -g: nothing to keep
  SmallVector<Function *, 8> Given;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.getSubprogram() && isGenerated(F) && giveSubprogram(F))
      Given.push_back(&F);
  if (Given.empty())
    return PreservedAnalyses::all();
  // Debug info the verifier rejects would crash code generation (clang does not verify):
  // should a shape of code this pass does not foresee produce it, those functions go without.
  bool BrokenDebugInfo = false;
  if (!verifyModule(M, nullptr, &BrokenDebugInfo) && BrokenDebugInfo)
    for (Function *F : Given)
      stripDebugInfo(*F);
  return PreservedAnalyses::none();
}

} // namespace kernplug
