//===- Primitives.cpp - the table of runtime primitives ----------*- C++ -*-===//
//
// The only place the plugin spells kp_dev_: rows come from abi/primitives.def.
//
//===----------------------------------------------------------------------===//
#include "Primitives.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"

#include <cassert>

using namespace llvm;

namespace kernplug {
namespace {

const Primitive Table[] = {
// Convergent, Const: the header's attributes (tests/header checks them).
#define KP_PRIMITIVE(Name, Class, Slot, Convergent, Const)                     \
  {"kp_dev_" #Name, #Name, PrimitiveClass::Class, Slot},
#include "abi/primitives.def"
};

} // namespace

const Primitive *primitiveNamed(StringRef Name) {
  if (!Name.starts_with("kp_dev_"))
    return nullptr;
  for (const Primitive &P : Table)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

const Primitive *primitiveShortNamed(StringRef Short) {
  for (const Primitive &P : Table)
    if (P.ShortName == Short)
      return &P;
  return nullptr;
}

const Primitive *primitiveOf(const Function *F) {
  return F && F->isDeclaration() ? primitiveNamed(F->getName()) : nullptr;
}

StringRef indexPrimitiveName(unsigned Slot) {
  for (const Primitive &P : Table)
    if (P.Class == PrimitiveClass::Index && P.Slot == Slot)
      return P.Name;
  assert(false && "no index primitive fills this slot");
  return "";
}

} // namespace kernplug
