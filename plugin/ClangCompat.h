//===- ClangCompat.h - what differs between Clang/LLVM 19 and 22 -*- C++ -*-===//
//
// kernplug builds against Clang/LLVM 19 or 22 from one source tree (cmake/ClangVersion.cmake
// picks which). Every API that differs between the two is wrapped here, so that the passes and
// the attribute code say what they mean once and no version test appears anywhere else.
// Clang types are template parameters where the wrapper needs their members, so that the IR
// passes including this header do not pull in clang's Sema headers.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CLANGCOMPAT_H
#define KERNPLUG_PLUGIN_CLANGCOMPAT_H

#include "clang/Basic/AttributeCommonInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#if LLVM_VERSION_MAJOR != 19 && LLVM_VERSION_MAJOR != 22
#error "kernplug builds against Clang/LLVM 19 or 22 (KERNPLUG_CLANG_VERSION)"
#endif

namespace kernplug {
namespace compat {

inline constexpr unsigned LLVMMajor = LLVM_VERSION_MAJOR;

/// Where PassPlugin.h is (22 moved it to llvm/Plugins): #include KP_PASS_PLUGIN_H.
#if LLVM_VERSION_MAJOR >= 22
#define KP_PASS_PLUGIN_H "llvm/Plugins/PassPlugin.h"
#else
#define KP_PASS_PLUGIN_H "llvm/Passes/PassPlugin.h"
#endif

// --- LLVM IR ---------------------------------------------------------------------------------

/// The predicates ScalarEvolution::convertSCEVToAddRecWithPredicates adds (22 collects them in
/// a SmallVector, 19 in a SmallPtrSet).
#if LLVM_VERSION_MAJOR >= 22
template <class Pred> using SCEVPredicateList = llvm::SmallVector<const Pred *, 4>;
#else
template <class Pred> using SCEVPredicateList = llvm::SmallPtrSet<const Pred *, 4>;
#endif

/// Whether SCEV predicate P implies N (22 also asks ScalarEvolution). Pred is
/// llvm::SCEVPredicate, a parameter so that this header needs no SCEV include.
template <class Pred, class SE>
bool predicateImplies(const Pred &P, const Pred *N, SE &ScalarEvolution) {
#if LLVM_VERSION_MAJOR >= 22
  return P.implies(N, ScalarEvolution);
#else
  (void)ScalarEvolution;
  return P.implies(N);
#endif
}

/// The declaration of an intrinsic, inserted when missing (19: getDeclaration; 22:
/// getOrInsertDeclaration).
inline llvm::Function *intrinsic(llvm::Module &M, llvm::Intrinsic::ID ID,
                                 llvm::ArrayRef<llvm::Type *> Types = {}) {
#if LLVM_VERSION_MAJOR >= 22
  return llvm::Intrinsic::getOrInsertDeclaration(&M, ID, Types);
#else
  return llvm::Intrinsic::getDeclaration(&M, ID, Types);
#endif
}

/// llvm.modf and llvm.sincos, which return both results as a pair: clang 22 emits them for
/// modf() (and sincos() without errno); LLVM 19 has neither (not_intrinsic: never matches
/// an intrinsic's ID).
#if LLVM_VERSION_MAJOR >= 22
inline constexpr llvm::Intrinsic::ID ModfIntrinsic = llvm::Intrinsic::modf;
inline constexpr llvm::Intrinsic::ID SincosIntrinsic = llvm::Intrinsic::sincos;
#else
inline constexpr llvm::Intrinsic::ID ModfIntrinsic = llvm::Intrinsic::not_intrinsic;
inline constexpr llvm::Intrinsic::ID SincosIntrinsic = llvm::Intrinsic::not_intrinsic;
#endif

/// Marks parameter ArgNo as not captured (19: `nocapture`; 22: `captures(none)`).
inline void addNoCapture(llvm::Function &F, unsigned ArgNo) {
#if LLVM_VERSION_MAJOR >= 22
  F.addParamAttr(ArgNo,
                 llvm::Attribute::getWithCaptureInfo(F.getContext(), llvm::CaptureInfo::none()));
#else
  F.addParamAttr(ArgNo, llvm::Attribute::NoCapture);
#endif
}

/// The module's target triple (19: a string; 22: an llvm::Triple).
inline void setTargetTriple(llvm::Module &M, llvm::StringRef Triple) {
#if LLVM_VERSION_MAJOR >= 22
  M.setTargetTriple(llvm::Triple(Triple));
#else
  M.setTargetTriple(Triple);
#endif
}

/// Whether F was compiled with -ffast-math (or -funsafe-math-optimizations). Clang 19 marks
/// such a function "unsafe-fp-math"; clang 22 no longer emits that attribute, only the
/// fast-math flags of each floating-point operation: there, an operation that may reassociate,
/// use a reciprocal and approximate functions (what -funsafe-math-optimizations implies).
inline bool compiledWithUnsafeMath(const llvm::Function &F) {
#if LLVM_VERSION_MAJOR >= 22
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB)
      if (llvm::isa<llvm::FPMathOperator>(I) && I.hasAllowReassoc() && I.hasAllowReciprocal() &&
          I.hasApproxFunc())
        return true;
  return false;
#else
  return F.getFnAttribute("unsafe-fp-math").getValueAsBool();
#endif
}

/// nvcc's -prec-div=false -prec-sqrt=false for F: its float divisions and square roots may be
/// approximate (div.approx.f32, sqrt.approx.f32). NVPTX 19 reads the function attributes
/// "unsafe-fp-math"/"approx-func-fp-math"; NVPTX 22 ignores them and reads each operation's
/// approximate-functions flag (afn) instead, so there the flags go on the operations.
inline void allowApproxFloatDivSqrt(llvm::Function &F) {
#if LLVM_VERSION_MAJOR >= 22
  for (llvm::BasicBlock &BB : F)
    for (llvm::Instruction &I : BB) {
      if (!llvm::isa<llvm::FPMathOperator>(I) || !I.getType()->getScalarType()->isFloatTy())
        continue;
      auto *Call = llvm::dyn_cast<llvm::IntrinsicInst>(&I);
      if (I.getOpcode() != llvm::Instruction::FDiv &&
          !(Call && Call->getIntrinsicID() == llvm::Intrinsic::sqrt))
        continue;
      I.setHasApproxFunc(true);
      I.setHasAllowReciprocal(true);
    }
#else
  F.addFnAttr("unsafe-fp-math", "true");
  F.addFnAttr("approx-func-fp-math", "true");
#endif
}

/// A SCEVExpander (22 dropped its DataLayout argument: it asks ScalarEvolution).
/// Expander is llvm::SCEVExpander; a parameter so that this header needs no SCEV include.
template <class Expander, class SE, class DL>
Expander makeSCEVExpander(SE &ScalarEvolution, const DL &Layout, const char *Name) {
#if LLVM_VERSION_MAJOR >= 22
  (void)Layout;
  return Expander(ScalarEvolution, Name);
#else
  return Expander(ScalarEvolution, Layout, Name);
#endif
}

/// A dbg.declare of Storage before instruction Before (22 takes an iterator position, 19 the
/// instruction). DIBuilder is llvm::DIBuilder.
template <class DIBuilder, class... Args>
void insertDeclareBefore(DIBuilder &DIB, llvm::Instruction *Before, Args... A) {
#if LLVM_VERSION_MAJOR >= 22
  DIB.insertDeclare(A..., llvm::InsertPosition(Before->getIterator()));
#else
  DIB.insertDeclare(A..., Before);
#endif
}

/// PassBuilder's optimizer-early and optimizer-last extension points (22 adds the LTO phase
/// to their callbacks, which kernplug's passes do not need). Fn: void(ModulePassManager &,
/// OptimizationLevel).
template <class PassBuilder, class Fn> void registerOptimizerEarlyEP(PassBuilder &PB, Fn F) {
#if LLVM_VERSION_MAJOR >= 22
  PB.registerOptimizerEarlyEPCallback([F](auto &MPM, auto Level, auto) { F(MPM, Level); });
#else
  PB.registerOptimizerEarlyEPCallback(F);
#endif
}
template <class PassBuilder, class Fn> void registerOptimizerLastEP(PassBuilder &PB, Fn F) {
#if LLVM_VERSION_MAJOR >= 22
  PB.registerOptimizerLastEPCallback([F](auto &MPM, auto Level, auto) { F(MPM, Level); });
#else
  PB.registerOptimizerLastEPCallback(F);
#endif
}

// --- Clang -----------------------------------------------------------------------------------

/// The attribute clang resolves the C spelling __attribute__((kernel)) to, which kernplug takes
/// over by overriding its table entry: RenderScript's in clang 19. Clang 22 has none (GNU
/// `kernel` is unknown to it), so kernplug registers `kernel` as a plugin attribute instead.
inline constexpr clang::AttributeCommonInfo::Kind BuiltinKernelAttr =
#if LLVM_VERSION_MAJOR >= 22
    clang::AttributeCommonInfo::UnknownAttribute;
#else
    clang::AttributeCommonInfo::AT_RenderScriptKernel;
#endif

/// The location and name of an identifier argument (22 made IdentifierLoc a class).
template <class IdentLoc> auto identLocation(const IdentLoc *I) {
#if LLVM_VERSION_MAJOR >= 22
  return I->getLoc();
#else
  return I->Loc;
#endif
}
template <class IdentLoc> auto identInfo(const IdentLoc *I) {
#if LLVM_VERSION_MAJOR >= 22
  return I->getIdentifierInfo();
#else
  return I->Ident;
#endif
}

/// Sema's checked `annotate` attribute with arguments on D (22 replaced
/// Sema::AddAnnotationAttr by CreateAnnotationAttr, which returns null after a diagnostic).
template <class Sema, class Decl, class CommonInfo, class Exprs>
void addAnnotationAttr(Sema &S, Decl *D, const CommonInfo &CI, llvm::StringRef Annot,
                       Exprs Args) {
#if LLVM_VERSION_MAJOR >= 22
  if (auto *A = S.CreateAnnotationAttr(CI, Annot, Args))
    D->addAttr(A);
#else
  S.AddAnnotationAttr(D, CI, Annot, Args);
#endif
}

} // namespace compat
} // namespace kernplug

#endif
