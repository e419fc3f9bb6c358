//===- UfuncCallChecks.cpp - ufunc() calls against signatures ---*- C++ -*-===//
//
// ufunc(f, n, out, in...) expands to a call of the runtime's entry point with
// the packed arguments, each packed by a function that KP_UARG's _Generic
// selects; abi/ufunc_calls.def lists those names and argument positions (the
// contract with include/kernplug.h). The parameter type of the selected packer
// is the argument's element type, so the AST holds everything the runtime's
// signature match looks at, and this file applies the same rule
// (abi/signature_match.h) at compile time.
//
//===----------------------------------------------------------------------===//
#include "frontend/UfuncCallChecks.h"

#include "attributes/Attributes.h"
#include "attributes/Signature.h"
#include "abi/signature_match.h"

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

/// The runtime entry point a ufunc() expands to (abi/ufunc_calls.def).
struct UfuncEntry {
  const char *Name;
  unsigned NumArgs, FnArg, ArgsArg;
};
const UfuncEntry UfuncEntries[] = {
#define KP_UFUNC_ENTRY(Name, NumArgs, FnArg, ArgsArg) {#Name, NumArgs, FnArg, ArgsArg},
#define KP_UFUNC_PACKER(Prefix, IsArray, IsConst)
#include "abi/ufunc_calls.def"
#undef KP_UFUNC_ENTRY
#undef KP_UFUNC_PACKER
};

/// A function that packs one ufunc() argument (abi/ufunc_calls.def).
struct UfuncPacker {
  const char *Prefix;
  bool IsArray, IsConst;
};
const UfuncPacker UfuncPackers[] = {
#define KP_UFUNC_ENTRY(Name, NumArgs, FnArg, ArgsArg)
#define KP_UFUNC_PACKER(Prefix, IsArray, IsConst) {#Prefix, IsArray, IsConst},
#include "abi/ufunc_calls.def"
#undef KP_UFUNC_ENTRY
#undef KP_UFUNC_PACKER
};

const UfuncEntry *ufuncEntryOf(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return nullptr;
  for (const UfuncEntry &E : UfuncEntries)
    if (Callee->getName() == E.Name && CE->getNumArgs() == E.NumArgs)
      return &E;
  return nullptr;
}

/// One packed ufunc() argument as the runtime sees it.
struct UArg {
  int Type = -1; // KP_ELEM_* (abi/types.def)
  bool IsArray = false;
  bool IsConst = false;
};

/// The KP_ELEM_* code of a C arithmetic type, or -1.
int elemTypeOf(ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  int Class;
  if (T->isBooleanType())
    Class = KP_ELEM_CLASS_UINT; // a byte holding 0 or 1
  else if (T->isBFloat16Type())
    return -1; // 2 bytes of float, but not f16
  else if (T->isRealFloatingType())
    Class = KP_ELEM_CLASS_FLOAT;
  else if (T->isIntegerType())
    Class = T->isSignedIntegerType() ? KP_ELEM_CLASS_SINT : KP_ELEM_CLASS_UINT;
  else
    return -1;
  return kp_elem_of(Class, static_cast<size_t>(Ctx.getTypeSizeInChars(T).getQuantity()));
}

/// The argument a KP_UARG(x) packs, from the packer _Generic selected.
std::optional<UArg> unpack(ASTContext &Ctx, const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *Packer = Call ? Call->getDirectCallee() : nullptr;
  if (!Packer || Packer->getNumParams() != 1 || !Packer->getIdentifier())
    return std::nullopt;
  const UfuncPacker *Kind = nullptr;
  for (const UfuncPacker &P : UfuncPackers)
    if (Packer->getName().starts_with(P.Prefix))
      Kind = &P;
  if (!Kind)
    return std::nullopt;
  QualType T = Packer->getParamDecl(0)->getType();
  const auto *PT = T->getAs<PointerType>();
  if (Kind->IsArray != (PT != nullptr))
    return std::nullopt; // not the packer the table describes
  UArg A;
  A.IsArray = Kind->IsArray;
  A.IsConst = Kind->IsConst;
  A.Type = elemTypeOf(Ctx, PT ? PT->getPointeeType() : T);
  if (A.Type < 0)
    return std::nullopt;
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

/// Whether any of the signatures accepts the call, by the runtime's rule.
bool anyFits(const std::vector<Signature> &Sigs, const std::vector<UArg> &Args) {
  std::vector<std::vector<uint64_t>> Types;
  for (const Signature &S : Sigs) {
    Types.emplace_back(1, static_cast<uint64_t>(S.Result.code()));
    for (const ElemType &P : S.Params)
      Types.back().push_back(static_cast<uint64_t>(P.code()));
  }
  std::vector<kp_signature_desc> Descs(Sigs.size());
  std::vector<const kp_signature_desc *> Ptrs;
  for (size_t I = 0; I < Sigs.size(); ++I) {
    Descs[I].num_types = Types[I].size();
    Descs[I].types = Types[I].data();
    Ptrs.push_back(&Descs[I]);
  }
  std::vector<kp_match_arg> Call;
  for (const UArg &A : Args)
    Call.push_back({A.Type, A.IsArray});
  return kp_signature_pick(Ptrs.data(), Ptrs.size(), Call.data(), Call.size()) >= 0;
}

std::string shortName(int Type) { return kp_elem_short_name(Type); }

std::string describe(const UArg &A) { return shortName(A.Type) + (A.IsArray ? "[]" : ""); }

class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  explicit CallFinder(ASTContext &Ctx) : Ctx(Ctx), Diags(Ctx.getDiagnostics()) {}

  bool VisitCallExpr(CallExpr *CE) {
    const UfuncEntry *Entry = ufuncEntryOf(CE);
    if (!Entry)
      return true;
    const auto *Ref = dyn_cast<DeclRefExpr>(CE->getArg(Entry->FnArg)->IgnoreParenCasts());
    const auto *F = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    if (!F)
      return true; // a function pointer: only the runtime knows its target
    std::vector<Signature> Sigs = signaturesOf(F);
    if (Sigs.empty())
      return true; // not vectorize here; may be in another file, the runtime checks
    const auto *Lit =
        dyn_cast<CompoundLiteralExpr>(CE->getArg(Entry->ArgsArg)->IgnoreParenImpCasts());
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
          << nameOf(F) << shortName(Out.Type);
      return;
    }
    if (Out.IsConst) {
      report(Loc, DiagnosticsEngine::Error,
             "the output of ufunc(%0, ...) is a pointer to const %1; ufunc writes it")
          << nameOf(F) << shortName(Out.Type);
      return;
    }
    if (anyFits(Sigs, Args))
      return;
    bool ArityFits = false;
    for (const Signature &S : Sigs)
      ArityFits |= S.Params.size() + 1 == Args.size();
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
