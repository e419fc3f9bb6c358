//===- RangeSplitPolicy.h - which thread-index branches to split at -*- C++ -*-===//
//
// A region's loop over x split at a branch on threadIdx.x (ThreadRangeSplit.h) is up to
// three loops, each versioned by ThreadLoopVersioning and vectorised: for the 16x16 tiled
// matmul, most of its CPU entry's code and about 60 ms of host compile time per kernel
// (2026-11-25, AMD EPYC). It pays where the interval ends inside a row in most blocks (a
// tree reduction's `tid < stride`, a scan's `tid >= offset`). A bound that reads a kernel
// parameter is the problem size (`ac < n`, `gx < cols`): the interval ends inside a row only
// in the blocks at the domain's edge, and every other block's loop runs ThreadLoopVersioning's
// guard-free copy whole without the split. Those branches are left in the loop.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_RANGESPLITPOLICY_H
#define KERNPLUG_PLUGIN_CPU_RANGESPLITPOLICY_H

namespace llvm {
class Argument;
} // namespace llvm

namespace kernplug {

struct IndexRange;

/// Whether every x leaf of R compares threadIdx.x (plus its terms) with a bound computed
/// from a parameter of the kernel (not Idx, the index array): a guard against the problem
/// size, whose interval covers whole rows except at the domain's edge. Values read from
/// memory (saved across a barrier, loaded from a struct) count as not from a parameter, so
/// such leaves keep their split.
bool isProblemSizeGuard(const IndexRange &R, const llvm::Argument *Idx);

} // namespace kernplug

#endif
