//===- GridStrideLoop.h - the loop of generated kernels ---------*- C++ -*-===//
//
// The element-wise (vectorize) and loop (guvectorize) kernels are both a
// grid-stride loop over [0, n) with n the kernel's first argument; this
// builds that skeleton once.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_GRIDSTRIDELOOP_H
#define KERNPLUG_PLUGIN_GRIDSTRIDELOOP_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace kernplug {

/// Adds an internal, nounwind kernel `Name` of type `Ty` (first parameter: i64
/// n) to M. `Prologue` emits loop-invariant code once, in the entry block;
/// `Body` emits the work for index I (i64), and may add blocks.
llvm::Function *
buildGridStrideKernel(llvm::Module &M, llvm::FunctionType *Ty, const llvm::Twine &Name,
                      llvm::function_ref<void(llvm::IRBuilder<> &B, llvm::Function *K)> Prologue,
                      llvm::function_ref<void(llvm::IRBuilder<> &B, llvm::Function *K,
                                              llvm::Value *I)>
                          Body);

} // namespace kernplug

#endif
