//===- MathFunctions.cpp - C library functions in device code --*- C++ -*-===//
#include "MathFunctions.h"

#include "llvm/ADT/StringSet.h"

namespace kernplug {

// C99 math.h (plus exp10 and sincos from GNU) where libdevice has the double
// version __nv_<name> and the float version __nv_<name>f.
static const char *const MathBases[] = {
    "acos",  "acosh",  "asin",      "asinh", "atan",      "atan2",  "atanh", "cbrt",
    "ceil",  "copysign", "cos",     "cosh",  "erf",       "erfc",   "exp",   "exp10",
    "exp2",  "expm1",  "fabs",      "fdim",  "floor",     "fma",    "fmax",  "fmin",
    "fmod",  "frexp",  "hypot",     "ilogb", "ldexp",     "lgamma", "log",   "log10",
    "log1p", "log2",   "logb",      "modf",  "nearbyint", "nextafter", "pow", "remainder",
    "remquo", "rint",  "round",     "scalbn", "sin",      "sincos", "sinh",  "sqrt",
    "tan",   "tanh",   "tgamma",    "trunc"};

std::string libdeviceNameFor(llvm::StringRef Name) {
  // long is 64-bit on both sides, so the long variants map to the long long ones.
  static const std::pair<const char *, const char *> Special[] = {
      {"abs", "__nv_abs"},         {"labs", "__nv_llabs"},       {"llabs", "__nv_llabs"},
      {"lround", "__nv_llround"},  {"lroundf", "__nv_llroundf"}, {"llround", "__nv_llround"},
      {"llroundf", "__nv_llroundf"}, {"lrint", "__nv_llrint"},   {"lrintf", "__nv_llrintf"},
      {"llrint", "__nv_llrint"},   {"llrintf", "__nv_llrintf"}};
  for (const auto &[C, Nv] : Special)
    if (Name == C)
      return Nv;
  for (const char *B : MathBases) {
    llvm::StringRef Base(B);
    if (Name == Base || (Name.size() == Base.size() + 1 && Name.starts_with(Base) &&
                         Name.back() == 'f'))
      return "__nv_" + Name.str();
  }
  return "";
}

std::string libdeviceNameForIntrinsic(llvm::StringRef Base, unsigned Bits) {
  // What NVPTX 19 cannot select on its own (sqrt, fabs, fma, floor, … it can).
  static const char *const Needs[] = {"sin", "cos", "tan", "exp", "exp2", "exp10", "log",
                                      "log2", "log10", "pow", "asin", "acos", "atan",
                                      "sinh", "cosh", "tanh", "ldexp"};
  if (Bits != 32 && Bits != 64)
    return "";
  for (const char *N : Needs)
    if (Base == N)
      return "__nv_" + Base.str() + (Bits == 32 ? "f" : "");
  if (Base == "powi")
    return Bits == 32 ? "__nv_powif" : "__nv_powi";
  return "";
}

bool isDeviceRuntimeFunction(llvm::StringRef Name) {
  return Name.starts_with("kp_dev_") || Name == "printf" || Name == "vprintf" ||
         Name == "memcpy" || Name == "memset" || Name == "memmove";
}

} // namespace kernplug
