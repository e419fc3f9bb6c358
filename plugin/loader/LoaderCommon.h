//===- LoaderCommon.h - what the two loaders share --------------*- C++ -*-===//
//
// kernplug.so (PluginLoader.cpp, for clang) and kernplug-passes.so (PassesLoader.cpp, for
// opt) each reference no Clang or LLVM symbol, so they load into any version; they ask the
// process which LLVM it is and load the real library next to them only into the version it
// was built for. Everything here is header-only: each loader is one small file.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_LOADER_LOADERCOMMON_H
#define KERNPLUG_PLUGIN_LOADER_LOADERCOMMON_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <unistd.h>

namespace kernplug {
namespace loader {

/// The LLVM major version of the program that loaded this file, 0 if it cannot tell;
/// Full gets what it knows about it for the message ("22.1.8"). LLVMGetVersion is LLVM's C
/// API (LLVM 16 and later: opt and clang through libLLVM); else clang::getClangFullVersion()
/// (every clang; its std::string is libstdc++'s, which the host clang shares with this file).
inline unsigned hostMajor(std::string &Full) {
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

/// The path of the shared object that holds Address (the loader's own), "" if unknown.
inline std::string pathOf(const void *Address) {
  Dl_info Info;
  if (!dladdr(Address, &Info) || !Info.dli_fname)
    return "";
  return Info.dli_fname;
}

/// One line on stderr and exit status 1: the host would otherwise go on without the library
/// (clang: kernels become "unknown attribute" warnings) or fail on a missing symbol.
[[noreturn]] inline void refuse(const std::string &Line) {
  std::string Out = Line + "\n";
  ssize_t Ignored = write(STDERR_FILENO, Out.data(), Out.size());
  (void)Ignored;
  _exit(1);
}

/// ", or a kernplug built for <Tool> N (cmake -DKERNPLUG_CLANG_VERSION=N)" for a version
/// kernplug supports, else which it supports.
inline std::string otherBuild(const char *Tool, unsigned Major) {
  if (Major == 19 || Major == 22)
    return std::string(", or a kernplug built for ") + Tool + " " + std::to_string(Major) +
           " (cmake -DKERNPLUG_CLANG_VERSION=" + std::to_string(Major) + ")";
  return std::string(" (kernplug supports ") + Tool + " 19 and 22)";
}

/// Loads Impl, the file named so next to the loader at Self, as the host loads plugins
/// (lazily, and global so that its symbols are visible); refuses when it cannot. What names
/// it in that message.
inline void *loadBeside(const std::string &Self, const char *Impl, const char *What) {
  std::string Path = Self.substr(0, Self.rfind('/') + 1) + Impl;
  void *Handle = dlopen(Path.c_str(), RTLD_LAZY | RTLD_GLOBAL);
  if (!Handle) {
    const char *Why = dlerror();
    refuse(std::string("kernplug: error: cannot load ") + What + " " + Path + ": " +
           (Why ? Why : "unknown error"));
  }
  return Handle;
}

} // namespace loader
} // namespace kernplug

#endif
