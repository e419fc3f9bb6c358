//===- Layout.h - guvectorize layout grammar -------------------*- C++ -*-===//
//
// Parses the core-dimension layouts of NumPy/Numba generalized ufuncs, such
// as "(m,n),(n,p)->(m,p)" or "(i)->()". NumPy's grammar: an operand is a
// parenthesised, comma-separated list of core dimensions, each a name
// (an identifier) or a fixed size (a positive integer); "->" separates the
// inputs from the outputs; blanks are allowed between tokens. Names may
// repeat (across and within operands, "(m,m)->()") and an output may use
// names no input has (the caller passes every size). NumPy's flexible
// dimensions ("n?") are not supported. Pure C++ so that the attribute checks
// and the IR pass share one definition.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_ATTRIBUTES_LAYOUT_H
#define KERNPLUG_ATTRIBUTES_LAYOUT_H

#include <cstdint>
#include <string>
#include <vector>

namespace kernplug {

/// One core dimension of an operand: a named size (Name index into
/// Layout::DimNames) or a fixed size.
struct CoreDim {
  int Name = -1;      // index into DimNames, or -1 for a fixed size
  uint64_t Fixed = 0; // the size when Name < 0
};

struct LayoutOperand {
  std::vector<CoreDim> Dims; // empty: one element per loop index ("()")
  size_t Offset = 0;         // of its '(' in the text, for diagnostics
};

struct Layout {
  std::vector<LayoutOperand> Inputs, Outputs;
  /// Distinct dimension names in order of first appearance: the order of
  /// the guvectorize function's size parameters.
  std::vector<std::string> DimNames;

  size_t numOperands() const { return Inputs.size() + Outputs.size(); }
  /// Operand I counting the inputs first, as the function's pointers do.
  const LayoutOperand &operand(size_t I) const {
    return I < Inputs.size() ? Inputs[I] : Outputs[I - Inputs.size()];
  }
  bool isOutput(size_t I) const { return I >= Inputs.size(); }
  /// Without blanks, e.g. "(m,n),(n)->(m)": what the runtime parses.
  std::string canonical() const;
};

/// What went wrong while parsing, and where in the text (0-based offset).
struct LayoutError {
  std::string Message; // quotes the bad part
  size_t Offset = 0;
};

/// Parses a whole layout; on failure fills Err and returns false.
bool parseLayout(const std::string &Text, Layout &Out, LayoutError &Err);

} // namespace kernplug

#endif
