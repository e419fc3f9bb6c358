//===- AbiTypes.cpp - the descriptor structs as LLVM types ------*- C++ -*-===//
//
// The IR types come from abi/descriptors.def's Kind column (PTR, U64, U32) and
// the C structs from its CType column; the static_asserts below prove, for the
// host this plugin is built for, that both give every field the same offset
// and each struct the same size (LLVM lays out a non-packed literal struct as
// C does: each field at the next multiple of its alignment).
//
//===----------------------------------------------------------------------===//
#include "host/AbiTypes.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstddef>

using namespace llvm;

namespace kernplug {
namespace {

enum class AbiKind { PTR, U64, U32 };

constexpr size_t kindBytes(AbiKind K) {
  return K == AbiKind::PTR ? sizeof(void *) : K == AbiKind::U64 ? 8 : 4;
}

Type *kindType(LLVMContext &C, AbiKind K) {
  if (K == AbiKind::PTR)
    return PointerType::get(C, 0);
  return Type::getIntNTy(C, static_cast<unsigned>(kindBytes(K) * 8));
}

// ---- the compile-time layout check ------------------------------------------

struct FieldShape {
  size_t Bytes, Align, COffset;
};

/// Whether the IR struct of these fields puts each at its C offset and is as
/// large as the C struct.
template <size_t N> constexpr bool irLayoutMatches(const FieldShape (&Fields)[N], size_t CSize) {
  size_t Offset = 0, MaxAlign = 1;
  for (const FieldShape &F : Fields) {
    Offset = (Offset + F.Align - 1) / F.Align * F.Align;
    if (Offset != F.COffset)
      return false;
    Offset += F.Bytes;
    MaxAlign = F.Align > MaxAlign ? F.Align : MaxAlign;
  }
  return (Offset + MaxAlign - 1) / MaxAlign * MaxAlign == CSize;
}

#define KP_ABI_STRUCT_BEGIN(S) constexpr FieldShape S##_shape[] = {
#define KP_ABI_FIELD(S, Name, Kind, CType)                                                     \
  {kindBytes(AbiKind::Kind), kindBytes(AbiKind::Kind), offsetof(S, Name)},
#define KP_ABI_ARRAY(S, Name, Kind, CType, N)                                                  \
  {(N) * kindBytes(AbiKind::Kind), kindBytes(AbiKind::Kind), offsetof(S, Name)},
#define KP_ABI_STRUCT_END(S)                                                                   \
  }                                                                                            \
  ;                                                                                            \
  static_assert(irLayoutMatches(S##_shape, sizeof(S)),                                         \
                #S ": the IR type (Kind column of abi/descriptors.def) and the C struct "      \
                   "(CType column) have different layouts");
#include "abi/descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

// Each C type as large as its IR type (the offsets above cannot see the last field's).
#define KP_ABI_STRUCT_BEGIN(S)
#define KP_ABI_FIELD(S, Name, Kind, CType)                                                     \
  static_assert(sizeof(CType) == kindBytes(AbiKind::Kind),                                     \
                #S "." #Name ": the C type and the IR kind differ in size");
#define KP_ABI_ARRAY(S, Name, Kind, CType, N) KP_ABI_FIELD(S, Name, Kind, CType)
#define KP_ABI_STRUCT_END(S)
#include "abi/descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

} // namespace

// ---- field names, for the internal error ------------------------------------

#define KP_ABI_STRUCT_BEGIN(S) const char *const S##_field::Names[] = {
#define KP_ABI_FIELD(S, Name, Kind, CType) #S "." #Name,
#define KP_ABI_ARRAY(S, Name, Kind, CType, N) #S "." #Name,
#define KP_ABI_STRUCT_END(S) };
#include "abi/descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

AbiTypes::AbiTypes(LLVMContext &C) {
  Ptr = PointerType::get(C, 0);
  I64 = Type::getInt64Ty(C);
#define KP_ABI_STRUCT_BEGIN(S) {std::vector<Type *> Fields;
#define KP_ABI_FIELD(S, Name, Kind, CType) Fields.push_back(kindType(C, AbiKind::Kind));
#define KP_ABI_ARRAY(S, Name, Kind, CType, N)                                                  \
  Fields.push_back(ArrayType::get(kindType(C, AbiKind::Kind), N));
#define KP_ABI_STRUCT_END(S) this->S = StructType::get(C, Fields); }
#include "abi/descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END
}

StructType *threadRangeType(LLVMContext &C) { return AbiTypes(C).kp_cpu_thread_range; }

Value *threadRangeElement(IRBuilder<> &B, Value *Range, kp_cpu_thread_range_field::Index F,
                          unsigned D) {
  return B.CreateInBoundsGEP(threadRangeType(B.getContext()), Range,
                             {B.getInt32(0), B.getInt32(F), B.getInt32(D)});
}

Constant *descriptorString(Module &M, StringRef S, const Twine &Name) {
  auto *Data = ConstantDataArray::getString(M.getContext(), S);
  auto *GV = new GlobalVariable(M, Data->getType(), true, GlobalValue::PrivateLinkage, Data,
                                Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return GV;
}

void reportBadDescriptorField(const char *Name, bool Unset) {
  report_fatal_error(Twine("kernplug internal error: descriptor field ") + Name +
                     (Unset ? " was not set" : " has a value of the wrong type"));
}

} // namespace kernplug
