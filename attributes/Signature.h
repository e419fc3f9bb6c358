//===- Signature.h - vectorize signature grammar ---------------*- C++ -*-===//
//
// Parses Numba-style ufunc signatures such as "float32(float32, int32)" or
// "f32(f32,i32)". Pure C++ so that both the attribute checks and the IR pass
// share one definition of the grammar. The type names, sizes and codes are the
// rows of abi/types.def.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_ATTRIBUTES_SIGNATURE_H
#define KERNPLUG_ATTRIBUTES_SIGNATURE_H

#include <string>
#include <vector>

namespace kernplug {

enum class ElemKind { Int, UInt, Float };

struct ElemType {
  ElemKind Kind = ElemKind::Float;
  unsigned Bits = 32;

  /// The short name: i8 … i64, u8 … u64, f16, f32, f64.
  std::string shortName() const;
  /// The row of abi/types.def: KP_ELEM_* (what descriptors carry), or -1.
  int code() const;
  /// The type of a KP_ELEM_* code; false if there is none.
  static bool fromCode(int Code, ElemType &Out);
  bool operator==(const ElemType &O) const {
    return Kind == O.Kind && Bits == O.Bits;
  }
};

struct Signature {
  ElemType Result;
  std::vector<ElemType> Params;
  /// Canonical spelling, e.g. "f32(f32,i32)": what the runtime matches on.
  std::string canonical() const;
};

/// What went wrong while parsing, and where in the text (0-based offset).
struct SignatureError {
  std::string Message; // quotes the bad part
  size_t Offset = 0;
};

/// Parses one element type name (Numba's or the short form: abi/types.def's
/// Long or Short); false if unknown.
bool parseElemType(const std::string &Name, ElemType &Out);

/// Parses a whole signature; on failure fills Err and returns false.
bool parseSignature(const std::string &Text, Signature &Out, SignatureError &Err);

} // namespace kernplug

#endif
