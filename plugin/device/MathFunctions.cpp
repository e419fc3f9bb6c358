//===- MathFunctions.cpp - C library functions in device code --*- C++ -*-===//
#include "device/MathFunctions.h"
#include "Primitives.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace kernplug {

// C99 math.h, the POSIX Bessel functions (j0 … yn) and GNU exp10 and sincos,
// wherever libdevice.10.bc has both the double version __nv_<name> and the
// float version __nv_<name>f. Not here because libdevice lacks them (or they
// take long double): scalbln, nexttoward and every *l function.
static const char *const MathBases[] = {
    "acos",   "acosh",  "asin",      "asinh",  "atan",      "atan2",     "atanh",
    "cbrt",   "ceil",   "copysign",  "cos",    "cosh",      "erf",       "erfc",
    "exp",    "exp10",  "exp2",      "expm1",  "fabs",      "fdim",      "floor",
    "fma",    "fmax",   "fmin",      "fmod",   "frexp",     "hypot",     "ilogb",
    "j0",     "j1",     "jn",        "ldexp",  "lgamma",    "log",       "log10",
    "log1p",  "log2",   "logb",      "modf",   "nan",       "nearbyint", "nextafter",
    "pow",    "remainder", "remquo", "rint",   "round",     "scalbn",    "sin",
    "sincos", "sinh",   "sqrt",      "tan",    "tanh",      "tgamma",    "trunc",
    "y0",     "y1",     "yn"};

// CUDA's math functions beyond C's, declared by kernplug/cuda_math.h as kp_<name> (double)
// and kp_<name>f (float); libdevice has them as __nv_<name> and __nv_<name>f. The runtime
// defines the same kp_ names for the CPU backend (runtime/backend/cpu/cpu_math*.c).
static const char *const CudaMathBases[] = {
    "rsqrt",  "rcbrt",   "sinpi",   "cospi",   "sincospi", "erfinv",        "erfcinv",
    "erfcx",  "normcdf", "normcdfinv", "cyl_bessel_i0", "cyl_bessel_i1", "rhypot", "norm3d",
    "rnorm3d", "norm4d", "rnorm4d", "norm",    "rnorm"};
// The fast single-precision intrinsics: kp_fast_<name> is __nv_fast_<name> (CUDA's __<name>).
static const char *const FastFloatNames[] = {
    "expf", "exp10f", "logf", "log2f", "log10f", "sinf", "cosf", "tanf", "powf", "sincosf",
    "fdividef"};

// kernplug/rounding.h: <op>_<mode> with mode rd, rn, ru or rz, for each of these operations
// (every combination is in libdevice), and frsqrt_rn.
static bool isRoundingName(llvm::StringRef Name) {
  static const char *const Ops[] = {
      "fadd",     "fsub",      "fmul",         "fdiv",      "frcp",       "fsqrt",
      "fmaf",     "dadd",      "dsub",         "dmul",      "ddiv",       "drcp",
      "dsqrt",    "fma",       "double2float", "int2float", "uint2float", "ll2float",
      "ull2float", "ll2double", "ull2double",  "float2int", "float2uint", "float2ll",
      "float2ull", "double2int", "double2uint", "double2ll", "double2ull"};
  if (Name == "frsqrt_rn")
    return true;
  llvm::StringRef Mode = Name.take_back(3);
  if (Mode != "_rd" && Mode != "_rn" && Mode != "_ru" && Mode != "_rz")
    return false;
  return llvm::is_contained(Ops, Name.drop_back(3));
}

static std::string cudaMathNameFor(llvm::StringRef Name) {
  if (!Name.consume_front("kp_"))
    return "";
  if (isRoundingName(Name))
    return "__nv_" + Name.str();
  if (Name == "saturatef")
    return "__nv_saturatef";
  if (Name.consume_front("fast_")) {
    for (const char *F : FastFloatNames)
      if (Name == F)
        return "__nv_fast_" + Name.str();
    return "";
  }
  for (const char *B : CudaMathBases) {
    llvm::StringRef Base(B);
    if (Name == Base || (Name.size() == Base.size() + 1 && Name.starts_with(Base) &&
                         Name.back() == 'f'))
      return "__nv_" + Name.str();
  }
  return "";
}

std::string fastLibdeviceNameFor(llvm::StringRef Base) {
  // nvcc's --use_fast_math: these float functions become their __<name> intrinsic, and
  // -prec-sqrt=false: __nv_sqrtf, which is sqrt.approx when __CUDA_PREC_SQRT is 0.
  if (Base == "sqrtf")
    return "__nv_sqrtf";
  for (const char *F : FastFloatNames)
    if (Base == F && Base != "fdividef" && Base != "sincosf")
      return "__nv_fast_" + Base.str();
  return "";
}

std::string libdeviceNameFor(llvm::StringRef Name) {
  if (Name.starts_with("kp_"))
    return cudaMathNameFor(Name);
  // long is 64-bit on both sides, so the long variants map to the long long
  // ones. libdevice's __nv_sqrtf is approximate unless __nvvm_reflect says
  // __CUDA_PREC_SQRT, which LLVM 19 always answers 0; __nv_fsqrt_rn is the
  // correctly rounded square root C (and nvcc's default -prec-sqrt) asks for.
  // The classification functions (not the C99 macros, which clang
  // expands inline) exist in glibc for BSD compatibility; libdevice's
  // versions return 1 for true (glibc's isinf returns -1 for -inf).
  static const std::pair<const char *, const char *> Special[] = {
      {"sqrtf", "__nv_fsqrt_rn"},    {"abs", "__nv_abs"},           {"labs", "__nv_llabs"},       {"llabs", "__nv_llabs"},
      {"lround", "__nv_llround"},    {"lroundf", "__nv_llroundf"}, {"llround", "__nv_llround"},
      {"llroundf", "__nv_llroundf"}, {"lrint", "__nv_llrint"},     {"lrintf", "__nv_llrintf"},
      {"llrint", "__nv_llrint"},     {"llrintf", "__nv_llrintf"},  {"isnan", "__nv_isnand"},
      {"isnanf", "__nv_isnanf"},     {"isinf", "__nv_isinfd"},     {"isinff", "__nv_isinff"},
      {"finite", "__nv_isfinited"},  {"finitef", "__nv_finitef"},
      // strings.h; __builtin_ffs* expand inline, a plain call reaches libdevice.
      {"ffs", "__nv_ffs"},           {"ffsl", "__nv_ffsll"},        {"ffsll", "__nv_ffsll"}};
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
  // What NVPTX 19 cannot select on its own (checked with llc -mcpu=sm_75).
  // It selects sqrt, fabs, fma, floor, ceil, trunc, rint, nearbyint,
  // roundeven, round, copysign, minnum/maxnum, minimum/maximum and frexp.
  static const char *const Needs[] = {"sin",  "cos",  "tan",  "exp",   "exp2", "exp10",
                                      "log",  "log2", "log10", "pow",  "asin", "acos",
                                      "atan", "atan2", "sinh", "cosh", "tanh", "ldexp"};
  if (Bits != 32 && Bits != 64)
    return "";
  for (const char *N : Needs)
    if (Base == N)
      return "__nv_" + Base.str() + (Bits == 32 ? "f" : "");
  if (Base == "powi")
    return Bits == 32 ? "__nv_powif" : "__nv_powi";
  // These return i64 (long is 64-bit); Bits is the width of their operand.
  if (Base == "lround" || Base == "llround")
    return Bits == 32 ? "__nv_llroundf" : "__nv_llround";
  if (Base == "lrint" || Base == "llrint")
    return Bits == 32 ? "__nv_llrintf" : "__nv_llrint";
  return "";
}

bool isDeviceRuntimeFunction(llvm::StringRef Name) {
  // Builtins (named here without their __builtin_ prefix) that clang expands
  // inline or into intrinsics the lowering handles: the math.h classification
  // and comparison macros, NAN/nans with a constant string, and powi.
  static const llvm::StringSet<> InlineBuiltins = {
      "isnan",     "isinf",         "isinf_sign", "isfinite",    "isnormal",  "issubnormal",
      "iszero",    "issignaling",   "fpclassify", "signbit",     "signbitf",  "isgreater",
      "isgreaterequal", "isless",   "islessequal", "islessgreater", "isunordered",
      "nan",       "nanf",          "nans",       "nansf",       "powi",      "powif"};
  return primitiveNamed(Name) || Name == "printf" || Name == "vprintf" ||
         Name == "memcpy" || Name == "memset" || Name == "memmove" ||
         // runtime/device/trap.c on the GPU; the C library's on the CPU backend, whose
         // fault handler turns them into launch errors (cpu_fault.c).
         Name == "abort" || Name == "__assert_fail" ||
         InlineBuiltins.contains(Name);
}

} // namespace kernplug
