//===- GccPlugin.h - kernplug-gcc.so: what its parts share ------*- C++ -*-===//
//
// kernplug-gcc.so lets GCC compile kernplug's annotated C:
//
//   Attributes.cpp   the six attributes, launch_bounds and constant, registered and
//                    checked with GCC's locations
//   KernelDecls.cpp  at the end of each function definition: the type checks, and a
//                    kernel, vectorize, guvectorize or reduce definition turned into a
//                    declaration (a static one gets clang's hidden per-file name)
//   ConstantVariables.cpp  `constant` variables: GCC defines them, a static one under
//                    clang's hidden per-file name
//   SideCompile.cpp  before GCC's IPA passes: clang-19 -fplugin=kernplug.so in split mode
//                    on the same source; its assembly joins GCC's as a top-level asm
//   Plugin.cpp       plugin_init: options, callbacks
//
// Only GCC's own headers are included (this links nothing from LLVM); the signature and
// layout grammars are the clang plugin's (attributes/Signature.cpp, attributes/Layout.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_GCC_PLUGIN_H
#define KERNPLUG_GCC_PLUGIN_H

#include <string>
#include <vector>

union tree_node; // GCC's tree

namespace kpgcc {

struct Options {
  std::string Clang;               // clang=: the clang that loads kernplug.so
  std::string KernplugPlugin;      // kernplug=: kernplug.so
  std::vector<std::string> KpArgs; // kp-<opt>[=<v>]: -fplugin-arg-kernplug-<opt>[=<v>]
  bool Verbose = false;            // print the clang command
  bool KeepTemps = false;          // keep clang's assembly (<output>.kp.s)
};

Options &options();

/// How many kernel, vectorize, guvectorize and reduce definitions GCC left to clang.
unsigned &kernplugDefinitions();

/// The translation unit's id: a hash of the input's name and the driver's options, the
/// same for the same compile (reproducible objects), different for the same file compiled
/// with other -D or -o. Names static kernels "__kp.<id>.<name>" on both sides.
const std::string &translationUnitId();

void registerAttributes(void *, void *);
/// launch_bounds on a function that is not a kernel: an error (at a prototype, PLUGIN_FINISH_DECL,
/// and at the end of a definition).
void checkLaunchBoundsOnKernel(tree_node *Fn);
void finishDeclaration(void *Decl, void *);
void finishFunction(void *FnDecl, void *);
void runSideCompile(void *, void *);
/// Static `constant` variables get the hidden name __kp.<id>.<name> that clang's half
/// declares them by. Before GCC's IPA passes, once clang's half is known to exist.
void exposeStaticConstantVariables();
/// Whether both halves write their DWARF line tables as .debug_line data (GCC's
/// -gno-as-loc-support, kernplug.so's asm-line-table), so that a -g object has clang's
/// compile units too. Not under -flto (lto1 writes GCC's half and may not load the plugin),
/// nor with an explicit -gas-loc-support. Valid once GCC has processed its options.
bool lineTablesInAssembly();
/// With -fsyntax-only: clang's half checks the kernels (GCC runs no IPA passes then).
void checkKernelsOnly(void *, void *);
/// Nested functions (a GCC extension clang cannot parse) seen in this file.
void noteNestedFunction(unsigned Location);
/// An error at each of them; false if there was one.
bool reportNestedFunctions();

} // namespace kpgcc

#endif
