//===- MathFunctions.h - C library functions device code may call -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_MATHFUNCTIONS_H
#define KERNPLUG_PLUGIN_MATHFUNCTIONS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace kernplug {

/// The libdevice function implementing the C library function Name (e.g.
/// "expf" -> "__nv_expf") or the kernplug/cuda_math.h function Name ("kp_rsqrtf" ->
/// "__nv_rsqrtf", "kp_fast_expf" -> "__nv_fast_expf"), or "" if libdevice has none.
std::string libdeviceNameFor(llvm::StringRef Name);

/// Under -ffast-math (a call with the approximate-functions flag): the fast libdevice version of
/// a float function named by its C name ("expf" -> "__nv_fast_expf"), or "" if it has none.
std::string fastLibdeviceNameFor(llvm::StringRef Name);

/// The libdevice function for a math intrinsic base name and the width of its
/// floating-point operand ("exp", 32 -> "__nv_expf"; "lround", 64 ->
/// "__nv_llround"), or "" if NVPTX lowers it natively.
std::string libdeviceNameForIntrinsic(llvm::StringRef Base, unsigned Bits);

/// Functions device code may call without a definition in the translation
/// unit because the device runtime or the lowering provides them, and the
/// builtins (named without "__builtin_") that clang expands inline.
bool isDeviceRuntimeFunction(llvm::StringRef Name);

} // namespace kernplug

#endif
