//===- Signature.cpp - vectorize signature grammar -------------*- C++ -*-===//
#include "Signature.h"

#include <cctype>

namespace kernplug {

std::string ElemType::shortName() const {
  const char *Prefix = Kind == ElemKind::Int ? "i" : Kind == ElemKind::UInt ? "u" : "f";
  return Prefix + std::to_string(Bits);
}

std::string Signature::canonical() const {
  std::string S = Result.shortName() + "(";
  for (size_t I = 0; I < Params.size(); ++I)
    S += (I ? "," : "") + Params[I].shortName();
  return S + ")";
}

bool parseElemType(const std::string &Name, ElemType &Out) {
  struct Entry {
    const char *Long, *Short;
    ElemKind Kind;
    unsigned Bits;
  };
  static const Entry Table[] = {
      {"int8", "i8", ElemKind::Int, 8},       {"int16", "i16", ElemKind::Int, 16},
      {"int32", "i32", ElemKind::Int, 32},    {"int64", "i64", ElemKind::Int, 64},
      {"uint8", "u8", ElemKind::UInt, 8},     {"uint16", "u16", ElemKind::UInt, 16},
      {"uint32", "u32", ElemKind::UInt, 32},  {"uint64", "u64", ElemKind::UInt, 64},
      {"float32", "f32", ElemKind::Float, 32}, {"float64", "f64", ElemKind::Float, 64},
  };
  for (const Entry &E : Table)
    if (Name == E.Long || Name == E.Short) {
      Out.Kind = E.Kind;
      Out.Bits = E.Bits;
      return true;
    }
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
                      "' (expected int8…int64, uint8…uint64, float32, float64 or "
                      "i8…i64, u8…u64, f32, f64)",
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
