//===- TranslationUnitInfo.h - what the AST hands the IR passes -*- C++ -*-===//
//
// Plain data only: the AST may be gone by the time the IR passes run.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_TRANSLATIONUNITINFO_H
#define KERNPLUG_PLUGIN_TRANSLATIONUNITINFO_H

#include <cstdint>
#include <string>
#include <vector>

namespace kernplug {

/// One C parameter of a kernel or vectorize function.
struct ParamInfo {
  enum Kind { Scalar, Pointer, Struct };
  std::string Name;
  Kind TheKind = Scalar;
  bool PointeeConst = false; // Pointer: `const T *`
  bool IsSigned = false;     // Scalar integers
  bool IsFloat = false;      // Scalar floating point
  uint64_t Size = 0;         // bytes of the C type
  uint64_t Align = 1;        // its alignment in bytes
  uint64_t ElemSize = 0;     // Pointer: bytes of the pointee (0 if unknown)
};

/// A kernel or a vectorize function, keyed by its IR name.
struct DeviceFunctionInfo {
  enum Role { Kernel, Vectorize, Guvectorize, Reduce };
  std::string IRName;
  Role TheRole = Kernel;
  std::vector<ParamInfo> Params;
  ParamInfo Result;                    // Vectorize: the C return type
  std::vector<std::string> Signatures; // Vectorize: as written, in order; Guvectorize: the layout
  std::string File;
  unsigned Line = 0;
};

/// Everything the IR passes learn from the AST; KernelCollector fills it.
struct TranslationUnitInfo {
  std::string MainFile;
  std::vector<DeviceFunctionInfo> Functions; // kernels, then the others; each in source order
  // Separate compilation (docs/compiling.md): `device` functions defined here with external
  // linkage, which other files' device code may call, and `device` functions declared here
  // and defined elsewhere; IR names, in source order.
  std::vector<std::string> DeviceExports, DeviceImports;
};

} // namespace kernplug

#endif
