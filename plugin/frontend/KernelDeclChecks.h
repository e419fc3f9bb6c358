//===- KernelDeclChecks.h - declarations a launch cannot honour -*- C++ -*-===//
#ifndef KERNPLUG_PLUGIN_KERNELDECLCHECKS_H
#define KERNPLUG_PLUGIN_KERNELDECLCHECKS_H

#include <cstdint>

namespace clang {
class DiagnosticsEngine;
class FunctionDecl;
} // namespace clang

namespace kernplug {

/// Bytes of parameters a kernel may take in all: what ptxas accepts for the
/// PTX ISA versions kernplug emits (6.3 for sm_75 … 7.8 for sm_90; 8.1 would
/// allow 32764 but needs a CUDA 12.1 driver). Measured with ptxas 13:
/// "uses too much parameter space (0x1108 bytes, 0x1100 max)".
constexpr uint64_t MaxKernelParamBytes = 4352;

/// Reports, at the attribute or the parameter, what makes a kernel's launch
/// stub impossible: naked, noreturn, constructor/destructor, interrupt,
/// alias/ifunc, parameters over MaxKernelParamBytes. Returns whether it did.
bool checkKernelDeclaration(const clang::FunctionDecl *FD, clang::DiagnosticsEngine &Diags);

/// The same for any function device code reaches: `naked` (its body would be
/// host assembly).
bool checkDeviceFunctionAttributes(const clang::FunctionDecl *FD,
                                   clang::DiagnosticsEngine &Diags);

} // namespace kernplug

#endif
