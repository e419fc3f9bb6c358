//===- DeviceBuiltins.cpp - builtins device code cannot use -----*- C++ -*-===//
//
// Builtins that clang accepts for the host but the GPU cannot run: LLVM 19's
// NVPTX instruction selection dies on them ("Cannot select"), or they become
// calls into host libraries. Each was found by compiling it in a kernel; the
// AST checks report them at the call instead.
//
//===----------------------------------------------------------------------===//
#include "frontend/DeviceBuiltins.h"

#include "llvm/ADT/StringSwitch.h"

namespace kernplug {

llvm::StringRef unsupportedBuiltinReason(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Cases("__builtin_setjmp", "__builtin_longjmp", "setjmp", "_setjmp", "__sigsetjmp",
             "non-local jumps are not supported on the GPU")
      .Cases("longjmp", "_longjmp", "siglongjmp",
             "non-local jumps are not supported on the GPU")
      .Cases("__builtin_alloca", "__builtin_alloca_uninitialized", "__builtin_alloca_with_align",
             "__builtin_alloca_with_align_uninitialized", "alloca",
             "GPU threads have no dynamic stack; use an array of constant size, dynamic shared "
             "memory or a device array")
      .Cases("__builtin_va_start", "__builtin_va_end", "__builtin_va_copy",
             "__builtin_c23_va_start", "variadic arguments are not supported in device code")
      .Case("__builtin_set_flt_rounds", "the GPU's rounding mode cannot be changed")
      .Case("__builtin_thread_pointer", "the GPU has no thread pointer")
      .Cases("__builtin_canonicalize", "__builtin_canonicalizef", "__builtin_canonicalizel",
             "__builtin_canonicalizef16", "the GPU backend has no canonicalize instruction")
      .Case("__builtin___clear_cache", "the GPU's instruction cache cannot be flushed")
      .Cases("__builtin_cpu_supports", "__builtin_cpu_is", "__builtin_cpu_init",
             "it asks about the host's x86 processor")
      .Default("");
}

} // namespace kernplug
