//===- Options.h - -fplugin-arg-kernplug-<name>=<value> --------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_OPTIONS_H
#define KERNPLUG_PLUGIN_OPTIONS_H

#include <string>
#include <vector>

namespace kernplug {

struct PluginOptions {
  /// SM numbers, ascending: a cubin for each (when ptxas is available).
  std::vector<unsigned> Archs = {90};
  /// The SM the PTX is generated for; not above Archs.front(), since the cubins are
  /// assembled from it. By default the oldest supported (any newer GPU JIT-compiles it), or
  /// the first of arch= when only that is given.
  unsigned PtxArch = 75;
  bool ArchGiven = false, PtxArchGiven = false;
  bool SaveTemps = false;
  bool Verbose = false;
  unsigned DeviceOptLevel = 3;
  unsigned MaxRegisters = 0;  // maxrregcount=N: .maxnreg N on every kernel; 0: no limit
  bool DebugLineInfo = false; // host -g
  bool ReduceFibers = false;  // CPU backend runs kp_reduce's GPU kernel (tests it)
  bool CpuBarrierFibers = false; // cpu-barriers=fibers: no barrier splitting (tests fibers)
  bool Check = false;         // check: checked CPU entries for KP_CHECK (cpu/CheckedAccess.h)
  /// split=<id>: keep only the kernel side, for kernplug-gcc.so (split/SplitPass.h).
  std::string SplitId;
  bool DeviceFastMath = false; // fast-math: nvcc's --use_fast_math, for device code only
  std::string Libdevice;      // resolved path, empty if not found
  std::string DeviceRuntime;  // resolved path of kernplug-device.bc
  std::string ReduceRuntime;  // resolved path of kernplug-reduce.bc (kp_reduce's kernels)
  std::string Ptxas;          // resolved path, empty if not found
  std::vector<std::string> PtxasOptions; // ptxas-options=: more arguments for ptxas (-Xptxas)
  std::string OutputFile;     // the object clang writes, for save-temps
  std::string MainFile;

  /// Parses one plugin argument; on failure returns false and sets Error.
  bool parse(const std::string &Arg, std::string &Error);
  /// After the last parse: settles PtxArch and checks it against Archs.
  bool finishParsing(std::string &Error);
  /// Fills the paths not given explicitly from the build configuration and
  /// the environment.
  void resolvePaths();
  static std::string archName(unsigned SM);
  /// The SM numbers both this LLVM (19 or 22) and CUDA 13's ptxas accept.
  static const std::vector<unsigned> &supportedArchs();
};

} // namespace kernplug

#endif
