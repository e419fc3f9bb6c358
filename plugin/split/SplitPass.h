//===- SplitPass.h - split mode: keep only the kernel side ------*- C++ -*-===//
//
// -fplugin-arg-kernplug-split=<id>: the object clang writes holds only what kernplug adds
// to a translation unit (launch stubs, CPU entries, descriptors, images, registration), so
// that it can be joined to an object another compiler (GCC, through kernplug-gcc.so) made
// of the same source. The other compiler compiles everything else and leaves the kernel,
// vectorize, guvectorize and reduce functions undefined; these are the roots here.
//
//   kernplug-split        after host-stubs: roots external (a static one renamed
//                         __kp.<id>.<name>, hidden), `constant` variables declarations of
//                         the other compiler's definitions (a static one under the same
//                         hidden name; the device module keeps their initial values),
//                         user constructors, destructors, llvm.used and module asm
//                         removed, everything else internal and dropped unless the roots
//                         or the registration reach it
//   kernplug-split-names  at OptimizerLast: every local symbol prefixed kp.<id>., so that
//                         none clashes with the other compiler's in one assembly file
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_SPLIT_SPLITPASS_H
#define KERNPLUG_SPLIT_SPLITPASS_H

#include "Passes.h"

#include "llvm/IR/PassManager.h"

#include <string>

namespace kernplug {

/// The linkage name a static root or `constant` variable gets in split mode; kernplug-gcc.so
/// gives GCC's declaration (GCC's definition, for a variable) the same one.
std::string splitStaticRootName(const std::string &Id, const std::string &Name);

class SplitHostPass : public llvm::PassInfoMixin<SplitHostPass> {
public:
  explicit SplitHostPass(PassState S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  PassState S;
};

class SplitNamesPass : public llvm::PassInfoMixin<SplitNamesPass> {
public:
  explicit SplitNamesPass(PassState S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  PassState S;
};

} // namespace kernplug

#endif
