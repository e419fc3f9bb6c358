//===- DeviceCodeChecks.cpp - what the GPU cannot run, as clang errors -*- C++ -*-===//
//
// Walks the call graph from every kernel, vectorize, guvectorize, reduce and
// device function through the translation unit and reports, at the offending
// expression, what device code cannot do. A note names the kernel that
// reaches the function, since the same helper may be fine on the host.
//
//===----------------------------------------------------------------------===//
#include "frontend/DeviceCodeChecks.h"

#include "attributes/Attributes.h"
#include "frontend/CallingConvention.h"
#include "frontend/DeviceBuiltins.h"
#include "frontend/KernelDeclChecks.h"
#include "device/MathFunctions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <deque>

using namespace clang;

namespace kernplug {
namespace {

bool containsLongDouble(QualType T) {
  T = T.getCanonicalType();
  while (true) {
    if (const auto *BT = T->getAs<BuiltinType>())
      return BT->getKind() == BuiltinType::LongDouble;
    if (const auto *CT = T->getAs<ComplexType>())
      T = CT->getElementType();
    else if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    else if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
      T = AT->getElementType();
    else
      return false;
    T = T.getCanonicalType();
  }
}

/// Shared state of one check run.
struct CheckState {
  CheckState(ASTContext &Ctx, const PluginOptions &Opts)
      : Ctx(Ctx), Diags(Ctx.getDiagnostics()), Opts(Opts) {}
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  const PluginOptions &Opts;
  /// Each reached function and the root (kernel, …) that first reached it.
  llvm::DenseMap<const FunctionDecl *, const FunctionDecl *> RootOf;
  std::deque<const FunctionDecl *> Work;

  template <unsigned N> DiagnosticBuilder error(SourceLocation L, const char (&Fmt)[N]) {
    return Diags.Report(L, Diags.getCustomDiagID(DiagnosticsEngine::Error, Fmt));
  }
  template <unsigned N> DiagnosticBuilder note(SourceLocation L, const char (&Fmt)[N]) {
    return Diags.Report(L, Diags.getCustomDiagID(DiagnosticsEngine::Note, Fmt));
  }

  void reach(const FunctionDecl *FD, const FunctionDecl *Root) {
    if (RootOf.try_emplace(FD, Root).second)
      Work.push_back(FD);
  }

  /// The note after each error: which kernel makes this code device code.
  void noteRoot(const FunctionDecl *Current) {
    const FunctionDecl *Root = RootOf.lookup(Current);
    if (!Root || Root == Current)
      return;
    const char *What = isKernel(Root)      ? "kernel"
                       : isVectorize(Root) ? "vectorize function"
                       : isGuvectorize(Root) ? "guvectorize function"
                       : isReduce(Root)    ? "reduce function"
                                           : "device function";
    note(Root->getLocation(), "'%0' is device code because %1 '%2' reaches it")
        << nameOf(Current) << What << nameOf(Root);
  }
};

/// Checks one function body that device code reaches.
class BodyChecker : public RecursiveASTVisitor<BodyChecker> {
public:
  BodyChecker(CheckState &St, const FunctionDecl *Current) : St(St), Current(Current) {}

  /// Only the chosen association of a _Generic is code (the header's
  /// type-generic atomics name every typed variant).
  bool TraverseGenericSelectionExpr(GenericSelectionExpr *E) {
    return E->isResultDependent() || TraverseStmt(E->getResultExpr());
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee) {
      St.error(CE->getBeginLoc(), "device code cannot call through a function pointer");
      St.noteRoot(Current);
      return true;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(DRE);
    if (isKernel(Callee)) {
      St.error(CE->getBeginLoc(), "kernel '%0' cannot be called from device code; kernels "
                                  "are launched from the host with launch(%0, blocks, threads)")
          << nameOf(Callee);
      St.noteRoot(Current);
      return true;
    }
    const FunctionDecl *Def = nullptr;
    if (Callee->hasBody(Def)) {
      St.reach(Def, St.RootOf.lookup(Current));
      return true;
    }
    checkExternalCall(CE, Callee);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl())) {
      if (!CalleeRefs.count(E)) {
        St.error(E->getLocation(), "device code cannot take the address of function '%0'")
            << nameOf(FD);
        St.noteRoot(Current);
      }
      return true;
    }
    const auto *VD = dyn_cast<VarDecl>(E->getDecl());
    // Static locals are judged once, at their declaration.
    if (!VD || !VD->hasGlobalStorage() || VD->hasAttr<CUDASharedAttr>() || VD->isStaticLocal())
      return true;
    // Constant memory: read by device code, filled by kp_copy_to_constant (LaunchArgChecks
    // rejects writes).
    if (VD->hasAttr<CUDAConstantAttr>() && VD->getTLSKind() == VarDecl::TLS_None)
      return true;
    if (VD->getTLSKind() != VarDecl::TLS_None) {
      St.error(E->getLocation(), "device code cannot use the thread-local variable '%0'")
          << nameOf(VD);
    } else if (!VD->getType().isConstant(St.Ctx)) {
      St.error(E->getLocation(), "device code cannot use the non-const global variable '%0'; "
                                 "pass it to the kernel as an argument")
          << nameOf(VD);
    } else if (!VD->getAnyInitializer()) {
      St.error(E->getLocation(), "const global '%0' has no initializer in this file; device "
                                 "code can only read constants defined in the same file")
          << nameOf(VD);
    } else {
      return true;
    }
    St.noteRoot(Current);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (containsLongDouble(VD->getType()))
      reportLongDouble(VD->getLocation());
    if (VD->hasAttr<CUDASharedAttr>()) {
      checkShared(VD);
    } else if (VD->getTLSKind() != VarDecl::TLS_None) {
      St.error(VD->getLocation(), "thread-local variable '%0' is not supported in device code")
          << nameOf(VD);
      St.noteRoot(Current);
    } else if (VD->getType()->isVariableArrayType()) {
      St.error(VD->getLocation(), "variable-length array '%0' is not supported in device code "
                                  "(GPU threads have no dynamic stack); give it a constant size, "
                                  "or use dynamic shared memory or a device array")
          << nameOf(VD);
      St.noteRoot(Current);
    } else if (VD->isStaticLocal() && VD->hasAttr<CUDAConstantAttr>()) {
      St.error(VD->getLocation(), "constant variable '%0' must be declared at file scope")
          << nameOf(VD);
    } else if (VD->isStaticLocal() && !VD->getType().isConstant(St.Ctx)) {
      St.error(VD->getLocation(), "static variable '%0' in device code must be const, or a "
                                  "'shared' array")
          << nameOf(VD);
      St.noteRoot(Current);
    }
    return true;
  }

  bool VisitExpr(Expr *E) {
    if (!isa<DeclRefExpr>(E) && containsLongDouble(E->getType()))
      reportLongDouble(E->getExprLoc());
    if (const auto *AT = E->getType()->getAs<AtomicType>())
      checkAtomicSize(E->getExprLoc(), AT->getValueType(), /*Once=*/true);
    return true;
  }

  /// __atomic_* and __c11_atomic_* builtins (and stdatomic.h, built on them).
  bool VisitAtomicExpr(AtomicExpr *E) {
    checkAtomicSize(E->getBuiltinLoc(), E->getValueType(), /*Once=*/false);
    return true;
  }

  /// NVPTX converts between floating point and integers wider than 64 bits by calls into
  /// compiler-rt (__floattidf, __fixdfti, ...), which the GPU does not have.
  bool VisitCastExpr(CastExpr *E) {
    CastKind K = E->getCastKind();
    if (K != CK_IntegralToFloating && K != CK_FloatingToIntegral)
      return true;
    QualType From = E->getSubExpr()->getType(), To = E->getType();
    QualType Int = K == CK_IntegralToFloating ? From : To;
    if (Int->isDependentType() || St.Ctx.getTypeSize(Int) <= 64)
      return true;
    St.error(E->getExprLoc(), "conversion from %0 to %1 is not supported in device code; "
                              "convert through a 64-bit integer")
        << From << To;
    St.noteRoot(Current);
    return true;
  }

  bool VisitVAArgExpr(VAArgExpr *E) {
    if (!Current->isVariadic()) { // a variadic function is reported as a whole
      St.error(E->getBuiltinLoc(), "va_arg is not supported in device code");
      St.noteRoot(Current);
    }
    return true;
  }

  /// Full-range complex * and / (C's default) become calls to __mulsc3 & co.,
  /// which the GPU has no library for; the limited-range forms are inline.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    BinaryOperatorKind Op = BO->getOpcode();
    bool MulDiv = Op == BO_Mul || Op == BO_Div || Op == BO_MulAssign || Op == BO_DivAssign;
    LangOptions::ComplexRangeKind Range = St.Ctx.getLangOpts().getComplexRange();
    if (!MulDiv || (Range != LangOptions::CX_Full && Range != LangOptions::CX_None) ||
        !BO->getLHS()->getType()->isAnyComplexType() ||
        !BO->getRHS()->getType()->isAnyComplexType())
      return true;
    St.error(BO->getOperatorLoc(), "complex %select{multiplication|division}0 is not supported "
                                   "in device code with full-range checks; compile with "
                                   "-fcx-limited-range or -fcomplex-arithmetic=improved")
        << (Op == BO_Div || Op == BO_DivAssign);
    St.noteRoot(Current);
    return true;
  }

  bool VisitAsmStmt(AsmStmt *S) {
    St.error(S->getAsmLoc(), "inline assembly is not supported in device code");
    St.noteRoot(Current);
    return true;
  }

private:
  /// 16-byte and odd-sized atomics become libatomic calls the GPU does not have.
  void checkAtomicSize(SourceLocation L, QualType ValueType, bool Once) {
    if (ValueType->isIncompleteType() || ValueType->isDependentType())
      return;
    uint64_t Bytes = St.Ctx.getTypeSizeInChars(ValueType).getQuantity();
    if (isDeviceAtomicSize(Bytes) || (Once && ReportedAtomicType))
      return;
    ReportedAtomicType |= Once; // every use of an _Atomic variable would say the same
    St.error(L, "atomic operations on %0 (%1 bytes) are not supported in device code; the GPU "
                "has atomics of 1, 2, 4 and 8 bytes")
        << ValueType << Bytes;
    St.noteRoot(Current);
  }

  void reportLongDouble(SourceLocation L) {
    if (ReportedLongDouble)
      return;
    ReportedLongDouble = true;
    St.error(L, "'long double' is not supported in device code; use double");
    St.noteRoot(Current);
  }

  void checkShared(const VarDecl *VD) {
    if (!VD->isStaticLocal())
      St.error(VD->getLocation(), "'shared' variable '%0' must be declared static") << nameOf(VD);
    else if (VD->getType()->isVariablyModifiedType() || VD->getType()->isIncompleteType())
      St.error(VD->getLocation(), "'shared' variable '%0' must be a scalar, a struct or an "
                                  "array of constant size; use kp_dynamic_shared(T) for a "
                                  "size chosen at launch")
          << nameOf(VD);
    else if (VD->hasInit())
      St.error(VD->getLocation(), "'shared' variable '%0' cannot have an initializer; shared "
                                  "memory starts uninitialized, fill it in the kernel")
          << nameOf(VD);
  }

  void checkExternalCall(const CallExpr *CE, const FunctionDecl *Callee) {
    StringRef Name = Callee->getName();
    unsigned ID = Callee->getBuiltinID();
    if (StringRef Why = unsupportedBuiltinReason(Name); !Why.empty()) {
      // In a variadic function the function itself is reported.
      if (!(Current->isVariadic() && Name.starts_with("__builtin_") && Name.contains("va_"))) {
        St.error(CE->getBeginLoc(), "'%0' cannot be used in device code: %1") << Name << Why;
        St.noteRoot(Current);
      }
      return;
    }
    if (Name.starts_with("__sync_") && CE->getNumArgs() > 0)
      if (const auto *PT = CE->getArg(0)->IgnoreImpCasts()->getType()->getAs<PointerType>())
        checkAtomicSize(CE->getBeginLoc(), PT->getPointeeType(), /*Once=*/false);
    if ((Name == "__atomic_is_lock_free" || Name == "__c11_atomic_is_lock_free") &&
        !CE->isEvaluatable(St.Ctx)) {
      // clang folds it for sizes the target handles inline; the rest is a libatomic call.
      St.error(CE->getBeginLoc(), "'%0' must have a constant answer in device code; the GPU "
                                  "has atomics of 1, 2, 4 and 8 bytes")
          << Name;
      St.noteRoot(Current);
      return;
    }
    // Library builtins (expf, printf, __builtin_expf) are judged by name below;
    // the other builtins become plain instructions.
    const Builtin::Context &BI = St.Ctx.BuiltinInfo;
    if (ID && !BI.isLibFunction(ID) && !BI.isPredefinedLibFunction(ID)) {
      if (!Name.starts_with("__builtin_ia32"))
        return;
      St.error(CE->getBeginLoc(), "x86 builtin '%0' cannot be used in device code") << nameOf(Callee);
      St.noteRoot(Current);
      return;
    }
    if (Name.starts_with("__builtin_"))
      Name = Name.drop_front(strlen("__builtin_"));
    if (isDeviceRuntimeFunction(Name))
      return;
    if (!libdeviceNameFor(Name).empty()) {
      if (!St.Opts.Libdevice.empty())
        return;
      St.error(CE->getBeginLoc(), "'%0' in device code needs libdevice (nvvm/libdevice/"
                                  "libdevice.10.bc of the CUDA toolkit), which was not found; "
                                  "install the CUDA toolkit, set CUDA_PATH, or pass "
                                  "-fplugin-arg-kernplug-libdevice=<path>")
          << nameOf(Callee);
      St.noteRoot(Current);
      return;
    }
    // Defined in another file (or a PTX library): linked with the other files' device code
    // when the module is loaded (docs/compiling.md, "Device code in several files").
    if (Callee->hasAttr<CUDADeviceAttr>())
      return;
    St.error(CE->getBeginLoc(), "'%0' has no definition in this file and is not provided on "
                                "the GPU; device code can call functions defined in the same "
                                "file, math.h functions, printf, the kernplug.h API, and "
                                "functions of other files declared with 'device' on their "
                                "prototype")
        << nameOf(Callee);
    St.noteRoot(Current);
  }

  CheckState &St;
  const FunctionDecl *Current;
  llvm::SmallPtrSet<const DeclRefExpr *, 16> CalleeRefs;
  bool ReportedLongDouble = false;
  bool ReportedAtomicType = false;
};

/// Finds `shared` variables that no device code owns.
class StraySharedFinder : public RecursiveASTVisitor<StraySharedFinder> {
public:
  explicit StraySharedFinder(CheckState &St) : St(St) {}
  bool VisitVarDecl(VarDecl *VD) {
    if (!VD->hasAttr<CUDASharedAttr>())
      return true;
    const auto *Owner = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    if (!Owner)
      St.error(VD->getLocation(), "'shared' variable '%0' must be a static variable declared "
                                  "inside a kernel or device function")
          << nameOf(VD);
    else if (!St.RootOf.count(Owner->getDefinition() ? Owner->getDefinition() : Owner))
      St.error(VD->getLocation(), "'shared' variable '%0' is declared in '%1', which is not "
                                  "device code (mark it kernel or device, or call it from a "
                                  "kernel)")
          << nameOf(VD) << nameOf(Owner);
    return true;
  }

private:
  CheckState &St;
};

} // namespace

void DeviceCodeChecks::HandleTranslationUnit(ASTContext &Ctx) {
  CheckState St(Ctx, Opts);
  // Kernels first, and each wave walked to the end before the next starts, so
  // that notes name a kernel whenever one reaches a helper.
  for (int Pass = 0; Pass < 2; ++Pass) {
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (!FD || !FD->doesThisDeclarationHaveABody() || !isMarkedDevice(FD))
        continue;
      if ((Pass == 0) != isKernel(FD))
        continue;
      if (isKernel(FD) && FD->hasAttr<CUDADeviceAttr>())
        St.error(FD->getLocation(), "'%0' cannot be both 'kernel' and 'device'") << nameOf(FD);
      checkCallingConvention(St.Diags, FD);
      St.reach(FD, FD);
    }
    while (!St.Work.empty()) {
      const FunctionDecl *FD = St.Work.front();
      St.Work.pop_front();
      if (isKernel(FD) ? checkKernelDeclaration(FD, St.Diags)
                       : checkDeviceFunctionAttributes(FD, St.Diags))
        St.noteRoot(FD);
      if (FD->isVariadic()) {
        // The host's va_list and va_arg code is x86-64's; the GPU's is not the same.
        St.error(FD->getLocation(), "variadic function '%0' is not supported in device code; "
                                    "pass the values in an array or a struct")
            << nameOf(FD);
        St.noteRoot(FD);
      }
      BodyChecker(St, FD).TraverseStmt(FD->getBody());
    }
  }
  StraySharedFinder(St).TraverseDecl(Ctx.getTranslationUnitDecl());
  // Kernels declared here but defined elsewhere (or aliases) are not roots.
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      if (isKernel(FD) && !FD->hasBody() && FD == FD->getMostRecentDecl())
        checkKernelDeclaration(FD, St.Diags);
}

} // namespace kernplug
