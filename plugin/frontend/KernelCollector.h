//===- KernelCollector.h - what the AST hands the IR passes -----*- C++ -*-===//
//
// The one producer of what the IR passes learn from the AST. It checks
// nothing: DeviceCodeChecks and UfuncCallChecks report what is wrong, and a
// translation unit with errors never reaches the IR passes.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_KERNELCOLLECTOR_H
#define KERNPLUG_PLUGIN_KERNELCOLLECTOR_H

#include "frontend/TranslationUnitInfo.h"

#include "clang/AST/ASTConsumer.h"

#include <memory>
#include <string>

namespace kernplug {

/// Runs before clang's code generator. For each function definition it
/// annotates the `shared` variables inside (`kernplug.shared`: a static
/// local's IR name is only known after code generation, so the IR passes find
/// them by the annotation) and keeps (gu)vectorize functions in the IR even
/// when no C code calls them. At the end of the translation unit it fills Info:
/// the kernels in source order, then the vectorize, guvectorize and reduce
/// functions in source order, each once, from its definition.
class KernelCollector : public clang::ASTConsumer {
public:
  KernelCollector(std::string MainFile, std::shared_ptr<TranslationUnitInfo> Info)
      : MainFile(std::move(MainFile)), Info(std::move(Info)) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override;
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  std::string MainFile;
  std::shared_ptr<TranslationUnitInfo> Info;
};

} // namespace kernplug

#endif
