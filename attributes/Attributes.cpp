//===- Attributes.cpp - kernplug attribute registration --------*- C++ -*-===//
#include "Attributes.h"

#include "Layout.h"
#include "Signature.h"
#include "ClangCompat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

#include <algorithm>

using namespace clang;

namespace kernplug {

const AnnotateAttr *findAnnotation(const Decl *D, const char *Name) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Name)
      return A;
  return nullptr;
}

std::string nameOf(const NamedDecl *D) { return D ? D->getNameAsString() : "<unnamed>"; }
std::string nameOf(const IdentifierInfo *II) { return II ? II->getName().str() : "<unnamed>"; }

bool isKernel(const FunctionDecl *FD) { return findAnnotation(FD, AnnotKernel); }
bool isVectorize(const FunctionDecl *FD) { return findAnnotation(FD, AnnotVectorize); }
bool isGuvectorize(const FunctionDecl *FD) { return findAnnotation(FD, AnnotGuvectorize); }
bool isReduce(const FunctionDecl *FD) { return findAnnotation(FD, AnnotReduce); }
bool launchBoundsOf(const FunctionDecl *FD, uint64_t &MaxThreads, uint64_t &MinBlocks) {
  const auto *A = FD->getAttr<CUDALaunchBoundsAttr>();
  if (!A)
    return false;
  const ASTContext &Ctx = FD->getASTContext();
  auto Value = [&](const Expr *E, int64_t &Out) {
    std::optional<llvm::APSInt> V =
        E && !E->isValueDependent() ? E->getIntegerConstantExpr(Ctx) : std::nullopt;
    if (V)
      Out = V->getExtValue();
    return V.has_value();
  };
  int64_t Max = -1, Min = 0;
  if (!Value(A->getMaxThreads(), Max) || (A->getMinBlocks() && !Value(A->getMinBlocks(), Min)))
    Max = -1;
  MaxThreads = Max >= 1 && Max <= 1024 ? uint64_t(Max) : 0;
  MinBlocks = Min >= 0 && Min <= 32 ? uint64_t(Min) : ~uint64_t(0);
  return true;
}
bool isMarkedDevice(const FunctionDecl *FD) {
  return FD->hasAttr<CUDADeviceAttr>() || isKernel(FD) || isVectorize(FD) ||
         isGuvectorize(FD) || isReduce(FD);
}

namespace {

template <unsigned N>
Sema::SemaDiagnosticBuilder error(Sema &S, SourceLocation Loc, const char (&Fmt)[N]) {
  return S.Diag(Loc, S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, Fmt));
}

void annotate(Sema &S, Decl *D, const ParsedAttr &AL, const char *Name) {
  D->addAttr(AnnotateAttr::CreateImplicit(S.Context, Name, nullptr, 0, AL.getRange()));
}

/// C++ without CUDA or OpenCL: kernplug's device attributes are C only (the
/// stubs, the metadata and the ufunc checks read C declarations). An error at
/// the attribute, not clang's "ignored" warning and then a launch that fails at
/// run time. Returns whether it reported.
bool rejectInCxx(Sema &S, const ParsedAttr &AL) {
  const LangOptions &LO = S.getLangOpts();
  if (!LO.CPlusPlus || LO.CUDA || LO.OpenCL)
    return false;
  error(S, AL.getLoc(), "kernplug: '%0' cannot be used in C++: kernels and device code are "
                        "written in C; define them in a .c file and declare them here inside "
                        "extern \"C\" (docs/getting-started.md, \"C++\")")
      << nameOf(AL.getAttrName());
  return true;
}

/// The checks every function-level kernplug attribute shares.
const FunctionDecl *expectFunction(Sema &S, const Decl *D, const ParsedAttr &AL) {
  const auto *FD = dyn_cast<FunctionDecl>(D);
  if (!FD)
    error(S, AL.getLoc(), "'%0' attribute only applies to functions") << nameOf(AL.getAttrName());
  return FD;
}

/// `kernel` and `vectorize`/`reduce` describe incompatible things.
bool checkExclusive(Sema &S, const FunctionDecl *FD, const ParsedAttr &AL,
                    const char *Other, const char *OtherName) {
  if (!findAnnotation(FD, Other))
    return true;
  error(S, AL.getLoc(), "'%0' and '%1' cannot be combined on '%2'")
      << nameOf(AL.getAttrName()) << OtherName << nameOf(FD);
  return false;
}

/// Clang parses a lone identifier argument of an attribute it does not know (a
/// plugin's) as an IdentifierLoc, not an Expr: `vectorize(f32)` must be reported
/// here, before anything reads the arguments as expressions.
bool rejectIdentifierArgs(Sema &S, const ParsedAttr &AL, const char *Example) {
  for (unsigned I = 0; I < AL.getNumArgs(); ++I)
    if (AL.isArgIdent(I)) {
      const IdentifierLoc *Id = AL.getArgAsIdent(I);
      error(S, compat::identLocation(Id),
            "'%0' expects a string literal such as %1, not the identifier '%2'")
          << nameOf(AL.getAttrName()) << Example << nameOf(compat::identInfo(Id));
      return false;
    }
  return true;
}

AttributeCommonInfo::Kind kindOf(const ParsedAttrInfo *I) {
  return static_cast<AttributeCommonInfo::Kind>(I->AttrKind);
}

/// Stands in for one of clang's own attribute table entries: behaves like
/// the original in CUDA/RenderScript mode and accepts the spelling in C.
class CSpellingOverride : public ParsedAttrInfo {
public:
  explicit CSpellingOverride(const ParsedAttrInfo &Orig)
      : ParsedAttrInfo(kindOf(&Orig)), Orig(Orig) {
    NumArgs = Orig.NumArgs;
    OptArgs = Orig.OptArgs;
    NumArgMembers = Orig.NumArgMembers;
    HasCustomParsing = Orig.HasCustomParsing;
    AcceptsExprPack = Orig.AcceptsExprPack;
    IsTargetSpecific = Orig.IsTargetSpecific;
    IsType = Orig.IsType;
    IsStmt = Orig.IsStmt;
    IsKnownToGCC = Orig.IsKnownToGCC;
    IsSupportedByPragmaAttribute = Orig.IsSupportedByPragmaAttribute;
    Spellings = Orig.Spellings;
    ArgNames = Orig.ArgNames;
  }

  /// CUDA and OpenCL keep clang's meaning; plain C++ reaches rejectInCxx.
  static bool originalMode(const LangOptions &LO) { return LO.CUDA || LO.OpenCL; }

  bool acceptsLangOpts(const LangOptions &LO) const override {
    return originalMode(LO) ? Orig.acceptsLangOpts(LO) : true;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &AL, const Decl *D) const override {
    if (originalMode(S.getLangOpts()))
      return Orig.diagAppertainsToDecl(S, AL, D);
    if (rejectInCxx(S, AL))
      return false;
    if (AttrKind == AttributeCommonInfo::AT_CUDALaunchBounds && AL.getNumArgs() > 2) {
      error(S, AL.getLoc(), "'launch_bounds' takes at most two values (maximum threads per "
                            "block, minimum blocks per multiprocessor)");
      return false;
    }
    bool WantVar = AttrKind == AttributeCommonInfo::AT_CUDAShared ||
                   AttrKind == AttributeCommonInfo::AT_CUDAConstant;
    // launch_bounds: clang's own handler then checks the arguments and adds
    // CUDALaunchBoundsAttr, which KernelCollector turns into an annotation.
    if (WantVar ? isa<VarDecl>(D) : isa<FunctionDecl>(D))
      return true;
    error(S, AL.getLoc(), "'%0' attribute only applies to %1")
        << nameOf(AL.getAttrName()) << (WantVar ? "variables" : "functions");
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &AL, const Stmt *St) const override {
    return Orig.diagAppertainsToStmt(S, AL, St);
  }

  bool diagMutualExclusion(Sema &S, const ParsedAttr &AL, const Decl *D) const override {
    return Orig.diagMutualExclusion(S, AL, D);
  }

  bool existsInTarget(const TargetInfo &T) const override { return Orig.existsInTarget(T); }

  unsigned spellingIndexToSemanticSpelling(const ParsedAttr &AL) const override {
    return Orig.spellingIndexToSemanticSpelling(AL);
  }

  bool isParamExpr(size_t N) const override { return Orig.isParamExpr(N); }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &AL) const override {
    if (originalMode(S.getLangOpts()) || AttrKind != compat::BuiltinKernelAttr)
      return Orig.handleDeclAttribute(S, D, AL);
    return handleKernel(S, D, AL);
  }

  /// `kernel`: a void, non-variadic function launched from the host.
  static AttrHandling handleKernel(Sema &S, Decl *D, const ParsedAttr &AL) {
    const FunctionDecl *FD = expectFunction(S, D, AL);
    if (!FD)
      return AttributeNotApplied;
    if (!FD->getReturnType()->isVoidType()) {
      error(S, AL.getLoc(), "kernel '%0' must return void (it returns %1); write results "
                            "through a pointer argument")
          << nameOf(FD) << FD->getReturnType();
      return AttributeNotApplied;
    }
    if (FD->isVariadic()) {
      error(S, AL.getLoc(), "kernel '%0' cannot be variadic") << nameOf(FD);
      return AttributeNotApplied;
    }
    if (!checkExclusive(S, FD, AL, AnnotVectorize, "vectorize") ||
        !checkExclusive(S, FD, AL, AnnotGuvectorize, "guvectorize") ||
        !checkExclusive(S, FD, AL, AnnotReduce, "reduce"))
      return AttributeNotApplied;
    annotate(S, D, AL, AnnotKernel);
    return AttributeApplied;
  }

private:
  const ParsedAttrInfo &Orig;
};

/// A kernplug attribute on functions with one GNU spelling.
class FunctionAttrInfo : public ParsedAttrInfo {
public:
  explicit FunctionAttrInfo(ArrayRef<Spelling> S) { Spellings = S; }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &AL, const Decl *D) const override {
    return !rejectInCxx(S, AL) && expectFunction(S, D, AL) != nullptr;
  }
};

constexpr ParsedAttrInfo::Spelling KernelSpelling[] = {{ParsedAttr::AS_GNU, "kernel"}};

/// `kernel` where clang has no attribute of that C spelling (22; 19 resolves it to
/// RenderScript's, which installBuiltinSpellingOverrides takes over instead, and never asks
/// the plugin attributes). CUDA and OpenCL keep clang's "unknown attribute" warning, as the
/// override keeps RenderScript's meaning there.
class KernelAttrInfo : public FunctionAttrInfo {
public:
  KernelAttrInfo() : FunctionAttrInfo(KernelSpelling) {}

  bool acceptsLangOpts(const LangOptions &LO) const override {
    return !CSpellingOverride::originalMode(LO);
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &AL) const override {
    return CSpellingOverride::handleKernel(S, D, AL);
  }
};

constexpr ParsedAttrInfo::Spelling VectorizeSpelling[] = {{ParsedAttr::AS_GNU, "vectorize"}};
constexpr ParsedAttrInfo::Spelling ReduceSpelling[] = {{ParsedAttr::AS_GNU, "reduce"}};

/// vectorize("f32(f32, f32)", …): an element-wise function for ufunc().
class VectorizeAttrInfo : public FunctionAttrInfo {
public:
  VectorizeAttrInfo() : FunctionAttrInfo(VectorizeSpelling) { OptArgs = 15; }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &AL) const override {
    const auto *FD = cast<FunctionDecl>(D);
    if (AL.getNumArgs() == 0) {
      error(S, AL.getLoc(), "'vectorize' needs at least one signature string, e.g. "
                            "vectorize(\"f32(f32)\")");
      return AttributeNotApplied;
    }
    if (!rejectIdentifierArgs(S, AL, "\"f32(f32)\""))
      return AttributeNotApplied;
    if (!checkExclusive(S, FD, AL, AnnotKernel, "kernel") ||
        !checkExclusive(S, FD, AL, AnnotGuvectorize, "guvectorize"))
      return AttributeNotApplied;
    if (!FD->getReturnType()->isArithmeticType()) {
      error(S, AL.getLoc(), "vectorize function '%0' must return an arithmetic value (it "
                            "returns %1)")
          << nameOf(FD) << FD->getReturnType();
      return AttributeNotApplied;
    }
    if (FD->isVariadic()) {
      error(S, AL.getLoc(), "vectorize function '%0' cannot be variadic") << nameOf(FD);
      return AttributeNotApplied;
    }
    for (const ParmVarDecl *P : FD->parameters())
      if (!P->getType()->isArithmeticType()) {
        error(S, P->getLocation(), "parameter '%0' of vectorize function '%1' must have an "
                                   "arithmetic type (it has %2)")
            << nameOf(P) << nameOf(FD) << P->getType();
        return AttributeNotApplied;
      }
    SmallVector<Expr *, 4> Args;
    bool OK = true;
    for (unsigned I = 0; I < AL.getNumArgs(); ++I) {
      Expr *E = AL.getArgAsExpr(I);
      OK &= checkSignature(S, FD, E);
      Args.push_back(E);
    }
    if (!OK)
      return AttributeNotApplied;
    compat::addAnnotationAttr(S, D, AL, AnnotVectorize, MutableArrayRef<Expr *>(Args));
    return AttributeApplied;
  }

  static bool checkSignature(Sema &S, const FunctionDecl *FD, Expr *E) {
    const auto *SL = dyn_cast<StringLiteral>(E->IgnoreParenImpCasts());
    if (!SL || !SL->isOrdinary()) {
      error(S, E->getBeginLoc(), "vectorize signatures must be string literals such as "
                                 "\"f32(f32)\"");
      return false;
    }
    std::string Text = SL->getString().str();
    Signature Sig;
    SignatureError Err;
    if (!parseSignature(Text, Sig, Err)) {
      SourceLocation Loc = SL->getLocationOfByte(
          static_cast<unsigned>(std::min(Err.Offset, Text.size() ? Text.size() - 1 : 0)),
          S.getSourceManager(), S.getLangOpts(), S.Context.getTargetInfo());
      error(S, Loc, "malformed vectorize signature \"%0\": %1") << Text << Err.Message;
      return false;
    }
    if (Sig.Params.size() != FD->getNumParams()) {
      error(S, E->getBeginLoc(), "vectorize signature \"%0\" has %1 argument%s1 but '%2' "
                                 "has %3 parameter%s3")
          << Text << static_cast<unsigned>(Sig.Params.size()) << nameOf(FD) << FD->getNumParams();
      return false;
    }
    return true;
  }
};

/// reduce: T f(T, T), an associative binary operator for kp_reduce().
class ReduceAttrInfo : public FunctionAttrInfo {
public:
  ReduceAttrInfo() : FunctionAttrInfo(ReduceSpelling) {}

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &AL) const override {
    const auto *FD = cast<FunctionDecl>(D);
    if (!checkExclusive(S, FD, AL, AnnotKernel, "kernel") ||
        !checkExclusive(S, FD, AL, AnnotGuvectorize, "guvectorize"))
      return AttributeNotApplied;
    QualType R = FD->getReturnType().getUnqualifiedType();
    bool Shape = FD->getNumParams() == 2 && !FD->isVariadic() && R->isArithmeticType();
    for (unsigned I = 0; Shape && I < 2; ++I)
      Shape = S.Context.hasSameUnqualifiedType(FD->getParamDecl(I)->getType(), R);
    if (!Shape) {
      error(S, AL.getLoc(), "reduce function '%0' must have the form 'T %0(T, T)' with one "
                            "arithmetic type T (it is %1)")
          << nameOf(FD) << FD->getType();
      return AttributeNotApplied;
    }
    annotate(S, D, AL, AnnotReduce);
    return AttributeApplied;
  }
};

constexpr ParsedAttrInfo::Spelling GuvectorizeSpelling[] = {{ParsedAttr::AS_GNU, "guvectorize"}};

/// guvectorize("(i)->()"): a function over blocks of core dimensions for
/// gufunc(). Its parameters are one pointer per operand of the layout (the
/// inputs, then the outputs) and one integer per distinct dimension name in
/// order of first appearance; the pointee types are the element types.
class GuvectorizeAttrInfo : public FunctionAttrInfo {
public:
  GuvectorizeAttrInfo() : FunctionAttrInfo(GuvectorizeSpelling) { OptArgs = 15; }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &AL) const override {
    const auto *FD = cast<FunctionDecl>(D);
    if (AL.getNumArgs() == 0) {
      error(S, AL.getLoc(), "'guvectorize' needs a layout string, e.g. "
                            "guvectorize(\"(n),(n)->()\")");
      return AttributeNotApplied;
    }
    if (!rejectIdentifierArgs(S, AL, "\"(n),(n)->()\""))
      return AttributeNotApplied;
    if (AL.getNumArgs() > 1) {
      // Numba's list of type signatures has no place here: C's types say it.
      error(S, AL.getArgAsExpr(1)->getBeginLoc(),
            "'guvectorize' takes only the layout string; the element types are the "
            "parameter types of '%0'")
          << nameOf(FD);
      return AttributeNotApplied;
    }
    if (!checkExclusive(S, FD, AL, AnnotKernel, "kernel") ||
        !checkExclusive(S, FD, AL, AnnotVectorize, "vectorize") ||
        !checkExclusive(S, FD, AL, AnnotReduce, "reduce"))
      return AttributeNotApplied;
    if (!FD->getReturnType()->isVoidType()) {
      error(S, AL.getLoc(), "guvectorize function '%0' must return void (it returns %1); "
                            "write results through its output operands")
          << nameOf(FD) << FD->getReturnType();
      return AttributeNotApplied;
    }
    if (FD->isVariadic()) {
      error(S, AL.getLoc(), "guvectorize function '%0' cannot be variadic") << nameOf(FD);
      return AttributeNotApplied;
    }
    Expr *E = AL.getArgAsExpr(0);
    const auto *SL = dyn_cast<StringLiteral>(E->IgnoreParenImpCasts());
    if (!SL || !SL->isOrdinary()) {
      error(S, E->getBeginLoc(), "the guvectorize layout must be a string literal such as "
                                 "\"(n),(n)->()\"");
      return AttributeNotApplied;
    }
    std::string Text = SL->getString().str();
    Layout L;
    LayoutError Err;
    if (!parseLayout(Text, L, Err)) {
      SourceLocation Loc = SL->getLocationOfByte(
          static_cast<unsigned>(std::min(Err.Offset, Text.size() ? Text.size() - 1 : 0)),
          S.getSourceManager(), S.getLangOpts(), S.Context.getTargetInfo());
      error(S, Loc, "malformed guvectorize layout \"%0\": %1") << Text << Err.Message;
      return AttributeNotApplied;
    }
    if (!checkPrototype(S, FD, SL, L))
      return AttributeNotApplied;
    Expr *Args[] = {E};
    compat::addAnnotationAttr(S, D, AL, AnnotGuvectorize, MutableArrayRef<Expr *>(Args));
    return AttributeApplied;
  }

  /// The parameters must be the layout's operand pointers, then its sizes.
  static bool checkPrototype(Sema &S, const FunctionDecl *FD, const StringLiteral *SL,
                             const Layout &L) {
    std::string Text = SL->getString().str();
    unsigned NOps = L.numOperands(), NDims = L.DimNames.size();
    if (FD->getNumParams() != NOps + NDims) {
      std::string Names;
      for (const std::string &N : L.DimNames)
        Names += (Names.empty() ? " (" : ", ") + N;
      if (!Names.empty())
        Names += ")";
      error(S, SL->getBeginLoc(), "guvectorize layout \"%0\" has %1 operand%s1 and %2 "
                                  "dimension name%s2%3, so '%4' needs %5 parameter%s5: a "
                                  "pointer per operand, then an integer per dimension name; it "
                                  "has %6")
          << Text << NOps << NDims << Names << nameOf(FD) << NOps + NDims
          << FD->getNumParams();
      return false;
    }
    bool OK = true;
    for (unsigned I = 0; I < NOps; ++I)
      OK &= checkOperand(S, FD, FD->getParamDecl(I), L, I);
    for (unsigned I = 0; I < NDims; ++I)
      OK &= checkSize(S, FD, FD->getParamDecl(NOps + I), L, I);
    return OK;
  }

  static bool checkOperand(Sema &S, const FunctionDecl *FD, const ParmVarDecl *P,
                           const Layout &L, unsigned I) {
    bool Out = L.isOutput(I);
    unsigned Nth = Out ? I - L.Inputs.size() + 1 : I + 1;
    const auto *PT = P->getType()->getAs<PointerType>();
    // A "()" input may be taken by value: one number, the same for every block.
    bool ByValue = !PT && !Out && L.operand(I).Dims.empty();
    if (!PT && !ByValue) {
      error(S, P->getLocation(), "parameter '%0' of guvectorize function '%1' must be a pointer "
                                 "to the elements of %select{input|output}2 %3 (it has type "
                                 "%4)%select{; only a \"()\" input may be a number taken by "
                                 "value|}5")
          << nameOf(P) << nameOf(FD) << Out << Nth << P->getType() << Out;
      return false;
    }
    // The element types gufunc() can pass: C's integers, float and double.
    QualType E = ByValue ? P->getType() : PT->getPointeeType();
    const auto *BT = E->getAs<BuiltinType>();
    bool Number = BT && !E->isEnumeralType() &&
                  ((BT->isInteger() && S.Context.getTypeSize(E) <= 64) ||
                   BT->getKind() == BuiltinType::Float ||
                   BT->getKind() == BuiltinType::Double);
    if (!Number) {
      error(S, P->getLocation(), "parameter '%0' of guvectorize function '%1' must %select{"
                                 "point to integer, float or double elements|be an integer, "
                                 "float or double}3 (it has type %2)")
          << nameOf(P) << nameOf(FD) << P->getType() << ByValue;
      return false;
    }
    if (Out && E.isConstQualified()) {
      error(S, P->getLocation(), "parameter '%0' of guvectorize function '%1' is output %2 of "
                                 "the layout and cannot point to const (it has type %3)")
          << nameOf(P) << nameOf(FD) << Nth << P->getType();
      return false;
    }
    return true;
  }

  static bool checkSize(Sema &S, const FunctionDecl *FD, const ParmVarDecl *P, const Layout &L,
                        unsigned I) {
    const std::string &Dim = L.DimNames[I];
    QualType T = P->getType();
    if (!T->isIntegerType() || T->isBooleanType()) {
      error(S, P->getLocation(), "parameter '%0' of guvectorize function '%1' receives the size "
                                 "of dimension '%2' and must have an integer type (it has type "
                                 "%3)")
          << nameOf(P) << nameOf(FD) << Dim << T;
      return false;
    }
    // Sizes go by position; a parameter named after another dimension is
    // almost certainly in the wrong place.
    std::string Name = nameOf(P);
    if (Name != Dim && std::find(L.DimNames.begin(), L.DimNames.end(), Name) != L.DimNames.end())
      S.Diag(P->getLocation(),
             S.getDiagnostics().getCustomDiagID(
                 DiagnosticsEngine::Warning,
                 "parameter '%0' receives the size of dimension '%1', not of '%0': sizes follow "
                 "the order in which the layout first names them"))
          << Name << Dim;
    return true;
  }
};

ParsedAttrInfoRegistry::Add<KernelAttrInfo> RegisterKernel("kernplug-kernel", "kernplug kernel");
ParsedAttrInfoRegistry::Add<VectorizeAttrInfo> RegisterVectorize("kernplug-vectorize",
                                                                 "kernplug vectorize");
ParsedAttrInfoRegistry::Add<GuvectorizeAttrInfo> RegisterGuvectorize("kernplug-guvectorize",
                                                                     "kernplug guvectorize");
ParsedAttrInfoRegistry::Add<ReduceAttrInfo> RegisterReduce("kernplug-reduce", "kernplug reduce");

} // namespace

bool installBuiltinSpellingOverrides() {
  static bool Done = false;
  static bool Result = false;
  if (Done)
    return Result;
  Done = true;
  ArrayRef<const ParsedAttrInfo *> Table = ParsedAttrInfo::getAllBuiltin();
  SmallVector<AttributeCommonInfo::Kind, 5> Kinds = {AttributeCommonInfo::AT_CUDADevice,
                                                     AttributeCommonInfo::AT_CUDAShared,
                                                     AttributeCommonInfo::AT_CUDALaunchBounds,
                                                     AttributeCommonInfo::AT_CUDAConstant};
  if (compat::BuiltinKernelAttr != AttributeCommonInfo::UnknownAttribute)
    Kinds.push_back(compat::BuiltinKernelAttr);
  // The table is indexed by parsed kind; check that before writing into it.
  for (AttributeCommonInfo::Kind K : Kinds)
    if (static_cast<size_t>(K) >= Table.size() || !Table[K] || Table[K]->AttrKind != K)
      return false;
  auto **Slots = const_cast<const ParsedAttrInfo **>(Table.data());
  for (AttributeCommonInfo::Kind K : Kinds)
    Slots[K] = new CSpellingOverride(*Table[K]);
  Result = true;
  return true;
}

} // namespace kernplug
