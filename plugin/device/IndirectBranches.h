//===- IndirectBranches.h - computed goto as a switch -----------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_INDIRECTBRANCHES_H
#define KERNPLUG_PLUGIN_INDIRECTBRANCHES_H

namespace llvm {
class Function;
} // namespace llvm

namespace kernplug {

/// Rewrites the label addresses of F (`&&label`, blockaddress) as small
/// integers and each `goto *p` (indirectbr) as a switch over them. Returns
/// whether F changed.
bool expandIndirectBranches(llvm::Function &F);

} // namespace kernplug

#endif
