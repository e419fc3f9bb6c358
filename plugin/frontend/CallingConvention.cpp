//===- CallingConvention.cpp - kernels with an x86-64 calling convention -*- C++ -*-===//
#include "frontend/CallingConvention.h"

#include "attributes/Attributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/Diagnostic.h"

using namespace clang;

namespace kernplug {

/// Where the calling convention of FD was written (it lives on the type, not the decl).
static SourceLocation conventionLoc(const FunctionDecl *FD) {
  if (const TypeSourceInfo *TSI = FD->getTypeSourceInfo())
    for (TypeLoc TL = TSI->getTypeLoc(); !TL.isNull(); TL = TL.getNextTypeLoc())
      if (auto ATL = TL.getAs<AttributedTypeLoc>())
        if (const Attr *A = ATL.getAttr(); A && A->getLocation().isValid())
          return A->getLocation();
  return FD->getLocation();
}

void checkCallingConvention(DiagnosticsEngine &Diags, const FunctionDecl *FD) {
  const auto *FT = FD->getType()->getAs<FunctionType>();
  CallingConv CC = FT ? FT->getCallConv() : CC_C;
  if (CC == CC_C)
    return;
  if (isReduce(FD)) {
    // kp_reduce takes `T (*)(T, T)` and calls it (with kp_reduce_init's value).
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                        "reduce function '%0' cannot use the '%1' calling "
                                        "convention: kp_reduce calls it through a plain C function "
                                        "pointer");
    Diags.Report(conventionLoc(FD), ID) << FD->getName() << FunctionType::getNameForCallConv(CC);
    return;
  }
  // Swift lowering splits a struct into up to four IR arguments or passes it by reference:
  // the launch cannot tell which, so the GPU could get a host address instead of the bytes.
  if (!isKernel(FD) || (CC != CC_Swift && CC != CC_SwiftAsync))
    return;
  unsigned ID = Diags.getCustomDiagID(
      DiagnosticsEngine::Error, "kernel '%0' cannot use the '%1' calling convention; kernels "
                                "may use the default one, ms_abi, sysv_abi, vectorcall, regcall, "
                                "preserve_most, preserve_all, preserve_none or intel_ocl_bicc");
  Diags.Report(conventionLoc(FD), ID) << FD->getName() << FunctionType::getNameForCallConv(CC);
}

} // namespace kernplug
