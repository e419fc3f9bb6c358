//===- PluginLoader.cpp - kernplug.so: load the plugin into its clang only -*- C++ -*-===//
//
// What -fplugin= loads. A plugin built for clang 19 that another clang (Debian 12's clang 14,
// clang 22) loads fails inside dlopen with a missing symbol, or loads and crashes on a class
// layout that changed. This file references no Clang or LLVM symbol, so it loads into any
// clang; its constructor asks the process which LLVM it is and loads the real plugin
// (KP_PLUGIN_IMPL, next to this file) only into the clang it was built for. Any other program
// gets one line that names the clang kernplug needs, and exit status 1.
//
// The host's version: LLVMGetVersion (LLVM's C API, LLVM 16 and later), else
// clang::getClangFullVersion() (every clang; its std::string is libstdc++'s, which the host
// clang shares with this file).
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <unistd.h>

#ifndef KP_PLUGIN_CLANG_MAJOR
#error "KP_PLUGIN_CLANG_MAJOR: the clang major version the plugin is built for"
#endif

namespace {

/// The LLVM major version of the program that loaded this file, 0 if it cannot tell;
/// Full gets what it knows about it for the message ("22.1.8").
unsigned hostMajor(std::string &Full) {
  using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);
  if (void *Sym = dlsym(RTLD_DEFAULT, "LLVMGetVersion")) {
    unsigned Major = 0, Minor = 0, Patch = 0;
    reinterpret_cast<GetVersionFn>(Sym)(&Major, &Minor, &Patch);
    Full = std::to_string(Major) + "." + std::to_string(Minor) + "." + std::to_string(Patch);
    return Major;
  }
  using FullVersionFn = std::string (*)();
  if (void *Sym = dlsym(RTLD_DEFAULT, "_ZN5clang19getClangFullVersionB5cxx11Ev")) {
    std::string Text = reinterpret_cast<FullVersionFn>(Sym)();
    size_t At = Text.find("clang version ");
    if (At != std::string::npos) {
      const char *Number = Text.c_str() + At + std::strlen("clang version ");
      Full.assign(Number, std::strcspn(Number, " ("));
      return static_cast<unsigned>(std::strtoul(Number, nullptr, 10));
    }
  }
  return 0;
}

/// This file's path, from which the real plugin's is made.
std::string ownPath() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&ownPath), &Info) || !Info.dli_fname)
    return "kernplug.so";
  return Info.dli_fname;
}

[[noreturn]] void refuse(const std::string &Line) {
  // One line on stderr and a failed compile: clang would go on without the plugin, and
  // kernels would then be warnings ("unknown attribute 'kernel' ignored") and missing stubs.
  std::string Out = Line + "\n";
  ssize_t Ignored = write(STDERR_FILENO, Out.data(), Out.size());
  (void)Ignored;
  _exit(1);
}

__attribute__((constructor)) void loadPluginForThisClang() {
  const std::string Self = ownPath();
  const std::string Needs = std::to_string(KP_PLUGIN_CLANG_MAJOR);
  const std::string Use = "compile with clang " + Needs + " (" KP_PLUGIN_CLANG ") or kpcc";
  std::string Full;
  unsigned Major = hostMajor(Full);
  if (Major != KP_PLUGIN_CLANG_MAJOR) {
    std::string Host = Major ? "clang " + Full : "a program that is not a clang it recognises";
    std::string Other = Major == 19 || Major == 22
                            ? ", or a kernplug built for clang " + std::to_string(Major) +
                                  " (cmake -DKERNPLUG_CLANG_VERSION=" + std::to_string(Major) +
                                  ")"
                            : " (kernplug supports clang 19 and 22)";
    refuse("kernplug: error: " + Self + " is the plugin for clang " + Needs + ", but " + Host +
           " loaded it; " + Use + Other);
  }
  std::string Dir = Self.substr(0, Self.rfind('/') + 1);
  std::string Impl = Dir + KP_PLUGIN_IMPL;
  // As clang loads plugins: lazily, and global so that the plugin's symbols are visible.
  if (!dlopen(Impl.c_str(), RTLD_LAZY | RTLD_GLOBAL)) {
    const char *Why = dlerror();
    refuse("kernplug: error: cannot load the plugin's body " + Impl + ": " +
           (Why ? Why : "unknown error"));
  }
}

} // namespace
