//===- ConstantVariables.cpp - `constant` variables: GCC's definitions -*- C++ -*-===//
//
// A `constant` variable has one definition, GCC's: host code reads it and
// kp_copy_to_constant writes it, and the CPU backend's kernels read the same bytes. clang's
// half declares it (split/SplitPass.h) and names it in its module descriptor, and its PTX
// has the variable's .const copy with the initial value. A static one must be reachable from
// clang's assembly under one name that no other file uses, as a static kernel is: GCC's
// definition is renamed to the hidden __kp.<id>.<name> of clang's declaration. Done before
// GCC's IPA passes, after parsing, so that C's rules on redeclaring the static saw it as
// written; the attribute handler has marked it preserved (kept, and not made local by LTO,
// though only clang's code may refer to it).
//
//===----------------------------------------------------------------------===//
#include "GccIncludes.h"

#include "GccPlugin.h"

namespace kpgcc {

void exposeStaticConstantVariables() {
  varpool_node *Node;
  FOR_EACH_VARIABLE(Node) {
    tree Var = Node->decl;
    if (TREE_PUBLIC(Var) || DECL_EXTERNAL(Var) || !TREE_STATIC(Var) ||
        decl_function_context(Var) || !lookup_attribute("constant", DECL_ATTRIBUTES(Var)))
      continue;
    std::string Name =
        "__kp." + translationUnitId() + "." + IDENTIFIER_POINTER(DECL_NAME(Var));
    TREE_PUBLIC(Var) = 1;
    DECL_VISIBILITY(Var) = VISIBILITY_HIDDEN;
    DECL_VISIBILITY_SPECIFIED(Var) = 1;
    symtab->change_decl_assembler_name(Var, get_identifier(Name.c_str()));
  }
}

} // namespace kpgcc
