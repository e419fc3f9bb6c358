//===- DeviceChecks.h - what the GPU cannot run, as clang errors -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DEVICECHECKS_H
#define KERNPLUG_PLUGIN_DEVICECHECKS_H

#include "Options.h"
#include "frontend/TranslationUnitInfo.h"

#include "clang/AST/ASTConsumer.h"

#include <memory>

namespace kernplug {

/// Runs before clang's code generator: marks `shared` variables so that the
/// IR pass can find them, checks every function device code reaches, and
/// records kernels and vectorize functions in Info.
class DeviceChecksConsumer : public clang::ASTConsumer {
public:
  DeviceChecksConsumer(const PluginOptions &Opts, std::shared_ptr<TranslationUnitInfo> Info)
      : Opts(Opts), Info(std::move(Info)) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override;
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  const PluginOptions &Opts;
  std::shared_ptr<TranslationUnitInfo> Info;
};

} // namespace kernplug

#endif
