//===- FlatRowsEdgeCut.h - the flat rows' last piece cut at the problem size -*- C++ -*-===//
//
// FlatBlockRows runs a row of blocks as one loop over the global x in three pieces (first
// block, middle blocks, last block), each versioned by ThreadLoopVersioning: a piece in
// which the kernel's guard `blockIdx.x * blockDim.x + threadIdx.x < n` holds throughout
// runs the guard-free (vectorised) copy, any other the guarded scalar copy. The grid's last
// block is cut by `n`: the 10^3-float vector add's last block ran 256 guarded scalar
// iterations, two thirds of its instructions for a quarter of its work.
//
// Where the body's first branch is such a guard, the flat entry cuts the pieces at the x
// where the guard's bound lies, K = n - (the row's first global x), clamped to the row: the
// three pieces cover [0, K) and a fourth covers [K, len). Legality does not rest on the
// guard: the four pieces run the same threads in the same increasing order as the three
// did, and each piece is still versioned by its own run-time check; the cut only decides
// where a piece ends. Below K the check passes (the guard holds at both ends), so the edge
// block's threads in the domain run the guard-free copy; from K on the guarded copy runs
// the threads the guard sends away, or, where those threads do nothing (the guard's false
// side only returns: EdgeBound::PastIsEmpty), no fourth piece runs: they are skipped, as a
// thread without operations may be.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_FLATROWSEDGECUT_H
#define KERNPLUG_PLUGIN_CPU_FLATROWSEDGECUT_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace llvm {
class Argument;
class Function;
class Value;
} // namespace llvm

namespace kernplug {

/// The body's guard `gx < Param` (gx = blockIdx.x * blockDim.x + threadIdx.x).
struct EdgeBound {
  unsigned ArgNo; // the body's parameter holding the bound
  bool Signed;    // the comparison's signedness
  /// Whether a thread at or past the bound does nothing: the guard's false side returns at
  /// once and what the entry block computes before it has no effect and cannot trap. Then
  /// the threads from the cut on are not run at all (running them would change nothing).
  bool PastIsEmpty = false;
};

/// The bound of the first x-guard on the entry block's branch of Work (a simplified copy
/// of a body whose last parameter is Idx, the index array), as a leaf that must be true:
/// `gx < p`, `gx <u p` or the same swapped, p a parameter other than Idx (through an
/// extension). IsGlobalX says whether a value is gx. std::nullopt for anything else.
std::optional<EdgeBound>
findEdgeBound(llvm::Function &Work, const llvm::Argument *Idx,
              llvm::function_ref<bool(const llvm::Value *)> IsGlobalX);

} // namespace kernplug

#endif
