//===- Layout.cpp - guvectorize layout grammar -----------------*- C++ -*-===//
#include "Layout.h"

#include <algorithm>
#include <cctype>

namespace kernplug {

namespace {

bool isNameChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

std::string operandText(const Layout &L, const LayoutOperand &Op) {
  std::string S = "(";
  for (size_t I = 0; I < Op.Dims.size(); ++I) {
    const CoreDim &D = Op.Dims[I];
    S += (I ? "," : "") + (D.Name >= 0 ? L.DimNames[D.Name] : std::to_string(D.Fixed));
  }
  return S + ")";
}

std::string listText(const Layout &L, const std::vector<LayoutOperand> &Ops) {
  std::string S;
  for (size_t I = 0; I < Ops.size(); ++I)
    S += (I ? "," : "") + operandText(L, Ops[I]);
  return S;
}

/// A recursive-descent reader over the layout text.
class Reader {
public:
  Reader(const std::string &T, Layout &L, LayoutError &E) : Text(T), Out(L), Err(E) {}

  bool fail(const std::string &Msg, size_t At) {
    Err.Message = Msg;
    Err.Offset = At;
    return false;
  }

  /// inputs "->" outputs <end>
  bool layout() {
    if (!operandList(Out.Inputs, /*Outputs=*/false))
      return false;
    if (!startsWith("->"))
      return fail("expected " + std::string(Out.Inputs.empty() ? "'('" : "',' or '->'") +
                      " at '" + rest(Pos) + "'",
                  Pos);
    Pos += 2;
    if (!operandList(Out.Outputs, /*Outputs=*/true))
      return false;
    if (!atEnd())
      return fail("unexpected text after the layout: '" + rest(Pos) + "'", Pos);
    return true;
  }

private:
  void skipSpace() {
    while (Pos < Text.size() && std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
  }
  bool startsWith(const char *S) {
    skipSpace();
    return Text.compare(Pos, std::string(S).size(), S) == 0;
  }
  bool atEnd() {
    skipSpace();
    return Pos == Text.size();
  }
  std::string rest(size_t From) const {
    return From >= Text.size() ? std::string("<end>") : Text.substr(From);
  }

  /// operand ("," operand)*; the inputs may be empty ("->(n)"), the outputs not.
  bool operandList(std::vector<LayoutOperand> &Ops, bool Outputs) {
    if (!startsWith("(")) {
      if (!Outputs)
        return true;
      return fail("expected '(' at '" + rest(Pos) + "'; a layout needs at least one output",
                  Pos);
    }
    while (true) {
      Ops.emplace_back();
      if (!operand(Ops.back()))
        return false;
      if (!startsWith(","))
        return true;
      ++Pos;
      if (!startsWith("("))
        return fail("expected '(' at '" + rest(Pos) + "'", Pos);
    }
  }

  /// "(" [dim ("," dim)*] ")"
  bool operand(LayoutOperand &Op) {
    skipSpace();
    Op.Offset = Pos++; // the '(' operandList saw
    if (startsWith(")")) {
      ++Pos;
      return true;
    }
    while (true) {
      CoreDim D;
      if (!dim(D))
        return false;
      Op.Dims.push_back(D);
      skipSpace();
      if (Pos < Text.size() && Text[Pos] == ')') {
        ++Pos;
        return true;
      }
      if (Pos >= Text.size() || Text[Pos] != ',')
        return fail("expected ',' or ')' at '" + rest(Pos) + "'", Pos);
      ++Pos;
    }
  }

  /// A name (an identifier) or a fixed size (a positive integer).
  bool dim(CoreDim &D) {
    skipSpace();
    size_t Start = Pos;
    while (Pos < Text.size() && isNameChar(Text[Pos]))
      ++Pos;
    std::string Tok = Text.substr(Start, Pos - Start);
    if (Tok.empty()) {
      if (Start < Text.size() && Text[Start] != ',' && Text[Start] != ')')
        return fail("unexpected character '" + Text.substr(Start, 1) + "' at '" + rest(Start) +
                        "' (a core dimension is a name or a positive integer)",
                    Start);
      return fail("expected a dimension name at '" + rest(Start) + "'", Start);
    }
    if (Pos < Text.size() && Text[Pos] == '?')
      return fail("flexible dimension '" + Tok + "?' is not supported", Start);
    if (std::isdigit(static_cast<unsigned char>(Tok[0])))
      return fixedSize(Tok, Start, D);
    auto It = std::find(Out.DimNames.begin(), Out.DimNames.end(), Tok);
    D.Name = static_cast<int>(It - Out.DimNames.begin());
    if (It == Out.DimNames.end())
      Out.DimNames.push_back(Tok);
    return true;
  }

  bool fixedSize(const std::string &Tok, size_t Start, CoreDim &D) {
    const uint64_t Max = 0x7fffffff; // as large as an int dimension can be
    uint64_t V = 0;
    for (char C : Tok) {
      if (!std::isdigit(static_cast<unsigned char>(C)))
        return fail("'" + Tok + "' is not a dimension name (names start with a letter or "
                                "'_') or a size",
                    Start);
      V = V * 10 + static_cast<uint64_t>(C - '0');
      if (V > Max)
        return fail("fixed dimension size '" + Tok + "' is too large", Start);
    }
    if (V == 0)
      return fail("fixed dimension size must be positive, not '" + Tok + "'", Start);
    D.Fixed = V;
    return true;
  }

  size_t Pos = 0;
  const std::string &Text;
  Layout &Out;
  LayoutError &Err;
};

} // namespace

std::string Layout::canonical() const {
  return listText(*this, Inputs) + "->" + listText(*this, Outputs);
}

bool parseLayout(const std::string &Text, Layout &Out, LayoutError &Err) {
  Out = Layout();
  return Reader(Text, Out, Err).layout();
}

} // namespace kernplug
