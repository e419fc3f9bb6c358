//===- CpuRangeEntry.h - generated kernels' CPU range entries ---*- C++ -*-===//
//
// A generated kernel's grid-stride loop on the CPU backend runs each GPU
// thread's items strided over the whole array (8 per thread, 2-2.5x an OpenMP
// loop). Its CPU range entry
//
//   void <k>.kp.cpu_range(void **args, i64 begin, i64 end)
//
// is the loop a C programmer would write instead: the same work for every
// index in [begin, end), in order, with the element function inlined, which
// the loop vectoriser turns into vector code (transcendental calls through
// the vector library the user enables, -fveclib=libmvec). The runtime splits
// [0, n) into contiguous chunks over its workers (kp_abi.h:
// kp_kernel_desc.cpu_range_entry). It is a host function only: the device
// module never reaches it.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPURANGEENTRY_H
#define KERNPLUG_PLUGIN_CPURANGEENTRY_H

#include "generated/GridStrideLoop.h"

#include <string>

namespace kernplug {

/// The name of the range entry of the generated kernel KernelName; host-stubs
/// finds the entry by it and puts it in the kernel's descriptor.
std::string cpuRangeEntryName(llvm::StringRef KernelName);

/// Adds Kernel's range entry to its module: loads Kernel's IR parameters from
/// args[] (args[i] points at parameter i, as for the trampoline), runs
/// Prologue once, then Body for each i64 index in [begin, end), ascending.
/// ElementFn is the user's function the body calls: the entry takes its target
/// and floating-point attributes, so that it can be inlined and vectorised
/// with the user's -march and -f options, and honours its optnone (-O0).
llvm::Function *buildCpuRangeEntry(llvm::Function &Kernel, const llvm::Function &ElementFn,
                                   LoopPrologue Prologue, LoopBody Body);

} // namespace kernplug

#endif
