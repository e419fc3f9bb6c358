//===- SharedAtomics.h - kernplug-cpu-shared-atomics ------------*- C++ -*-===//
//
// On the CPU backend no two threads of a block ever run at the same time: one
// worker runs the whole block, its threads one after another (block loops,
// entries split at the barriers) or as fibers that switch only inside barrier
// and warp-collective calls; and each worker has its own copy of a block's
// shared memory (the thread-local copies of `shared` arrays that host-stubs
// makes, marked !kernplug.cpu_shared, and the per-worker buffer that
// kp_dev_dynamic_shared returns), used by one block at a time. So no other
// thread can see a shared location between the load and the store of a
// read-modify-write, and on shared memory a `lock`ed instruction buys nothing:
// this pass turns atomicrmw, cmpxchg, atomic loads and stores and the
// atomic_inc/dec primitives whose address is provably shared memory into plain
// loads and stores (a shared-memory histogram ran 3.7x faster).
//
// Provably shared: a marked global or a kp_dev_dynamic_shared() result, and
// what GEPs, casts, and phis and selects whose every input is shared derive
// from them; a load from a local array that never escapes and holds only
// shared pointers (the entries split at barriers keep such values there); a
// parameter of a local function whose every use is a direct call passing
// shared memory for it. Nothing else is followed through memory, integers or
// returns; anything else keeps its atomic, and so do volatile accesses.
// The device module was cloned before (extract-device): the PTX keeps every
// atomic. Runs at OptimizerEarly, after inlining and SROA have put the CPU
// entries' addresses in SSA form (at -O0 the pointers stay in allocas and
// nothing changes); a remark per function says how many atomics it relaxed.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_SHAREDATOMICS_H
#define KERNPLUG_PLUGIN_CPU_SHAREDATOMICS_H

#include "llvm/IR/PassManager.h"

namespace kernplug {

/// On a global variable: it is a `shared` array's per-worker copy (host-stubs).
extern const char *const CpuSharedMD;
/// On the load and the store that replace an atomic: a read-modify-write that
/// other GPU threads of the block also make. A pass that declares a thread
/// loop's iterations independent (llvm.loop.parallel_accesses) must leave them
/// out of its access groups.
extern const char *const CpuSharedRMWMD;

class CpuSharedAtomicsPass : public llvm::PassInfoMixin<CpuSharedAtomicsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace kernplug

#endif
