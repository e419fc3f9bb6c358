//===- DeviceBuiltins.cpp - builtins device code cannot use -----*- C++ -*-===//
//
// Builtins that clang accepts for the host but the GPU cannot run: LLVM 19's
// NVPTX instruction selection dies on them ("Cannot select"), or they become
// calls into host libraries. Each was found by compiling it in a kernel; the
// AST checks report them at the call instead.
//
//===----------------------------------------------------------------------===//
#include "frontend/DeviceBuiltins.h"

#include <utility>

namespace kernplug {

namespace {
constexpr const char *NonLocalJump = "non-local jumps are not supported on the GPU";
constexpr const char *NoAlloca = "GPU threads have no dynamic stack; use an array of constant "
                                 "size, dynamic shared memory or a device array";
constexpr const char *NoVarargs = "variadic arguments are not supported in device code";
constexpr const char *NoCanonicalize = "the GPU backend has no canonicalize instruction";
constexpr const char *HostCpu = "it asks about the host's x86 processor";

// A table rather than StringSwitch::Cases, whose form differs between LLVM 19 and 22.
constexpr std::pair<const char *, const char *> Unsupported[] = {
    {"__builtin_setjmp", NonLocalJump},
    {"__builtin_longjmp", NonLocalJump},
    {"setjmp", NonLocalJump},
    {"_setjmp", NonLocalJump},
    {"__sigsetjmp", NonLocalJump},
    {"longjmp", NonLocalJump},
    {"_longjmp", NonLocalJump},
    {"siglongjmp", NonLocalJump},
    {"__builtin_alloca", NoAlloca},
    {"__builtin_alloca_uninitialized", NoAlloca},
    {"__builtin_alloca_with_align", NoAlloca},
    {"__builtin_alloca_with_align_uninitialized", NoAlloca},
    {"alloca", NoAlloca},
    {"__builtin_va_start", NoVarargs},
    {"__builtin_va_end", NoVarargs},
    {"__builtin_va_copy", NoVarargs},
    {"__builtin_c23_va_start", NoVarargs},
    {"__builtin_set_flt_rounds", "the GPU's rounding mode cannot be changed"},
    {"__builtin_thread_pointer", "the GPU has no thread pointer"},
    {"__builtin_canonicalize", NoCanonicalize},
    {"__builtin_canonicalizef", NoCanonicalize},
    {"__builtin_canonicalizel", NoCanonicalize},
    {"__builtin_canonicalizef16", NoCanonicalize},
    {"__builtin___clear_cache", "the GPU's instruction cache cannot be flushed"},
    {"__builtin_cpu_supports", HostCpu},
    {"__builtin_cpu_is", HostCpu},
    {"__builtin_cpu_init", HostCpu},
};
} // namespace

llvm::StringRef unsupportedBuiltinReason(llvm::StringRef Name) {
  for (const auto &[Builtin, Reason] : Unsupported)
    if (Name == Builtin)
      return Reason;
  return "";
}

} // namespace kernplug
