//===- UfuncCallChecks.h - ufunc() calls against signatures -----*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_UFUNCCALLCHECKS_H
#define KERNPLUG_PLUGIN_UFUNCCALLCHECKS_H

#include "clang/AST/ASTConsumer.h"

namespace kernplug {

/// Checks every ufunc() call (kp_ufunc_call) whose function is a vectorize
/// function of this translation unit: the argument count and the element
/// types of the output and the array inputs must fit one declared signature.
/// A call that fits none is an error at the ufunc() call. Calls through
/// function pointers are left to the runtime.
class UfuncCallChecksConsumer : public clang::ASTConsumer {
public:
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace kernplug

#endif
