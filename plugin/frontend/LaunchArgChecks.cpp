//===- LaunchArgChecks.cpp - kernel arguments of incompatible pointer type -*- C++ -*-===//
//
// launch(k, b, t)(args) expands to `(kp_configure_launch(k, ...) ? (k) :
// refused)(args)`; forall likewise, and kp_generic puts a _Generic selection
// in k's place. The kernel is found under those wrappers; each argument that
// clang converted with an implicit pointer bitcast between incompatible
// pointee types (what -Wincompatible-pointer-types warns about) is an error.
//
// Clang 22 makes -Wincompatible-pointer-types an error by default, so a bad launch argument
// already fails the compile there; kernplug still names the kernel and the parameter, after
// clang's error. These checks therefore also run after earlier errors (on calls that clang
// built without errors), and the other checks here, which need a valid translation unit, do not.
//
//===----------------------------------------------------------------------===//
#include "frontend/LaunchArgChecks.h"

#include "attributes/Attributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace kernplug {
namespace {

/// The kernel a call's callee names, through parentheses, implicit casts, the
/// launch macros' conditional and a _Generic selection; null if none.
const FunctionDecl *kernelOfCallee(const Expr *E) {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      E = CO->getTrueExpr();
      continue;
    }
    if (const auto *GS = dyn_cast<GenericSelectionExpr>(E)) {
      if (GS->isResultDependent())
        return nullptr;
      E = GS->getResultExpr();
      continue;
    }
    break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  return FD && isKernel(FD) ? FD : nullptr;
}

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  /// OnlyLaunchArgs: the translation unit has errors already; check kernel calls only.
  Visitor(ASTContext &Ctx, bool OnlyLaunchArgs) : Ctx(Ctx), OnlyLaunchArgs(OnlyLaunchArgs) {
    DiagID = Ctx.getDiagnostics().getCustomDiagID(
        DiagnosticsEngine::Error,
        "argument %0 of kernel '%1' has type %2, but parameter '%3' is %4: the "
        "kernel would read the memory as another type (cast explicitly if that "
        "is meant)");
  }

  /// launch_bounds: on kernels only, with values a GPU can honour.
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (OnlyLaunchArgs)
      return true;
    const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>();
    uint64_t Max = 0, Min = 0;
    if (!LB || !launchBoundsOf(FD, Max, Min) || !ReportedBounds.insert(LB).second)
      return true;
    DiagnosticsEngine &D = Ctx.getDiagnostics();
    if (!isKernel(FD))
      D.Report(LB->getLocation(),
               D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "'launch_bounds' applies to kernels, and '%0' is not one "
                                 "(mark it __attribute__((kernel)))"))
          << FD->getName();
    else if (!Max)
      D.Report(LB->getMaxThreads()->getExprLoc(),
               D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "the maximum threads per block of 'launch_bounds' must be an "
                                 "integer constant from 1 to 1024"));
    else if (Min == ~uint64_t(0))
      D.Report(LB->getMinBlocks()->getExprLoc(),
               D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "the minimum blocks per multiprocessor of 'launch_bounds' "
                                 "must be an integer constant from 0 to 32"));
    return true;
  }

  /// `constant`: a file-scope variable defined here, one per process.
  bool VisitVarDecl(VarDecl *VD) {
    if (OnlyLaunchArgs || !VD->hasAttr<CUDAConstantAttr>() || VD != VD->getCanonicalDecl())
      return true;
    const char *Why = nullptr;
    if (VD->isStaticLocal() || !VD->isFileVarDecl())
      Why = "must be declared at file scope";
    else if (VD->getTLSKind() != VarDecl::TLS_None)
      Why = "cannot be thread-local";
    else if (VD->getType()->isIncompleteType() || VD->getType()->isVariablyModifiedType())
      Why = "must have a complete type of constant size";
    else if (VD->getMostRecentDecl()->hasDefinition(Ctx) == VarDecl::DeclarationOnly)
      Why = "must be defined in this file (kernels of other files cannot see it)";
    if (Why)
      report(VD->getLocation(), "constant variable '%0' %1") << VD->getName() << Why;
    return true;
  }

  /// Writes to a `constant` variable: the GPU's copy is read-only, and the host's copy
  /// changes only through kp_copy_to_constant, which updates every copy.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!OnlyLaunchArgs && BO->isAssignmentOp())
      checkWrite(BO->getLHS(), BO->getOperatorLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (!OnlyLaunchArgs && UO->isIncrementDecrementOp())
      checkWrite(UO->getSubExpr(), UO->getOperatorLoc());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (CE->containsErrors())
      return true;
    const FunctionDecl *K = kernelOfCallee(CE->getCallee());
    if (!K)
      return true;
    unsigned N = std::min(CE->getNumArgs(), K->getNumParams());
    for (unsigned I = 0; I < N; ++I)
      checkArg(K, I, CE->getArg(I));
    return true;
  }

private:
  template <unsigned N>
  DiagnosticBuilder report(SourceLocation L, const char (&Fmt)[N]) {
    DiagnosticsEngine &D = Ctx.getDiagnostics();
    return D.Report(L, D.getCustomDiagID(DiagnosticsEngine::Error, Fmt));
  }

  void checkWrite(const Expr *Target, SourceLocation L) {
    for (;;) {
      Target = Target->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Target))
        Target = AS->getBase();
      else if (const auto *ME = dyn_cast<MemberExpr>(Target); ME && !ME->isArrow())
        Target = ME->getBase();
      else
        break;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Target);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && VD->hasAttr<CUDAConstantAttr>())
      report(L, "'%0' is constant memory, read-only in C code: fill it from the host with "
                "kp_copy_to_constant(%0, src, bytes)")
          << VD->getName();
  }

  void checkArg(const FunctionDecl *K, unsigned I, const Expr *Arg) {
    const auto *Cast = dyn_cast<ImplicitCastExpr>(Arg->IgnoreParens());
    if (!Cast || Cast->getCastKind() != CK_BitCast)
      return;
    QualType From = Cast->getSubExpr()->getType().getCanonicalType();
    QualType To = K->getParamDecl(I)->getType().getCanonicalType();
    if (!From->isPointerType() || !To->isPointerType())
      return;
    QualType FromElt = From->getPointeeType().getUnqualifiedType();
    QualType ToElt = To->getPointeeType().getUnqualifiedType();
    if (FromElt->isVoidType() || ToElt->isVoidType() ||
        Ctx.typesAreCompatible(FromElt, ToElt))
      return;
    const ParmVarDecl *P = K->getParamDecl(I);
    Ctx.getDiagnostics().Report(Arg->getExprLoc(), DiagID)
        << (I + 1) << K->getName() << Cast->getSubExpr()->getType()
        << (P->getName().empty() ? StringRef("?") : P->getName())
        << P->getType() << Arg->getSourceRange();
  }

  ASTContext &Ctx;
  bool OnlyLaunchArgs;
  unsigned DiagID;
  std::set<const Attr *> ReportedBounds;
};

} // namespace

void LaunchArgChecksConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  Visitor(Ctx, Ctx.getDiagnostics().hasErrorOccurred())
      .TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace kernplug
