//===- SignatureDesc.cpp - generated kernels' signatures as data -*- C++ -*-===//
//
// A generated kernel's canonical text (KernelEntry::Signature) parsed once
// more by the grammar that wrote it (attributes/), into the kp_signature_desc
// the runtime dispatches on: element type codes (abi/types.def) or a layout's
// operands and core dimensions. The text stays, for messages only.
//
//===----------------------------------------------------------------------===//
#include "host/SignatureDesc.h"

#include "attributes/Layout.h"
#include "attributes/Signature.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace kernplug {
namespace {

/// A private constant array of i64 (NULL if empty), for descriptor tables.
Constant *i64Table(Module &M, ArrayRef<uint64_t> Values, const Twine &Name, const AbiTypes &T) {
  if (Values.empty())
    return ConstantPointerNull::get(T.Ptr);
  auto *Data = ConstantDataArray::get(M.getContext(), Values);
  return new GlobalVariable(M, Data->getType(), true, GlobalValue::PrivateLinkage, Data, Name);
}

/// A generated kernel whose own canonical text does not parse: a plugin bug.
[[noreturn]] void internalError(const std::string &What) {
  report_fatal_error(Twine("kernplug internal error: ") + What);
}

/// The element types of a generated kernel's signature text, as KP_ELEM_*
/// codes: the result and then each input (VECTORIZE), or the one element type
/// (REDUCE).
std::vector<uint64_t> signatureTypes(const KernelEntry &K) {
  std::vector<uint64_t> Codes;
  if (K.Flags & KP_KERNEL_REDUCE) {
    ElemType E;
    if (!parseElemType(K.Signature, E))
      internalError("reduce kernel '" + K.Name + "' has no element type");
    Codes.push_back(E.code());
    return Codes;
  }
  Signature S;
  SignatureError Err;
  if (!parseSignature(K.Signature, S, Err))
    internalError("signature '" + K.Signature + "': " + Err.Message);
  Codes.push_back(S.Result.code());
  for (const ElemType &P : S.Params)
    Codes.push_back(P.code());
  return Codes;
}

} // namespace

Constant *signatureDesc(Module &M, const KernelEntry &K, const AbiTypes &T) {
  using F = kp_signature_desc_field;
  DescriptorInit<F> D(T.kp_signature_desc);
  D.set(F::text, descriptorString(M, K.Signature, "__kp_sig_text"));
  std::vector<uint64_t> Types, OperandDims, Dims; // Dims: int64_t bits
  std::vector<Constant *> Names;
  uint64_t Inputs = 0;
  if (K.Flags & KP_KERNEL_GUVECTORIZE) {
    Layout L;
    LayoutError Err;
    if (!parseLayout(K.Signature, L, Err))
      internalError("layout '" + K.Signature + "': " + Err.Message);
    Inputs = L.Inputs.size();
    for (size_t I = 0; I < L.numOperands(); ++I) {
      OperandDims.push_back(L.operand(I).Dims.size());
      for (const CoreDim &Dim : L.operand(I).Dims)
        Dims.push_back(static_cast<uint64_t>(Dim.Name >= 0 ? Dim.Name
                                                           : -static_cast<int64_t>(Dim.Fixed)));
    }
    for (const std::string &N : L.DimNames)
      Names.push_back(descriptorString(M, N, "__kp_sig_dim"));
  } else {
    Types = signatureTypes(K);
  }
  D.setInt(F::num_types, Types.size()).set(F::types, i64Table(M, Types, "__kp_sig_types", T));
  D.setInt(F::num_inputs, Inputs).setInt(F::num_operands, OperandDims.size());
  D.set(F::operand_dims, i64Table(M, OperandDims, "__kp_sig_operands", T));
  D.set(F::dims, i64Table(M, Dims, "__kp_sig_dims", T));
  D.setInt(F::num_dim_names, Names.size());
  if (Names.empty()) {
    D.setNull(F::dim_names);
  } else {
    auto *Ty = ArrayType::get(T.Ptr, Names.size());
    D.set(F::dim_names, new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage,
                                           ConstantArray::get(Ty, Names), "__kp_sig_names"));
  }
  return new GlobalVariable(M, T.kp_signature_desc, true, GlobalValue::PrivateLinkage, D.get(),
                            "__kp_sig");
}

} // namespace kernplug
