//===- DeviceBuiltins.h - builtins device code cannot use -------*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_DEVICEBUILTINS_H
#define KERNPLUG_PLUGIN_DEVICEBUILTINS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace kernplug {

/// Why device code cannot call the builtin or C library function Name
/// ("__builtin_setjmp"), or "" when nothing is known against it.
llvm::StringRef unsupportedBuiltinReason(llvm::StringRef Name);

/// Whether the GPU has atomic instructions for a value of Bytes bytes; other
/// sizes become calls to libatomic (__atomic_load_16, …), which it has not.
inline bool isDeviceAtomicSize(uint64_t Bytes) {
  return Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8;
}

} // namespace kernplug

#endif
