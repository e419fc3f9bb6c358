//===- CallingConvention.h - kernels with an x86-64 calling convention -*- C++ -*-===//
//
// Device code may use any calling convention clang accepts for x86-64: the host keeps it
// (every call the plugin makes to a user function carries it, useCalleeABI in DevicePass.h)
// and the device module replaces it with PTX's. The few it cannot use are reported here
// (the IR name a convention gives a function is KernelCollector's).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CALLINGCONVENTION_H
#define KERNPLUG_PLUGIN_CALLINGCONVENTION_H

namespace clang {
class DiagnosticsEngine;
class FunctionDecl;
} // namespace clang

namespace kernplug {

/// Reports, at the attribute, a calling convention kernplug cannot use for FD (a kernel,
/// vectorize, guvectorize or reduce function): swiftcall kernels, any reduce function's.
void checkCallingConvention(clang::DiagnosticsEngine &Diags, const clang::FunctionDecl *FD);

} // namespace kernplug

#endif
