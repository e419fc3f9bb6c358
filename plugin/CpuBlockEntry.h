//===- CpuBlockEntry.h - per-block CPU entries of kernels -------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_CPUBLOCKENTRY_H
#define KERNPLUG_PLUGIN_CPUBLOCKENTRY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace kernplug {

/// Builds the CPU block entries of one host module (kp_cpu_block_fn in
/// runtime/kp_abi.h); clones of shared helpers are made once per module.
class CpuBlockEntryBuilder {
public:
  explicit CpuBlockEntryBuilder(llvm::Module &M) : M(M) {}

  /// void <Name>.kp.cpu_block(void **args, const kp_cpu_thread_range *r) running
  /// Body for each thread of the range, or nullptr when Body reaches an
  /// indirect call (or a call the rewrite cannot handle). Body is left as is.
  llvm::Function *build(llvm::Function *Body, const std::string &Name);

  /// void <Name>.kp.cpu(void **args): the per-thread entry, as the block entry
  /// over the one thread the runtime's kp_cpu_state names.
  llvm::Function *threadEntry(llvm::Function *BlockEntry, const std::string &Name);

private:
  llvm::Function *indexedClone(llvm::Function *F);
  void rewriteClone(llvm::Function *NF, const llvm::SmallPtrSetImpl<llvm::Function *> &Reads);
  llvm::Function *emitLoop(llvm::Function *Body, llvm::Function *BodyClone,
                           const std::string &Name);

  llvm::Module &M;
  llvm::DenseMap<llvm::Function *, llvm::Function *> Clones;
  llvm::SmallVector<llvm::Function *, 8> Pending; // clones not rewritten yet
};

} // namespace kernplug

#endif
