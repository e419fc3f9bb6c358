//===- KernelCollector.cpp - what the AST hands the IR passes ---*- C++ -*-===//
//
// The AST may be gone by the time the IR passes run, so everything they need
// about a kernel, vectorize, guvectorize or reduce function is copied into
// TranslationUnitInfo as plain data: its IR name, C parameters, signatures
// and where it is written.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelCollector.h"

#include "attributes/Attributes.h"

#include "llvm/ADT/StringSet.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace kernplug {
namespace {

/// Adds the annotation the IR passes look for to each `shared` variable.
class SharedMarker : public RecursiveASTVisitor<SharedMarker> {
public:
  explicit SharedMarker(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasAttr<CUDASharedAttr>() && !findAnnotation(VD, AnnotShared))
      VD->addAttr(AnnotateAttr::CreateImplicit(Ctx, AnnotShared, nullptr, 0));
    return true;
  }

private:
  ASTContext &Ctx;
};

/// launch_bounds(max_threads[, min_blocks]) as the annotation the IR passes read
/// (plugin/LaunchBounds.h); values LaunchArgChecks rejects are left out.
void markLaunchBounds(FunctionDecl *FD) {
  uint64_t Max = 0, Min = 0;
  if (!launchBoundsOf(FD, Max, Min) || !Max || Min == ~uint64_t(0))
    return;
  std::string Text = std::string(AnnotLaunchBoundsPrefix) + std::to_string(Max) + "," +
                     std::to_string(Min);
  for (const auto *A : FD->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Text)
      return;
  FD->addAttr(AnnotateAttr::CreateImplicit(FD->getASTContext(), Text, nullptr, 0));
}

/// The name clang's code generator gives FD in the IR (the passes find functions by it).
std::string irNameOf(ASTContext &Ctx, const FunctionDecl *FD) {
  std::string Name = ASTNameGenerator(Ctx).getName(FD);
  // In C, clang's code generator (not the AST mangler) prefixes regcall functions.
  const auto *FT = FD->getType()->getAs<FunctionType>();
  if (FT && FT->getCallConv() == CC_X86RegCall && FD->getIdentifier() && Name == FD->getName())
    return (Ctx.getLangOpts().RegCall4 ? "__regcall4__" : "__regcall3__") + Name;
  return Name;
}

ParamInfo describeParam(ASTContext &Ctx, StringRef Name, QualType T) {
  ParamInfo P;
  P.Name = Name.str();
  T = T.getCanonicalType();
  P.Size = T->isIncompleteType() ? 0 : Ctx.getTypeSizeInChars(T).getQuantity();
  P.Align = T->isIncompleteType() ? 1 : Ctx.getTypeAlignInChars(T).getQuantity();
  if (const auto *PT = T->getAs<PointerType>()) {
    P.TheKind = ParamInfo::Pointer;
    QualType Pointee = PT->getPointeeType();
    P.PointeeConst = Pointee.isConstQualified();
    if (!Pointee->isIncompleteType() && !Pointee->isFunctionType())
      P.ElemSize = Ctx.getTypeSizeInChars(Pointee).getQuantity();
  } else if (T->isRecordType() || T->isArrayType()) {
    P.TheKind = ParamInfo::Struct;
  } else {
    P.IsFloat = T->isRealFloatingType();
    P.IsSigned = T->isSignedIntegerOrEnumerationType();
  }
  return P;
}

DeviceFunctionInfo describeFunction(ASTContext &Ctx, const FunctionDecl *FD) {
  DeviceFunctionInfo F;
  F.IRName = irNameOf(Ctx, FD);
  F.TheRole = isKernel(FD)        ? DeviceFunctionInfo::Kernel
              : isVectorize(FD)   ? DeviceFunctionInfo::Vectorize
              : isGuvectorize(FD) ? DeviceFunctionInfo::Guvectorize
                                  : DeviceFunctionInfo::Reduce;
  for (const ParmVarDecl *P : FD->parameters())
    F.Params.push_back(describeParam(Ctx, P->getName(), P->getType()));
  F.Result = describeParam(Ctx, "", FD->getReturnType());
  const AnnotateAttr *A = findAnnotation(FD, AnnotVectorize);
  if (!A)
    A = findAnnotation(FD, AnnotGuvectorize); // its one argument is the layout
  if (A)
    for (Expr *E : A->args())
      if (const auto *SL = dyn_cast<StringLiteral>(E->IgnoreParenImpCasts()))
        F.Signatures.push_back(SL->getString().str());
  PresumedLoc PL = Ctx.getSourceManager().getPresumedLoc(FD->getLocation());
  if (PL.isValid()) {
    F.File = PL.getFilename();
    F.Line = PL.getLine();
  }
  return F;
}

/// The `device` functions this file exports to other files' device code (defined here, not
/// static) and imports from them (declared `device`, defined nowhere in this file).
void collectDeviceLinkage(ASTContext &Ctx, TranslationUnitInfo &Info) {
  llvm::StringSet<> Seen;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->hasAttr<CUDADeviceAttr>() || !FD->getIdentifier() ||
        !Seen.insert(FD->getName()).second)
      continue;
    if (const FunctionDecl *Def = FD->getDefinition()) {
      if (Def->isExternallyVisible() && !Def->isInlined() && !isKernel(Def))
        Info.DeviceExports.push_back(FD->getName().str());
    } else if (!FD->getBuiltinID()) {
      Info.DeviceImports.push_back(FD->getName().str());
    }
  }
}

} // namespace

bool KernelCollector::HandleTopLevelDecl(DeclGroupRef DG) {
  // Runs before clang's code generator sees the declaration, so the
  // annotation reaches the IR of the function's static locals.
  for (Decl *D : DG) {
    // A file-scope `constant` variable: the IR passes find it by its annotation.
    if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasAttr<CUDAConstantAttr>() &&
                                         !findAnnotation(VD, AnnotConstant))
      VD->addAttr(AnnotateAttr::CreateImplicit(VD->getASTContext(), AnnotConstant, nullptr, 0));
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody())
      continue;
    SharedMarker(FD->getASTContext()).TraverseDecl(FD);
    markLaunchBounds(FD);
    // ufunc()/gufunc() reach a (gu)vectorize function only through the
    // generated kernels, so clang must emit it even when C code never calls it.
    if ((isVectorize(FD) || isGuvectorize(FD)) && !FD->hasAttr<UsedAttr>())
      FD->addAttr(UsedAttr::CreateImplicit(FD->getASTContext()));
  }
  return true;
}

void KernelCollector::HandleTranslationUnit(ASTContext &Ctx) {
  Info->MainFile = MainFile;
  // Kernels first, then the others, each in source order: the IR passes take
  // each role's functions in this order, and the error about disabled LLVM
  // passes names the first entry (a kernel when there is one). Only a
  // definition is collected (once, however often the function is declared);
  // a kernel defined elsewhere has no code here.
  for (bool Kernels : {true, false})
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (!FD || !FD->doesThisDeclarationHaveABody() || isKernel(FD) != Kernels)
        continue;
      if (isKernel(FD) || isVectorize(FD) || isGuvectorize(FD) || isReduce(FD))
        Info->Functions.push_back(describeFunction(Ctx, FD));
    }
  collectDeviceLinkage(Ctx, *Info);
}

} // namespace kernplug
