//===- LaunchBounds.h - launch_bounds and maxrregcount in the IR -*- C++ -*-===//
//
// launch_bounds(max_threads[, min_blocks]) reaches the IR as an annotation
// (attributes/Attributes.h, AnnotLaunchBoundsPrefix). The device module gets
// it as nvvm.annotations (.maxntid / .minnctapersm in the PTX), the kernel's
// descriptor as max_threads / min_blocks (checked at every launch).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_LAUNCHBOUNDS_H
#define KERNPLUG_PLUGIN_LAUNCHBOUNDS_H

#include <cstdint>
#include <map>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace kernplug {

struct LaunchBounds {
  uint64_t MaxThreads = 0; // 0: none
  uint64_t MinBlocks = 0;  // 0: none
};

/// The launch bounds of each annotated function of M; with Remove, the
/// annotations are taken out of llvm.global.annotations.
std::map<const llvm::Function *, LaunchBounds> readLaunchBounds(llvm::Module &M, bool Remove);

/// Records the bounds, and a register limit (0: none), on the device module's
/// kernel F as nvvm.annotations (maxntidx, minctasm, maxnreg).
void annotateDeviceKernel(llvm::Function &F, const LaunchBounds &B, unsigned MaxRegisters);

} // namespace kernplug

#endif
