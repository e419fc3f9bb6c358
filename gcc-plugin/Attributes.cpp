//===- Attributes.cpp - kernplug's attributes in GCC -------------*- C++ -*-===//
//
// GCC's x86 back end has none of kernplug's names (kernel and shared exist only in its nvptx
// back end, with the same meaning), so the plugin registers all of them: the six roles,
// launch_bounds and constant. The checks and
// their messages are those of attributes/Attributes.cpp, the clang plugin's; the grammars
// of the strings are the same code. GCC gives attribute handlers no location of their own:
// errors point at the declaration.
//
//===----------------------------------------------------------------------===//
#include "GccIncludes.h"

#include "GccPlugin.h"
#include "attributes/Layout.h"
#include "attributes/Signature.h"

#include <string>

namespace kpgcc {
namespace {

const char *const FunctionRoles[] = {"kernel", "vectorize", "guvectorize", "reduce"};

bool isArithmetic(tree T) {
  return T && (INTEGRAL_TYPE_P(T) || SCALAR_FLOAT_TYPE_P(T));
}

std::vector<tree> paramTypes(tree FnType) {
  std::vector<tree> Types;
  for (tree A = TYPE_ARG_TYPES(FnType); A && A != void_list_node; A = TREE_CHAIN(A))
    Types.push_back(TREE_VALUE(A));
  return Types;
}

/// The function the attribute is on, or an error and NULL.
tree expectFunction(tree *Node, tree Name, bool *NoAdd) {
  if (TREE_CODE(*Node) == FUNCTION_DECL)
    return *Node;
  error_at(DECL_P(*Node) ? DECL_SOURCE_LOCATION(*Node) : input_location,
           "%qE attribute only applies to functions", Name);
  *NoAdd = true;
  return NULL_TREE;
}

/// kernel, vectorize, guvectorize and reduce exclude each other.
bool checkExclusive(tree Fn, tree Name, bool *NoAdd) {
  for (const char *Other : FunctionRoles) {
    if (is_attribute_p(Other, Name) ||
        (is_attribute_p("reduce", Name) && !strcmp(Other, "vectorize")) ||
        (is_attribute_p("vectorize", Name) && !strcmp(Other, "reduce")))
      continue;
    if (lookup_attribute(Other, DECL_ATTRIBUTES(Fn))) {
      error_at(DECL_SOURCE_LOCATION(Fn), "%qs and %qE cannot be combined on %qD", Other, Name,
               Fn);
      *NoAdd = true;
      return false;
    }
  }
  return true;
}

/// The string argument, or an error naming an example.
bool stringArg(tree Fn, tree Arg, const char *What, const char *Example, std::string &Out) {
  tree V = TREE_VALUE(Arg);
  if (!V || TREE_CODE(V) != STRING_CST) {
    error_at(DECL_SOURCE_LOCATION(Fn), "%s must be string literals such as %s", What, Example);
    return false;
  }
  Out.assign(TREE_STRING_POINTER(V), TREE_STRING_LENGTH(V) ? TREE_STRING_LENGTH(V) - 1 : 0);
  return true;
}

tree handleKernel(tree *Node, tree Name, tree, int, bool *NoAdd) {
  tree Fn = expectFunction(Node, Name, NoAdd);
  if (!Fn)
    return NULL_TREE;
  tree R = TREE_TYPE(TREE_TYPE(Fn));
  if (!VOID_TYPE_P(R)) {
    error_at(DECL_SOURCE_LOCATION(Fn),
             "kernel %qD must return void (it returns %qT); write results through a pointer "
             "argument",
             Fn, R);
    *NoAdd = true;
  } else if (stdarg_p(TREE_TYPE(Fn))) {
    error_at(DECL_SOURCE_LOCATION(Fn), "kernel %qD cannot be variadic", Fn);
    *NoAdd = true;
  } else {
    checkExclusive(Fn, Name, NoAdd);
  }
  return NULL_TREE;
}

tree handleDevice(tree *Node, tree Name, tree, int, bool *NoAdd) {
  expectFunction(Node, Name, NoAdd);
  return NULL_TREE;
}

tree handleShared(tree *Node, tree Name, tree, int, bool *NoAdd) {
  if (TREE_CODE(*Node) != VAR_DECL) {
    error_at(DECL_P(*Node) ? DECL_SOURCE_LOCATION(*Node) : input_location,
             "%qE attribute only applies to variables", Name);
    *NoAdd = true;
  }
  return NULL_TREE;
}

tree handleVectorize(tree *Node, tree Name, tree Args, int, bool *NoAdd) {
  tree Fn = expectFunction(Node, Name, NoAdd);
  if (!Fn || !checkExclusive(Fn, Name, NoAdd))
    return NULL_TREE;
  location_t Loc = DECL_SOURCE_LOCATION(Fn);
  tree R = TREE_TYPE(TREE_TYPE(Fn));
  if (!Args) {
    error_at(Loc, "%<vectorize%> needs at least one signature string, e.g. "
                  "vectorize(\"f32(f32)\")");
    *NoAdd = true;
    return NULL_TREE;
  }
  if (!isArithmetic(R)) {
    error_at(Loc, "vectorize function %qD must return an arithmetic value (it returns %qT)",
             Fn, R);
    *NoAdd = true;
    return NULL_TREE;
  }
  if (stdarg_p(TREE_TYPE(Fn))) {
    error_at(Loc, "vectorize function %qD cannot be variadic", Fn);
    *NoAdd = true;
    return NULL_TREE;
  }
  std::vector<tree> Params = paramTypes(TREE_TYPE(Fn));
  for (size_t I = 0; I < Params.size(); ++I)
    if (!isArithmetic(Params[I])) {
      error_at(Loc, "parameter %d of vectorize function %qD must have an arithmetic type (it "
                    "has %qT)",
               int(I + 1), Fn, Params[I]);
      *NoAdd = true;
      return NULL_TREE;
    }
  for (tree A = Args; A; A = TREE_CHAIN(A)) {
    std::string Text;
    kernplug::Signature Sig;
    kernplug::SignatureError Err;
    if (!stringArg(Fn, A, "vectorize signatures", "\"f32(f32)\"", Text)) {
      *NoAdd = true;
    } else if (!kernplug::parseSignature(Text, Sig, Err)) {
      error_at(Loc, "malformed vectorize signature %qs: %s", Text.c_str(), Err.Message.c_str());
      *NoAdd = true;
    } else if (Sig.Params.size() != Params.size()) {
      error_at(Loc, "vectorize signature %qs has %d argument%s but %qD has %d parameter%s",
               Text.c_str(), int(Sig.Params.size()), Sig.Params.size() == 1 ? "" : "s", Fn,
               int(Params.size()), Params.size() == 1 ? "" : "s");
      *NoAdd = true;
    }
  }
  return NULL_TREE;
}

tree handleReduce(tree *Node, tree Name, tree, int, bool *NoAdd) {
  tree Fn = expectFunction(Node, Name, NoAdd);
  if (!Fn || !checkExclusive(Fn, Name, NoAdd))
    return NULL_TREE;
  tree R = TYPE_MAIN_VARIANT(TREE_TYPE(TREE_TYPE(Fn)));
  std::vector<tree> Params = paramTypes(TREE_TYPE(Fn));
  bool Shape = Params.size() == 2 && !stdarg_p(TREE_TYPE(Fn)) && isArithmetic(R);
  for (size_t I = 0; Shape && I < 2; ++I)
    Shape = TYPE_MAIN_VARIANT(Params[I]) == R;
  if (!Shape) {
    error_at(DECL_SOURCE_LOCATION(Fn),
             "reduce function %qD must have the form %<T %D(T, T)%> with one arithmetic type "
             "T (it is %qT)",
             Fn, Fn, TREE_TYPE(Fn));
    *NoAdd = true;
  }
  return NULL_TREE;
}

tree handleGuvectorize(tree *Node, tree Name, tree Args, int, bool *NoAdd) {
  tree Fn = expectFunction(Node, Name, NoAdd);
  if (!Fn || !checkExclusive(Fn, Name, NoAdd))
    return NULL_TREE;
  location_t Loc = DECL_SOURCE_LOCATION(Fn);
  *NoAdd = true; // until every check passed
  if (!Args) {
    error_at(Loc, "%<guvectorize%> needs a layout string, e.g. guvectorize(\"(n),(n)->()\")");
    return NULL_TREE;
  }
  if (TREE_CHAIN(Args)) {
    error_at(Loc, "%<guvectorize%> takes only the layout string; the element types are the "
                  "parameter types of %qD",
             Fn);
    return NULL_TREE;
  }
  tree R = TREE_TYPE(TREE_TYPE(Fn));
  if (!VOID_TYPE_P(R)) {
    error_at(Loc, "guvectorize function %qD must return void (it returns %qT); write results "
                  "through its output operands",
             Fn, R);
    return NULL_TREE;
  }
  if (stdarg_p(TREE_TYPE(Fn))) {
    error_at(Loc, "guvectorize function %qD cannot be variadic", Fn);
    return NULL_TREE;
  }
  std::string Text;
  if (!stringArg(Fn, Args, "the guvectorize layout", "\"(n),(n)->()\"", Text))
    return NULL_TREE;
  kernplug::Layout L;
  kernplug::LayoutError Err;
  if (!kernplug::parseLayout(Text, L, Err)) {
    error_at(Loc, "malformed guvectorize layout %qs: %s", Text.c_str(), Err.Message.c_str());
    return NULL_TREE;
  }
  std::vector<tree> Params = paramTypes(TREE_TYPE(Fn));
  size_t Want = L.numOperands() + L.DimNames.size();
  if (Params.size() != Want) {
    error_at(Loc, "guvectorize layout %qs needs %d parameters (a pointer per operand, then an "
                  "integer per dimension name); %qD has %d",
             Text.c_str(), int(Want), Fn, int(Params.size()));
    return NULL_TREE;
  }
  for (size_t I = 0; I < Params.size(); ++I) {
    tree P = Params[I];
    if (I >= L.numOperands()) {
      if (!INTEGRAL_TYPE_P(P)) {
        error_at(Loc, "parameter %d of guvectorize function %qD receives the size of dimension "
                      "%qs and must have an integer type (it has type %qT)",
                 int(I + 1), Fn, L.DimNames[I - L.numOperands()].c_str(), P);
        return NULL_TREE;
      }
      continue;
    }
    // A "()" input may be taken by value: one number, the same for every block (as the
    // clang plugin's checkOperand in attributes/Attributes.cpp).
    bool ByValue = !POINTER_TYPE_P(P) && !L.isOutput(I) && L.operand(I).Dims.empty();
    if (ByValue) {
      if (!isArithmetic(P)) {
        error_at(Loc, "parameter %d of guvectorize function %qD must be an integer, float or "
                      "double (it has type %qT)",
                 int(I + 1), Fn, P);
        return NULL_TREE;
      }
      continue;
    }
    tree Elem = POINTER_TYPE_P(P) ? TREE_TYPE(P) : NULL_TREE;
    if (!Elem || !isArithmetic(Elem)) {
      error_at(Loc, "parameter %d of guvectorize function %qD must be a pointer to integer, "
                    "float or double elements (it has type %qT)%s",
               int(I + 1), Fn, P,
               L.isOutput(I) ? "" : "; only a \"()\" input may be a number taken by value");
      return NULL_TREE;
    }
    if (L.isOutput(I) && TYPE_READONLY(Elem)) {
      error_at(Loc, "parameter %d of guvectorize function %qD is an output of the layout and "
                    "cannot point to const (it has type %qT)",
               int(I + 1), Fn, P);
      return NULL_TREE;
    }
  }
  *NoAdd = false;
  return NULL_TREE;
}

/// The value of a launch_bounds argument, if it is an integer constant within [Lo, Hi].
bool boundInRange(tree Arg, long Lo, long Hi) {
  tree V = Arg ? TREE_VALUE(Arg) : NULL_TREE;
  if (V)
    STRIP_NOPS(V);
  return V && TREE_CODE(V) == INTEGER_CST && tree_fits_shwi_p(V) && tree_to_shwi(V) >= Lo &&
         tree_to_shwi(V) <= Hi;
}

/// launch_bounds(max_threads[, min_blocks]): the values the clang plugin accepts
/// (plugin/frontend/LaunchArgChecks.cpp); that it is on a kernel is checked once the
/// declaration is complete (checkLaunchBoundsOnKernel), as `kernel` may come after it. The
/// clang half reads the attribute from the same source: .maxntid / .minnctapersm in the PTX
/// and the descriptor's bounds, checked at every launch.
tree handleLaunchBounds(tree *Node, tree Name, tree Args, int, bool *NoAdd) {
  tree Fn = expectFunction(Node, Name, NoAdd);
  if (!Fn)
    return NULL_TREE;
  location_t Loc = DECL_SOURCE_LOCATION(Fn);
  *NoAdd = true; // until every check passed
  if (list_length(Args) > 2)
    error_at(Loc, "%<launch_bounds%> takes at most two values (maximum threads per block, "
                  "minimum blocks per multiprocessor)");
  else if (!boundInRange(Args, 1, 1024))
    error_at(Loc, "the maximum threads per block of %<launch_bounds%> must be an integer "
                  "constant from 1 to 1024");
  else if (TREE_CHAIN(Args) && !boundInRange(TREE_CHAIN(Args), 0, 32))
    error_at(Loc, "the minimum blocks per multiprocessor of %<launch_bounds%> must be an "
                  "integer constant from 0 to 32");
  else
    *NoAdd = false;
  return NULL_TREE;
}

/// clang's ext_vector_type: GCC has no such types, and kernels that use them cannot be
/// compiled by GCC's front end, whose errors about them ("request for member 'y' in
/// something not a structure or union") would not say why.
tree handleExtVectorType(tree *Node, tree Name, tree, int, bool *NoAdd) {
  error_at(DECL_P(*Node) ? DECL_SOURCE_LOCATION(*Node) : input_location,
           "%qE is a clang extension GCC does not have; code built with gcc "
           "-fplugin=kernplug-gcc.so, kernels included, must be C that GCC compiles (use "
           "GCC's %<vector_size%> or arrays)",
           Name);
  *NoAdd = true;
  return NULL_TREE;
}

/// `constant` memory: GCC's half defines the variable (host code reads it,
/// kp_copy_to_constant writes it), clang's half refers to it (ConstantVariables.cpp). Kept
/// even where GCC's code never reads it: kernels, which GCC does not compile, may be the only
/// readers. Where it may be declared (file scope, defined in the file, …) is checked by
/// clang's half, with the clang plugin's messages.
tree handleConstant(tree *Node, tree Name, tree, int, bool *NoAdd) {
  if (TREE_CODE(*Node) != VAR_DECL) {
    error_at(DECL_P(*Node) ? DECL_SOURCE_LOCATION(*Node) : input_location,
             "%qE attribute only applies to variables", Name);
    *NoAdd = true;
    return NULL_TREE;
  }
  DECL_PRESERVE_P(*Node) = 1;
  return NULL_TREE;
}

// name, min args, max args, decl required, type required, function type required, affects
// type identity, handler, exclusions
const attribute_spec Specs[] = {
    {"kernel", 0, 0, true, false, false, false, handleKernel, nullptr},
    {"device", 0, 0, true, false, false, false, handleDevice, nullptr},
    {"shared", 0, 0, true, false, false, false, handleShared, nullptr},
    {"vectorize", 0, -1, true, false, false, false, handleVectorize, nullptr},
    {"guvectorize", 0, -1, true, false, false, false, handleGuvectorize, nullptr},
    {"reduce", 0, 0, true, false, false, false, handleReduce, nullptr},
    {"launch_bounds", 1, -1, true, false, false, false, handleLaunchBounds, nullptr},
    {"ext_vector_type", 1, 1, false, true, false, false, handleExtVectorType, nullptr},
    {"constant", 0, 0, true, false, false, false, handleConstant, nullptr},
};

} // namespace

void checkLaunchBoundsOnKernel(tree Fn) {
  if (lookup_attribute("launch_bounds", DECL_ATTRIBUTES(Fn)) &&
      !lookup_attribute("kernel", DECL_ATTRIBUTES(Fn)))
    error_at(DECL_SOURCE_LOCATION(Fn),
             "%<launch_bounds%> applies to kernels, and %qD is not one (mark it "
             "__attribute__((kernel)))",
             Fn);
}

void finishDeclaration(void *Data, void *) {
  tree Decl = static_cast<tree>(Data);
  if (Decl && TREE_CODE(Decl) == FUNCTION_DECL)
    checkLaunchBoundsOnKernel(Decl);
}

void registerAttributes(void *, void *) {
  for (const attribute_spec &S : Specs)
    register_attribute(&S);
}

} // namespace kpgcc
