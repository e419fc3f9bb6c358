//===- PassesLoader.cpp - kernplug-passes.so: the passes, into their opt only -*- C++ -*-===//
//
// What `opt -load-pass-plugin=` loads. The passes built for LLVM 19 fail inside opt-22's
// dlopen with "undefined symbol: _ZTVN4llvm17SimpleCaptureInfoE" (and the other way round
// they may load and crash on a changed class layout). This file references no LLVM symbol, so
// it loads into any opt; its constructor asks the process which LLVM it is and loads the
// passes (KP_PASSES_IMPL, next to this file) only into the LLVM they were built for; any other
// gets one line naming the opt to use, and exit status 1. opt then asks this file for
// llvmGetPassPluginInfo, which it forwards to the passes' own.
//
//===----------------------------------------------------------------------===//
#include "loader/LoaderCommon.h"

#include <cstdint>

#ifndef KP_PASSES_LLVM_MAJOR
#error "KP_PASSES_LLVM_MAJOR: the LLVM major version the passes are built for"
#endif

namespace {

using namespace kernplug::loader;

void *PassesImpl = nullptr;

__attribute__((constructor)) void loadPassesForThisOpt() {
  std::string Self = pathOf(reinterpret_cast<void *>(&loadPassesForThisOpt));
  if (Self.empty())
    Self = "kernplug-passes.so";
  const std::string Needs = std::to_string(KP_PASSES_LLVM_MAJOR);
  std::string Full;
  unsigned Major = hostMajor(Full);
  if (Major != KP_PASSES_LLVM_MAJOR) {
    std::string Host =
        Major ? "LLVM " + Full : "an LLVM that does not report its version (15 or older)";
    refuse("kernplug: error: " + Self + " holds the passes for LLVM " + Needs + ", but " + Host +
           " loaded it; run opt-" + Needs + " (" KP_PASSES_OPT ")" + otherBuild("LLVM", Major));
  }
  PassesImpl = loadBeside(Self, KP_PASSES_IMPL, "the passes");
}

} // namespace

/// llvm::PassPluginLibraryInfo, a plain C struct that is the same in LLVM 19 and 22 (the
/// passes check LLVM_PLUGIN_API_VERSION themselves); declared here so that this file needs no
/// LLVM header.
struct PassPluginLibraryInfo {
  uint32_t APIVersion;
  const char *PluginName;
  const char *PluginVersion;
  void (*RegisterPassBuilderCallbacks)(void *PassBuilder);
};

extern "C" __attribute__((visibility("default"))) PassPluginLibraryInfo llvmGetPassPluginInfo() {
  using InfoFn = PassPluginLibraryInfo (*)();
  auto Impl = reinterpret_cast<InfoFn>(dlsym(PassesImpl, "llvmGetPassPluginInfo"));
  if (!Impl)
    refuse("kernplug: error: the passes (" KP_PASSES_IMPL ") have no llvmGetPassPluginInfo");
  return Impl();
}
