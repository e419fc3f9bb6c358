//===- UfuncCallChecks.cpp - ufunc() calls against signatures ---*- C++ -*-===//
//
// ufunc(f, n, out, in...) expands to kp_ufunc_call(f, "f", n, stream, nargs,
// (const kp_ufunc_arg[]){KP_UARG(out), KP_UARG(in)...}), and each KP_UARG is a
// _Generic that calls kp_uarg_array_<T>(const T *), kp_uarg_mut_<T>(T *) or
// kp_uarg_scalar_<T>(T). The parameter type of the selected packer is the
// argument's element type, so the AST holds everything the runtime's
// signature match (runtime/ufunc/ufunc.c) looks at; this file applies the same
// rules at compile time.
//
//===----------------------------------------------------------------------===//
#include "frontend/UfuncCallChecks.h"

#include "attributes/Attributes.h"
#include "attributes/Signature.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <vector>

using namespace clang;

namespace kernplug {
namespace {

/// One packed ufunc() argument as the runtime sees it.
struct UArg {
  ElemType Type;
  bool IsArray = false;
  bool IsConst = false;
};

std::optional<ElemType> elemTypeOf(ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  ElemType E;
  E.Bits = static_cast<unsigned>(Ctx.getTypeSize(T));
  if (T->isBooleanType())
    E.Kind = ElemKind::UInt; // a byte holding 0 or 1
  else if (T->isRealFloatingType())
    E.Kind = ElemKind::Float;
  else if (T->isIntegerType())
    E.Kind = T->isSignedIntegerType() ? ElemKind::Int : ElemKind::UInt;
  else
    return std::nullopt;
  if (E.Kind == ElemKind::Float ? (E.Bits != 32 && E.Bits != 64)
                                : (E.Bits != 8 && E.Bits != 16 && E.Bits != 32 && E.Bits != 64))
    return std::nullopt;
  return E;
}

/// The argument a KP_UARG(x) packs, from the packer _Generic selected.
std::optional<UArg> unpack(ASTContext &Ctx, const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *Packer = Call ? Call->getDirectCallee() : nullptr;
  if (!Packer || Packer->getNumParams() != 1 || !Packer->getName().starts_with("kp_uarg_"))
    return std::nullopt;
  QualType T = Packer->getParamDecl(0)->getType();
  UArg A;
  if (const auto *PT = T->getAs<PointerType>()) {
    A.IsArray = true;
    A.IsConst = PT->getPointeeType().isConstQualified();
    T = PT->getPointeeType();
  }
  std::optional<ElemType> ET = elemTypeOf(Ctx, T);
  if (!ET)
    return std::nullopt;
  A.Type = *ET;
  return A;
}

/// The signatures of a vectorize function, from the annotation on any of
/// its declarations (the attribute may sit on a prototype).
std::vector<Signature> signaturesOf(const FunctionDecl *FD) {
  std::vector<Signature> Sigs;
  for (const FunctionDecl *D : FD->redecls()) {
    const AnnotateAttr *A = findAnnotation(D, AnnotVectorize);
    if (!A)
      continue;
    for (Expr *Arg : A->args()) {
      const auto *SL = dyn_cast<StringLiteral>(Arg->IgnoreParenImpCasts());
      Signature S;
      SignatureError Err;
      if (SL && parseSignature(SL->getString().str(), S, Err))
        Sigs.push_back(S);
    }
    break;
  }
  return Sigs;
}

bool fits(const Signature &S, const std::vector<UArg> &Args) {
  if (S.Params.size() + 1 != Args.size() || !(S.Result == Args[0].Type))
    return false;
  for (size_t J = 0; J < S.Params.size(); ++J)
    if (Args[J + 1].IsArray && !(Args[J + 1].Type == S.Params[J]))
      return false;
  return true;
}

std::string describe(const UArg &A) { return A.Type.shortName() + (A.IsArray ? "[]" : ""); }

class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  explicit CallFinder(ASTContext &Ctx) : Ctx(Ctx), Diags(Ctx.getDiagnostics()) {}

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || Callee->getName() != "kp_ufunc_call" || CE->getNumArgs() != 6)
      return true;
    const auto *Ref = dyn_cast<DeclRefExpr>(CE->getArg(0)->IgnoreParenCasts());
    const auto *F = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    if (!F)
      return true; // a function pointer: only the runtime knows its target
    std::vector<Signature> Sigs = signaturesOf(F);
    if (Sigs.empty())
      return true; // not vectorize here; may be in another file, the runtime checks
    const auto *Lit = dyn_cast<CompoundLiteralExpr>(CE->getArg(5)->IgnoreParenImpCasts());
    const auto *Init = Lit ? dyn_cast<InitListExpr>(Lit->getInitializer()) : nullptr;
    if (!Init || Init->getNumInits() == 0)
      return true;
    std::vector<UArg> Args;
    for (const Expr *E : Init->inits()) {
      std::optional<UArg> A = unpack(Ctx, E);
      if (!A)
        return true; // not the header's packing; clang reported what it had to
      Args.push_back(*A);
    }
    check(CE, F, Sigs, Args);
    return true;
  }

private:
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;

  template <unsigned N> DiagnosticBuilder report(SourceLocation L, DiagnosticsEngine::Level Lv,
                                                 const char (&Fmt)[N]) {
    return Diags.Report(L, Diags.getCustomDiagID(Lv, Fmt));
  }

  void check(const CallExpr *CE, const FunctionDecl *F, const std::vector<Signature> &Sigs,
             const std::vector<UArg> &Args) {
    // At the ufunc( the user wrote, not inside the header's macros.
    SourceLocation Loc = Ctx.getSourceManager().getExpansionLoc(CE->getBeginLoc());
    std::string Declared;
    for (const Signature &S : Sigs)
      Declared += (Declared.empty() ? "\"" : ", \"") + S.canonical() + "\"";
    const UArg &Out = Args[0];
    if (!Out.IsArray) {
      report(Loc, DiagnosticsEngine::Error,
             "the output of ufunc(%0, ...) must be an array (a typed pointer), not a %1 scalar")
          << nameOf(F) << Out.Type.shortName();
      return;
    }
    if (Out.IsConst) {
      report(Loc, DiagnosticsEngine::Error,
             "the output of ufunc(%0, ...) is a pointer to const %1; ufunc writes it")
          << nameOf(F) << Out.Type.shortName();
      return;
    }
    bool ArityFits = false;
    for (const Signature &S : Sigs) {
      if (fits(S, Args))
        return;
      ArityFits |= S.Params.size() + 1 == Args.size();
    }
    size_t Inputs = Args.size() - 1, Takes = Sigs.front().Params.size();
    if (!ArityFits) {
      report(Loc, DiagnosticsEngine::Error,
             "vectorize function '%0' takes %1 input%s1 but ufunc() passes %2 after the output "
             "array (declared signatures: %3)")
          << nameOf(F) << static_cast<unsigned>(Takes) << static_cast<unsigned>(Inputs)
          << Declared;
    } else {
      std::string Have;
      for (size_t I = 1; I < Args.size(); ++I)
        Have += (I > 1 ? ", " : "") + describe(Args[I]);
      report(Loc, DiagnosticsEngine::Error,
             "no signature of vectorize function '%0' matches ufunc() with output %1 and inputs "
             "(%2); declared signatures: %3 (arrays must have the signature's element type "
             "exactly; scalars are converted)")
          << nameOf(F) << describe(Out) << Have << Declared;
    }
    report(F->getLocation(), DiagnosticsEngine::Note, "'%0' declared here") << nameOf(F);
  }
};

} // namespace

void UfuncCallChecksConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  CallFinder(Ctx).TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace kernplug
