//===- GridStrideLoop.h - the loops of generated kernels --------*- C++ -*-===//
//
// The element-wise (vectorize) and loop (guvectorize) kernels are both a loop
// over [0, n) with n the kernel's first argument (i64). Each is built twice
// from one description of its work (a prologue and a body over the kernel's
// IR parameters): as the kernel, a grid-stride loop that both backends can
// run, and as its CPU range entry (CpuRangeEntry.h), a plain loop over a
// contiguous range that the CPU backend calls per chunk of [0, n).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_GRIDSTRIDELOOP_H
#define KERNPLUG_PLUGIN_GRIDSTRIDELOOP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace kernplug {

/// Emits loop-invariant code once, before the loop; Args are the kernel's IR
/// parameters (arguments, or values loaded from a void **args array).
using LoopPrologue =
    llvm::function_ref<void(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Args)>;
/// Emits the work for index I (an integer of the loop's width) and may add
/// blocks to the insertion block's function.
using LoopBody = llvm::function_ref<void(llvm::IRBuilder<> &B,
                                         llvm::ArrayRef<llvm::Value *> Args, llvm::Value *I)>;

/// Adds an internal, nounwind kernel `Name` of type `Ty` (first parameter: i64
/// n) to M: a grid-stride loop over [0, n). I is an i64, or with IndexBits 32
/// an unsigned i32: then the caller guarantees n <= 2^30 and a grid of at most
/// n + blockDim.x threads, so that I + stride never wraps (what nvcc's `int i`
/// costs, against 64-bit adds and compares).
llvm::Function *buildGridStrideKernel(llvm::Module &M, llvm::FunctionType *Ty,
                                      const llvm::Twine &Name, LoopPrologue Prologue,
                                      LoopBody Body, unsigned IndexBits = 64);

} // namespace kernplug

#endif
