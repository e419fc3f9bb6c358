//===- DevicePass.h - the steps the passes are made of ----------*- C++ -*-===//
//
// The passes (Passes.h) clone the device closure of the kernels into an NVPTX
// module, start compiling that to PTX (and cubins) on a second thread
// (DeviceJob.h), then rewrite the host module: each kernel becomes a launch
// stub, its body moves behind a void** trampoline for the CPU backend, and a
// descriptor table is registered from a constructor. This header declares the
// steps they call and the data those steps share.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_DEVICEPASS_H
#define KERNPLUG_PLUGIN_DEVICEPASS_H

#include "Options.h"
#include "frontend/TranslationUnitInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/PassManager.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class GlobalValue;
class Module;
} // namespace llvm

namespace kernplug {

/// How the steps report: errors stop the compilation, notes are remarks (verbose). The
/// passes make one with contextReporter (Diagnostics.h): all of it goes through
/// LLVMContext::diagnose.
struct PassReporter {
  std::function<void(const std::string &)> Error;
  std::function<void(const std::string &)> Note;
  std::function<void(const std::string &)> Warning; // LLVM's warnings about device code
};

/// One IR-level kernel parameter, as the runtime sees it (kp_param_desc).
struct IRParam {
  std::string Name;
  uint64_t Kind = 0; // KP_PARAM_*
  uint64_t Flags = 0;
  uint64_t Size = 0;
  uint64_t ElemSize = 0;
};

/// How the CPU backend enters a kernel (CpuEntryPolicy.h decides).
enum class CpuEntryKind {
  Undecided,
  BlockLoop, // no barriers: a loop over the block's threads
  Split,     // barriers: split into loops over the threads between them, where it can be
  Fibers,    // barriers kept: one fiber per thread
};

/// A kernel the module provides: a user kernel or a generated ufunc kernel.
struct KernelEntry {
  std::string Name;                 // IR, PTX and descriptor name
  llvm::Function *Fn = nullptr;     // host module function with the body
  llvm::Function *HostFn = nullptr; // what users call: the kernel, or the scalar function
  bool IsVectorize = false;
  std::string Signature; // generated kernels: canonical signature (layout for guvectorize)
  uint64_t Flags = 0;    // KP_KERNEL_*
  std::vector<IRParam> Params;
  std::string File;
  unsigned Line = 0;
  CpuEntryKind CpuEntry = CpuEntryKind::Undecided;
  std::string CpuEntryWhy; // Fibers: why
  // What kernplug-cpu-block-entry (BlockLoop) or kernplug-barrier-fission (Split) built; both
  // null where it could not, or for fibers. host-stubs wires them into the descriptor.
  bool CpuEntriesBuilt = false;
  llvm::Function *CpuBlockEntry = nullptr;  // <k>.kp.cpu_block
  llvm::Function *CpuThreadEntry = nullptr; // <k>.kp.cpu through the block entry (BlockLoop)
};

/// An image embedded into the host object (kp_image_desc).
struct DeviceImage {
  uint64_t Kind = 0; // KP_IMAGE_*
  unsigned SM = 0;
  std::string Bytes;
};

// The steps, each in its own file.

/// VectorizeKernels.cpp: adds one element-wise kernel per signature of each
/// vectorize function to the host module.
void addVectorizeKernels(llvm::Module &M, const TranslationUnitInfo &Info,
                         std::vector<KernelEntry> &Kernels, const PassReporter &Report);

/// GuvectorizeKernels.cpp: adds the loop kernel of each guvectorize function
/// to the host module.
void addGuvectorizeKernels(llvm::Module &M, const TranslationUnitInfo &Info,
                           std::vector<KernelEntry> &Kernels, const PassReporter &Report);

/// ReduceKernels.cpp: adds the block-reduction kernel of each reduce function
/// (from the templates in kernplug-reduce.bc) to the host module; once the
/// device code is built, useReduceHostCopies gives each its CPU version.
void addReduceKernels(llvm::Module &M, const TranslationUnitInfo &Info,
                      const PluginOptions &Opts, std::vector<KernelEntry> &Kernels,
                      const PassReporter &Report);
void useReduceHostCopies(llvm::Module &M, const PluginOptions &Opts,
                         std::vector<KernelEntry> &Kernels);

/// KernelParams.cpp: under the Windows x64 convention (ms_abi) clang passes a struct whose
/// size is not 1, 2, 4 or 8 bytes, a _Complex double or an __int128 as a pointer to the
/// caller's copy, which the GPU cannot read. Such a kernel parameter of F becomes byval here,
/// marked with IndirectArgAttr: the device kernel receives the bytes, the CPU body a copy per
/// call, and rewriteHostModule gives the stub its pointer argument back.
extern const char *const IndirectArgAttr;
void passIndirectArgsByValue(llvm::Function &F, const DeviceFunctionInfo &Info);

/// KernelParams.cpp: the IR-level parameter table of a user kernel.
std::vector<IRParam> describeKernelParams(const llvm::Function &F,
                                          const DeviceFunctionInfo &Info);

/// DeviceModule.cpp: clones what the kernels reach into a new module, ready
/// for the NVPTX target (triple, layout, attributes, shared memory, calling
/// convention). Sets KP_KERNEL_USES_* flags on the entries.
/// Exports: `device` functions of this file that other files' device code may call (kept
/// external in the PTX); the kernels' calls of `device` functions defined elsewhere stay
/// declarations, resolved when the runtime links the modules (docs/compiling.md).
std::unique_ptr<llvm::Module> buildDeviceModule(llvm::Module &Host,
                                                std::vector<KernelEntry> &Kernels,
                                                llvm::ArrayRef<llvm::Function *> Exports,
                                                const PluginOptions &Opts,
                                                const PassReporter &Report);


/// DeviceLowering.cpp: printf -> vprintf, memset/memcpy/memmove calls -> LLVM's intrinsics,
/// math calls and intrinsics -> libdevice.
void lowerPrintf(llvm::Module &Dev);
void lowerMemoryCalls(llvm::Module &Dev);
void lowerMathToLibdevice(llvm::Module &Dev);

/// DeviceCodegen.cpp: links the device runtime and libdevice, optimises, and
/// emits PTX plus a cubin per arch. Returns false after reporting an error.
/// Touches nothing but Dev's context: DeviceJob runs it on its own thread.
bool compileDeviceModule(llvm::Module &Dev, const std::vector<std::string> &KernelNames,
                         const PluginOptions &Opts, const PassReporter &Report,
                         std::vector<DeviceImage> &Images);
/// The images compileDeviceModule makes for Opts, in its order, without bytes.
std::vector<DeviceImage> expectedImages(const PluginOptions &Opts);

/// HostSide.cpp: stubs, trampolines, descriptors with the CPU entries the kernels'
/// entries name (kernplug-cpu-block-entry, kernplug-barrier-fission) and the
/// registration constructor; shared arrays become thread-local for the CPU backend.
void rewriteHostModule(llvm::Module &M, std::vector<KernelEntry> &Kernels,
                       const std::vector<DeviceImage> &Images, const std::string &Source);

/// Gives a call the calling convention and parameter attributes (byval, signext, …) of its
/// callee: every call the plugin makes to a user function goes through this.
void useCalleeABI(const llvm::Function *Callee, llvm::CallBase *Call);

/// Takes the kernplug.* annotations out of the host object; they only carried
/// information into the passes.
void removeMarkerAnnotations(llvm::Module &M);

/// Calls Take(global, annotation text) for each entry of llvm.global.annotations;
/// with Remove, the entries Take returned true for are taken out of the table (and
/// the table if it empties).
void takeAnnotations(llvm::Module &M, bool Remove,
                     llvm::function_ref<bool(llvm::GlobalValue *, llvm::StringRef)> Take);

/// The globals annotated with Name in llvm.global.annotations; with Remove,
/// those entries are taken out of the table (and the table if it empties).
std::vector<llvm::GlobalValue *> annotatedGlobals(llvm::Module &M, llvm::StringRef Name,
                                                  bool Remove);

} // namespace kernplug

#endif
