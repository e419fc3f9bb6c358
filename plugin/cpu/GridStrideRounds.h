//===- GridStrideRounds.h - grid-stride loops of split kernels in rounds -*- C++ -*-===//
//
// A kernel split at its barriers (BarrierFission.cpp) runs each region as a loop over the
// block's threads, each thread to the region's end: a grid-stride loop in a region
//
//   for (int i = grid(1); i < n; i += gridsize(1)) atomic_add(&local[v[i]], 1u);
//
// has every thread walk the whole array, a stride apart (24x OpenMP on the shared-memory
// histogram). This rewrites a copy of the kernel so that the split runs such a loop in
// rounds, round k doing iteration k of every thread of the block: each thread's exit test
// becomes a block vote,
//
//   while (syncthreads_or(i < n)) if (i < n) { body; i += step; }
//
// and the split turns the vote into a region boundary, so that the thread loop is inside
// the rounds: consecutive threads touch consecutive elements.
//
// Legality. Each thread runs exactly its own iterations, in order (a thread whose test
// failed waits: its header is pure, recomputed from unchanged values). Adding a barrier
// that every thread reaches equally often (the vote's count is the same for all) only
// restricts the interleavings of the block's threads, so the result is one the GPU may
// give too, provided no thread waits for another inside the loop and the new order cannot
// be told from the old one. The loop is taken only when it has no barrier, collective, warp
// function, fence, volatile access, atomic stronger than relaxed, or call the analysis cannot
// see into; and it touches shared memory only through relaxed atomic read-modify-writes of
// one commutative kind (add/sub, or, and, xor, min, max) whose results are unused, or only
// reads it: so the bins it leaves are the same in any order. A plain store to shared memory,
// a used atomic result, an exchange or compare-and-swap there keeps the original loop.
// Where the split (Divergence.cpp) cannot prove the votes uniform (the loop is under a
// branch that differs between threads), the split is built from the original kernel.
//
// The rows' loop. When the loop is `for (i = X + threadIdx.x; i < n; i += step)` (X, n, step
// the same in the block) and its code carries nothing but i from one iteration to the next
// and does the same in any thread given i, the first thread of each row runs the row's
// iterations, round by round, each round as one plain loop over its elements, between two
// added barriers: no per-round dispatch, no loop over the threads (the shared-memory
// histogram's loop becomes OpenMP's `bins[v[i]]++`). Each thread's iterations still run in
// its order, after its code before the loop and before its code after it; which thread's
// code runs them cannot be told (it reads no thread index and no per-thread state).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_GRIDSTRIDEROUNDS_H
#define KERNPLUG_PLUGIN_CPU_GRIDSTRIDEROUNDS_H

#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace kernplug {

struct GridStrideRounds {
  /// A simplified copy of the kernel with Loops grid-stride loops in rounds, or null.
  llvm::Function *Body = nullptr;
  unsigned Loops = 0;
  /// Of them, the loops run by each row's first thread as one loop over each round's elements
  /// (their index in 64 bits), the loops counted by the block (their index in 64 bits, the
  /// threads in a thread loop each round), and the others vote.
  unsigned RowRuns = 0;
  unsigned Counted = 0;
  /// Why the first loop counted by the block is not run by the rows' first threads.
  std::string WhyNotRowRun;
  /// Why a grid-stride loop was not put in rounds ("" when there was none).
  std::string WhyNot;
};

/// Builds the copy of Kernel (a kernel body with barriers) whose grid-stride loops run in
/// rounds, where that is proved legal.
GridStrideRounds gridStrideRoundsBody(llvm::Function &Kernel,
                                      llvm::FunctionAnalysisManager &FAM);

/// The remark that says which path the kernel's grid-stride loops took: in rounds, or
/// thread by thread and why (SplitWhyNot: why the split of the copy failed, or "").
void remarkGridStrideRounds(llvm::Function &HostFn, llvm::StringRef Kernel,
                            const GridStrideRounds &R, llvm::StringRef SplitWhyNot);

/// Erases the copy (after the split has been built from it, or has failed).
void eraseGridStrideRoundsBody(GridStrideRounds &R, llvm::FunctionAnalysisManager &FAM);

} // namespace kernplug

#endif
