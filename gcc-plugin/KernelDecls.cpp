//===- KernelDecls.cpp - kernplug definitions become declarations -*- C++ -*-===//
//
// At the end of each function definition GCC has parsed and type-checked: a kernel,
// vectorize, guvectorize or reduce function loses its body and becomes an external
// declaration. The clang half (SideCompile.cpp) defines it: the launch stub of a kernel, the
// user's function of a generated kernel, whose address the runtime's registry is keyed by.
// So `&k` in GCC's code is the host_fn of clang's descriptor, and GCC cannot inline or
// analyse a body that is not the one the program runs. A static one is renamed to clang's
// hidden per-file name (split/SplitPass.h); change_decl_assembler_name also reaches the uses
// GCC has already seen. device functions and all other code stay GCC's.
//
//===----------------------------------------------------------------------===//
#include "GccIncludes.h"

#include "GccPlugin.h"

#include <vector>

namespace kpgcc {
namespace {

std::vector<location_t> &nestedFunctions() {
  static std::vector<location_t> Locations;
  return Locations;
}

bool isKernplugFunction(tree Fn) {
  for (const char *Role : {"kernel", "vectorize", "guvectorize", "reduce"})
    if (lookup_attribute(Role, DECL_ATTRIBUTES(Fn)))
      return true;
  return false;
}

/// GCC 12 and clang 19 disagree on where an argument after an __int128 goes when one
/// register is left (llvm/llvm-project#123935, fixed in LLVM 20): the stub would read it from
/// the wrong place.
bool checkParameters(tree Fn) {
  bool OK = true;
  for (tree P = DECL_ARGUMENTS(Fn); P; P = DECL_CHAIN(P)) {
    tree T = TREE_TYPE(P);
    if (INTEGRAL_TYPE_P(T) && TYPE_PRECISION(T) > 64) {
      error_at(DECL_SOURCE_LOCATION(P),
               "parameter %qD of %qD has type %qT: GCC 12 and clang 19 pass 128-bit integer "
               "arguments differently (LLVM bug 123935, fixed in clang 20), so kernplug-gcc "
               "cannot call clang's launch code with it; pass it in a struct or through a "
               "pointer",
               P, Fn, T);
      OK = false;
    }
  }
  return OK;
}

void turnIntoDeclaration(tree Fn) {
  if (cgraph_node *Node = cgraph_node::get(Fn)) {
    Node->release_body();
    Node->reset();
  }
  DECL_SAVED_TREE(Fn) = NULL_TREE;
  DECL_STRUCT_FUNCTION(Fn) = nullptr;
  DECL_EXTERNAL(Fn) = 1;
  TREE_STATIC(Fn) = 0;
  if (!TREE_PUBLIC(Fn)) {
    // clang's half names it __kp.<id>.<name>, global but hidden: one per file, not exported
    // from a shared library.
    std::string Name =
        "__kp." + translationUnitId() + "." + IDENTIFIER_POINTER(DECL_NAME(Fn));
    TREE_PUBLIC(Fn) = 1;
    DECL_VISIBILITY(Fn) = VISIBILITY_HIDDEN;
    DECL_VISIBILITY_SPECIFIED(Fn) = 1;
    symtab->change_decl_assembler_name(Fn, get_identifier(Name.c_str()));
  }
}

} // namespace

void noteNestedFunction(unsigned Location) { nestedFunctions().push_back(Location); }

bool reportNestedFunctions() {
  for (location_t Loc : nestedFunctions())
    error_at(Loc, "nested functions are a GCC extension clang cannot compile, and "
                  "kernplug-gcc.so compiles this file with clang too (for its kernels); "
                  "move the function out to file scope, or move the kernels to a file of "
                  "their own");
  return nestedFunctions().empty();
}

void finishFunction(void *Data, void *) {
  tree Fn = static_cast<tree>(Data);
  if (!Fn || TREE_CODE(Fn) != FUNCTION_DECL)
    return;
  if (decl_function_context(Fn)) {
    noteNestedFunction(DECL_SOURCE_LOCATION(Fn));
    return;
  }
  checkLaunchBoundsOnKernel(Fn);
  if (!isKernplugFunction(Fn) || !checkParameters(Fn) || seen_error())
    return;
  turnIntoDeclaration(Fn);
  ++kernplugDefinitions();
}

} // namespace kpgcc
