//===- Signature.cpp - vectorize signature grammar -------------*- C++ -*-===//
#include "Signature.h"

#include "abi/elem_types.h"

#include <cctype>

namespace kernplug {

std::string ElemType::shortName() const { return kp_elem_short_name(code()); }

int ElemType::code() const {
  int Class = Kind == ElemKind::Int    ? KP_ELEM_CLASS_SINT
              : Kind == ElemKind::UInt ? KP_ELEM_CLASS_UINT
                                       : KP_ELEM_CLASS_FLOAT;
  return kp_elem_of(Class, Bits / 8);
}

bool ElemType::fromCode(int Code, ElemType &Out) {
  switch (kp_elem_class_of(Code)) {
  case KP_ELEM_CLASS_SINT:
    Out.Kind = ElemKind::Int;
    break;
  case KP_ELEM_CLASS_UINT:
    Out.Kind = ElemKind::UInt;
    break;
  case KP_ELEM_CLASS_FLOAT:
    Out.Kind = ElemKind::Float;
    break;
  default:
    return false;
  }
  Out.Bits = static_cast<unsigned>(kp_elem_size(Code) * 8);
  return true;
}

std::string Signature::canonical() const {
  std::string S = Result.shortName() + "(";
  for (size_t I = 0; I < Params.size(); ++I)
    S += (I ? "," : "") + Params[I].shortName();
  return S + ")";
}

bool parseElemType(const std::string &Name, ElemType &Out) {
  for (int Code = 0; Code < KP_ELEM_COUNT; ++Code)
    if (Name == kp_elem_long_name(Code) || Name == kp_elem_short_name(Code))
      return ElemType::fromCode(Code, Out);
  return false;
}

namespace {

/// A tiny recursive-descent reader over the signature text.
class Reader {
public:
  Reader(const std::string &T, SignatureError &E) : Text(T), Err(E) {}

  void skipSpace() {
    while (Pos < Text.size() && std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
  }

  bool fail(const std::string &Msg, size_t At) {
    Err.Message = Msg;
    Err.Offset = At;
    return false;
  }

  bool type(ElemType &Out) {
    skipSpace();
    size_t Start = Pos;
    while (Pos < Text.size() && (std::isalnum(static_cast<unsigned char>(Text[Pos])) ||
                                 Text[Pos] == '_'))
      ++Pos;
    std::string Name = Text.substr(Start, Pos - Start);
    if (Name.empty())
      return fail("expected a type name at '" + rest(Start) + "'", Start);
    if (!parseElemType(Name, Out))
      return fail("unknown type name '" + Name +
                      "' (expected int8…int64, uint8…uint64, float16, float32, float64 or "
                      "i8…i64, u8…u64, f16, f32, f64)",
                  Start);
    return true;
  }

  bool expect(char C) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return fail(std::string("expected '") + C + "' at '" + rest(Pos) + "'", Pos);
  }

  bool peek(char C) {
    skipSpace();
    return Pos < Text.size() && Text[Pos] == C;
  }

  bool atEnd() {
    skipSpace();
    return Pos == Text.size();
  }

  std::string rest(size_t From) const {
    return From >= Text.size() ? std::string("<end>") : Text.substr(From);
  }

  size_t Pos = 0;

private:
  const std::string &Text;
  SignatureError &Err;
};

} // namespace

bool parseSignature(const std::string &Text, Signature &Out, SignatureError &Err) {
  Reader R(Text, Err);
  Out = Signature();
  if (!R.type(Out.Result) || !R.expect('('))
    return false;
  if (!R.peek(')')) {
    do {
      ElemType T;
      if (!R.type(T))
        return false;
      Out.Params.push_back(T);
    } while (R.peek(',') && R.expect(','));
  }
  if (!R.expect(')'))
    return false;
  if (!R.atEnd())
    return R.fail("unexpected text after the signature: '" + R.rest(R.Pos) + "'", R.Pos);
  if (Out.Params.empty())
    return R.fail("a vectorize signature needs at least one argument type", 0);
  return true;
}

} // namespace kernplug
