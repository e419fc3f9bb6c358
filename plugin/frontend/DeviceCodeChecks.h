//===- DeviceCodeChecks.h - what the GPU cannot run, as clang errors -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DEVICECODECHECKS_H
#define KERNPLUG_PLUGIN_DEVICECODECHECKS_H

#include "Options.h"

#include "clang/AST/ASTConsumer.h"

namespace kernplug {

/// Checks, at the end of the translation unit, every function device code
/// reaches and every kernel declaration, and reports what the GPU cannot run
/// as clang errors. It only reports: what the IR passes read comes from
/// KernelCollector.
class DeviceCodeChecks : public clang::ASTConsumer {
public:
  explicit DeviceCodeChecks(const PluginOptions &Opts) : Opts(Opts) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  const PluginOptions &Opts;
};

} // namespace kernplug

#endif
