//===- RangeSplitPolicy.cpp - which thread-index branches to split at -*- C++ -*-===//
#include "cpu/RangeSplitPolicy.h"
#include "cpu/ThreadRangeSplit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace kernplug {
namespace {

/// Whether V is computed (without memory) from a kernel parameter other than Idx. Budget
/// bounds the walk; running out answers no, which keeps the split.
bool readsParameter(Value *V, const Argument *Idx, SmallPtrSetImpl<Value *> &Seen,
                    unsigned &Budget) {
  if (auto *A = dyn_cast<Argument>(V))
    return A != Idx;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<LoadInst, CallBase, AllocaInst>(I) || Budget == 0 || !Seen.insert(I).second)
    return false;
  --Budget;
  return any_of(I->operands(),
                [&](Value *Op) { return readsParameter(Op, Idx, Seen, Budget); });
}

} // namespace

bool isProblemSizeGuard(const IndexRange &R, const Argument *Idx) {
  return !R.XLeaves.empty() && all_of(R.XLeaves, [&](const IndexLeaf &Lf) {
    SmallPtrSet<Value *, 16> Seen;
    unsigned Budget = 32;
    return readsParameter(Lf.Bound, Idx, Seen, Budget) ||
           any_of(Lf.Terms, [&](const std::pair<bool, Value *> &T) {
             return readsParameter(T.second, Idx, Seen, Budget);
           });
  });
}

} // namespace kernplug
