//===- Plugin.cpp - kernplug-gcc.so's entry point ----------------*- C++ -*-===//
#include "GccIncludes.h"
#include "plugin-version.h"

#include "GccPlugin.h"

#ifndef KPGCC_CLANG_MAJOR
#define KPGCC_CLANG_MAJOR 19 // the clang kernplug.so loads into (gcc-plugin/CMakeLists.txt)
#endif

#include <cstring>

// GCC loads only plugins that say so; kernplug is Apache-2.0 with LLVM exceptions, which the
// FSF lists as compatible with GPLv3, and this plugin links nothing but GCC's headers.
int plugin_is_GPL_compatible;

namespace kpgcc {

Options &options() {
  static Options O;
  return O;
}

unsigned &kernplugDefinitions() {
  static unsigned N = 0;
  return N;
}

} // namespace kpgcc

int plugin_init(struct plugin_name_args *Info, struct plugin_gcc_version *Version) {
  if (!plugin_default_version_check(Version, &gcc_version)) {
    error("kernplug-gcc: this plugin was built for GCC %s and cannot be loaded by GCC %s; "
          "build it for this GCC (docs/compiling.md, \"GCC\")",
          gcc_version.basever, Version->basever);
    return 1;
  }
  if (strcmp(lang_hooks.name, "GNU C") && strncmp(lang_hooks.name, "GNU C1", 6) &&
      strncmp(lang_hooks.name, "GNU C2", 6) && strncmp(lang_hooks.name, "GNU C8", 6)) {
    // C++, Fortran, …: kernels are C; other front ends compile as if without the plugin.
    return 0;
  }
  // -gno-as-loc-support unless the command says otherwise: GCC writes .debug_line as data, as
  // clang's half does, so that -g objects keep both compile units (lineTablesInAssembly()).
  // Not under -flto (flag_lto, "" for -flto): lto1 writes GCC's half, maybe without us.
  // Only with clang 19: later LLVMs always write .file/.loc (split/AsmLineTable.cpp), so the
  // old path (no kernel DWARF) stays.
  if (KPGCC_CLANG_MAJOR < 20 && !flag_lto && !global_options_set.x_dwarf2out_as_loc_support) {
    dwarf2out_as_loc_support = 0;
    global_options_set.x_dwarf2out_as_loc_support = 1;
    if (!global_options_set.x_dwarf2out_as_locview_support) {
      dwarf2out_as_locview_support = 0;
      global_options_set.x_dwarf2out_as_locview_support = 1;
    }
  }
  kpgcc::Options &O = kpgcc::options();
  for (int I = 0; I < Info->argc; ++I) {
    const char *Key = Info->argv[I].key, *Value = Info->argv[I].value;
    if (!strcmp(Key, "clang") && Value)
      O.Clang = Value;
    else if (!strcmp(Key, "kernplug") && Value)
      O.KernplugPlugin = Value;
    else if (!strcmp(Key, "verbose"))
      O.Verbose = true;
    else if (!strcmp(Key, "keep-temps"))
      O.KeepTemps = true;
    else if (!strncmp(Key, "kp-", 3) && Key[3])
      O.KpArgs.push_back(std::string(Key + 3) + (Value ? std::string("=") + Value : ""));
    else {
      error("kernplug-gcc: unknown option %<-fplugin-arg-%s-%s%> (known: clang=, kernplug=, "
            "verbose, keep-temps, kp-<kernplug.so option>[=<value>])",
            Info->base_name, Key);
      return 1;
    }
  }
  static plugin_info PluginInfo = {"1", "kernplug for GCC: kernels, vectorize, guvectorize and "
                                        "reduce functions compiled by clang's kernplug.so"};
  register_callback(Info->base_name, PLUGIN_INFO, nullptr, &PluginInfo);
  register_callback(Info->base_name, PLUGIN_ATTRIBUTES, kpgcc::registerAttributes, nullptr);
  register_callback(Info->base_name, PLUGIN_FINISH_PARSE_FUNCTION, kpgcc::finishFunction,
                    nullptr);
  register_callback(Info->base_name, PLUGIN_FINISH_DECL, kpgcc::finishDeclaration, nullptr);
  register_callback(Info->base_name, PLUGIN_ALL_IPA_PASSES_START, kpgcc::runSideCompile,
                    nullptr);
  register_callback(Info->base_name, PLUGIN_FINISH, kpgcc::checkKernelsOnly, nullptr);
  return 0;
}
