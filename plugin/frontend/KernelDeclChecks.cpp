//===- KernelDeclChecks.cpp - declarations a launch cannot honour -*- C++ -*-===//
//
// A kernel's host symbol becomes a launch stub that reads its arguments and
// returns to the caller, and its parameters travel in the GPU's parameter
// space. Function attributes that contradict that, and parameter lists the GPU
// cannot take, are reported here at the attribute or the parameter instead of
// crashing the X86 backend (naked), misbehaving at run time (noreturn,
// constructor) or failing in ptxas without a location (parameter space).
//
// Attributes that work on kernels and are left alone: weak (the stub is
// weak), used/retain, section, aligned, visibility, cold/hot, noinline,
// always_inline, target("…") (the CPU copy keeps it, the device drops it).
// target_clones and cpu_dispatch/cpu_specific are rejected by clang itself
// next to the kernel annotation.
//
//===----------------------------------------------------------------------===//
#include "frontend/KernelDeclChecks.h"

#include "attributes/Attributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/Diagnostic.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

using namespace clang;

namespace kernplug {
namespace {

template <unsigned N>
DiagnosticBuilder error(DiagnosticsEngine &Diags, SourceLocation L, const char (&Fmt)[N]) {
  return Diags.Report(L, Diags.getCustomDiagID(DiagnosticsEngine::Error, Fmt));
}

/// Where to point at an attribute A of FD: the attribute if written, else the function.
SourceLocation at(const Attr *A, const FunctionDecl *FD) {
  return A && A->getLocation().isValid() ? A->getLocation() : FD->getLocation();
}

/// Where FD is declared noreturn: `_Noreturn`, `[[noreturn]]`, or GNU
/// `noreturn`, which clang keeps only on the function type.
std::optional<SourceLocation> noReturnLoc(const FunctionDecl *FD) {
  if (!FD->isNoReturn())
    return std::nullopt;
  if (const Attr *A = FD->getAttr<NoReturnAttr>())
    return at(A, FD);
  if (const Attr *A = FD->getAttr<C11NoReturnAttr>())
    return at(A, FD);
  if (const Attr *A = FD->getAttr<CXX11NoReturnAttr>())
    return at(A, FD);
  if (const TypeSourceInfo *TSI = FD->getTypeSourceInfo())
    for (TypeLoc TL = TSI->getTypeLoc(); TL;) {
      auto ATL = TL.getAs<AttributedTypeLoc>();
      if (!ATL)
        break;
      if (ATL.getAttrKind() == attr::NoReturn)
        return at(ATL.getAttr(), FD);
      TL = ATL.getModifiedLoc();
    }
  return FD->getLocation();
}

/// Bytes and alignment of one parameter in PTX parameter space, never less
/// than what NVPTX lays out: host ABI lowering may split a struct into
/// eightbytes or pass it by value in memory (8-byte aligned), and the device
/// data layout aligns integers wider than 64 bits to 16 (a complex float arrives as
/// an 8-aligned pair).
std::pair<uint64_t, uint64_t> paramSpace(const ASTContext &Ctx, QualType T) {
  uint64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
  uint64_t Align = Ctx.getTypeAlignInChars(T).getQuantity();
  bool Scalar = T->isScalarType() && !T->isAnyComplexType() && Size <= 8;
  if (!Scalar) {
    Align = std::max<uint64_t>(Align, T->isIntegerType() ? 16 : 8);
    if (Size <= 16)
      Size = llvm::alignTo(Size, 8);
  }
  return {Size, std::max<uint64_t>(Align, 1)};
}

bool checkParamSpace(const FunctionDecl *FD, DiagnosticsEngine &Diags) {
  const ASTContext &Ctx = FD->getASTContext();
  uint64_t End = 0;
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    if (T->isIncompleteType() || T->isDependentType())
      continue;
    auto [Size, Align] = paramSpace(Ctx, T);
    End = llvm::alignTo(End, Align) + Size;
    if (End <= MaxKernelParamBytes)
      continue;
    error(Diags, P->getLocation(),
          "the parameters of kernel '%0' take %1 bytes up to '%2' (%3 bytes); a GPU kernel's "
          "parameters may take at most %4 bytes in all: pass large data through a pointer to "
          "a device array")
        << nameOf(FD) << End << nameOf(P) << Ctx.getTypeSizeInChars(T).getQuantity()
        << MaxKernelParamBytes;
    return true;
  }
  return false;
}

} // namespace

bool checkDeviceFunctionAttributes(const FunctionDecl *FD, DiagnosticsEngine &Diags) {
  const auto *Naked = FD->getAttr<NakedAttr>();
  if (!Naked)
    return false;
  error(Diags, at(Naked, FD), "'naked' cannot be used on device code ('%0'): a naked function "
                              "is host assembly, and a kernel's host symbol is a launch stub "
                              "that reads its arguments")
      << nameOf(FD);
  return true;
}

bool checkKernelDeclaration(const FunctionDecl *FD, DiagnosticsEngine &Diags) {
  bool Reported = checkDeviceFunctionAttributes(FD, Diags);
  if (std::optional<SourceLocation> L = noReturnLoc(FD)) {
    error(Diags, *L, "kernel '%0' cannot be 'noreturn': launch(%0, ...)(...) returns to "
                            "its caller")
        << nameOf(FD);
    Reported = true;
  }
  if (const Attr *A = FD->getAttr<ConstructorAttr>()) {
    error(Diags, at(A, FD), "kernel '%0' cannot be a constructor: kernels run only through "
                            "launch(%0, blocks, threads)(args...)")
        << nameOf(FD);
    Reported = true;
  }
  if (const Attr *A = FD->getAttr<DestructorAttr>()) {
    error(Diags, at(A, FD), "kernel '%0' cannot be a destructor: kernels run only through "
                            "launch(%0, blocks, threads)(args...)")
        << nameOf(FD);
    Reported = true;
  }
  if (const Attr *A = FD->getAttr<AnyX86InterruptAttr>()) {
    error(Diags, at(A, FD), "kernel '%0' cannot be an interrupt handler") << nameOf(FD);
    Reported = true;
  }
  const Attr *Alias = FD->getAttr<AliasAttr>();
  const Attr *IFunc = FD->getAttr<IFuncAttr>();
  if (Alias || IFunc) {
    // The stub and the GPU code come from the definition; an alias of a kernel
    // (without the attribute) launches that kernel as it is.
    error(Diags, at(Alias ? Alias : IFunc, FD),
          "kernel '%0' cannot be %select{an alias|an ifunc}1: mark the function that has the "
          "body as kernel")
        << nameOf(FD) << (Alias ? 0 : 1);
    Reported = true;
  }
  if (FD->doesThisDeclarationHaveABody() && checkParamSpace(FD, Diags))
    Reported = true;
  return Reported;
}

} // namespace kernplug
