//===- CallingConvention.h - kernels with an x86-64 calling convention -*- C++ -*-===//
//
// Device code may use any calling convention clang accepts for x86-64: the host keeps it
// (every call the plugin makes to a user function carries it, useCalleeABI in DevicePass.h)
// and the device module replaces it with PTX's. What the AST side needs for that is here.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CALLINGCONVENTION_H
#define KERNPLUG_PLUGIN_CALLINGCONVENTION_H

#include <string>

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class FunctionDecl;
} // namespace clang

namespace kernplug {

/// The name clang's code generator gives FD in the IR (the pass finds functions by it).
std::string irNameOf(clang::ASTContext &Ctx, const clang::FunctionDecl *FD);

/// Reports, at the attribute, a calling convention kernplug cannot use for FD (a kernel,
/// vectorize, guvectorize or reduce function): swiftcall kernels, any reduce function's.
void checkCallingConvention(clang::DiagnosticsEngine &Diags, const clang::FunctionDecl *FD);

} // namespace kernplug

#endif
