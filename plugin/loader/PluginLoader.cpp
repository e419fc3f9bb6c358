//===- PluginLoader.cpp - kernplug.so: load the plugin into its clang only -*- C++ -*-===//
//
// What -fplugin= loads. A plugin built for clang 19 that another clang (Debian 12's clang 14,
// clang 22) loads fails inside dlopen with a missing symbol, or loads and crashes on a class
// layout that changed. This file references no Clang or LLVM symbol, so it loads into any
// clang; its constructor asks the process which LLVM it is and loads the real plugin
// (KP_PLUGIN_IMPL, next to this file) only into the clang it was built for. Any other program
// gets one line that names the clang kernplug needs, and exit status 1.
//
//===----------------------------------------------------------------------===//
#include "loader/LoaderCommon.h"

#ifndef KP_PLUGIN_CLANG_MAJOR
#error "KP_PLUGIN_CLANG_MAJOR: the clang major version the plugin is built for"
#endif

namespace {

using namespace kernplug::loader;

__attribute__((constructor)) void loadPluginForThisClang() {
  std::string Self = pathOf(reinterpret_cast<void *>(&loadPluginForThisClang));
  if (Self.empty())
    Self = "kernplug.so";
  const std::string Needs = std::to_string(KP_PLUGIN_CLANG_MAJOR);
  const std::string Use = "compile with clang " + Needs + " (" KP_PLUGIN_CLANG ") or kpcc";
  std::string Full;
  unsigned Major = hostMajor(Full);
  if (Major != KP_PLUGIN_CLANG_MAJOR) {
    std::string Host = Major ? "clang " + Full : "a program that is not a clang it recognises";
    refuse("kernplug: error: " + Self + " is the plugin for clang " + Needs + ", but " + Host +
           " loaded it; " + Use + otherBuild("clang", Major));
  }
  loadBeside(Self, KP_PLUGIN_IMPL, "the plugin's body");
}

} // namespace
