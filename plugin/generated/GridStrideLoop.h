//===- GridStrideLoop.h - the loop of generated kernels ---------*- C++ -*-===//
//
// The element-wise (vectorize) and loop (guvectorize) kernels are both a
// grid-stride loop over [0, n) with n the kernel's first argument (i64); this
// builds that skeleton once, with 64-bit or 32-bit index arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_GRIDSTRIDELOOP_H
#define KERNPLUG_PLUGIN_GRIDSTRIDELOOP_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace kernplug {

/// Adds an internal, nounwind kernel `Name` of type `Ty` (first parameter: i64
/// n) to M. `Prologue` emits loop-invariant code once, in the entry block;
/// `Body` emits the work for index I, and may add blocks. I is an i64, or with
/// IndexBits 32 an unsigned i32: then the caller guarantees n <= 2^30 and a
/// grid of at most n + blockDim.x threads, so that I + stride never wraps
/// (what nvcc's `int i` costs, against 64-bit adds and compares).
llvm::Function *
buildGridStrideKernel(llvm::Module &M, llvm::FunctionType *Ty, const llvm::Twine &Name,
                      llvm::function_ref<void(llvm::IRBuilder<> &B, llvm::Function *K)> Prologue,
                      llvm::function_ref<void(llvm::IRBuilder<> &B, llvm::Function *K,
                                              llvm::Value *I)>
                          Body,
                      unsigned IndexBits = 64);

} // namespace kernplug

#endif
