//===- LaunchArgChecks.h - kernel arguments of incompatible pointer type -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_LAUNCHARGCHECKS_H
#define KERNPLUG_PLUGIN_LAUNCHARGCHECKS_H

#include "clang/AST/ASTConsumer.h"

namespace kernplug {

/// C lets a call pass an `int *` for a `float *` parameter with only a warning
/// (-Wincompatible-pointer-types); for a kernel launch that is silent wrong data
/// on the device. Every call of a kernel (launch(k, ...)(args), forall, a
/// kp_generic instance, or a plain call) whose argument converts implicitly
/// between pointers to incompatible types is an error at the argument naming
/// the kernel and the parameter. void pointers convert as C allows.
class LaunchArgChecksConsumer : public clang::ASTConsumer {
public:
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace kernplug

#endif
