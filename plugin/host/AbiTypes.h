//===- AbiTypes.h - the descriptor structs as LLVM types --------*- C++ -*-===//
//
// The IR side of abi/kp_abi.h, generated from the same rows
// (abi/descriptors.def): one StructType per struct, the index of each field
// by name (kp_kernel_desc_field::flags, …), and DescriptorInit, which builds
// an initializer field by field name and refuses to leave one out, so that
// adding a row cannot silently shift the others. AbiTypes.cpp checks at
// compile time that these types and the C structs have the same layout.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_HOST_ABITYPES_H
#define KERNPLUG_HOST_ABITYPES_H

#include "abi/kp_abi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"

#include <vector>

namespace kernplug {

// <struct>_field::<name>: the field's index in the IR struct; NumFields; and
// Names[index], "<struct>.<name>" for messages.
#define KP_ABI_STRUCT_BEGIN(S) struct S##_field { enum Index : unsigned {
#define KP_ABI_FIELD(S, Name, Kind, CType) Name,
#define KP_ABI_ARRAY(S, Name, Kind, CType, N) Name,
#define KP_ABI_STRUCT_END(S) NumFields }; static const char *const Names[]; };
#include "abi/descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

/// The IR types of abi/descriptors.def's structs (literal struct types).
struct AbiTypes {
  llvm::PointerType *Ptr;
  llvm::IntegerType *I64;
#define KP_ABI_STRUCT_BEGIN(S) llvm::StructType *S;
#define KP_ABI_FIELD(S, Name, Kind, CType)
#define KP_ABI_ARRAY(S, Name, Kind, CType, N)
#define KP_ABI_STRUCT_END(S)
#include "abi/descriptors.def"
#undef KP_ABI_STRUCT_BEGIN
#undef KP_ABI_FIELD
#undef KP_ABI_ARRAY
#undef KP_ABI_STRUCT_END

  explicit AbiTypes(llvm::LLVMContext &C);
};

/// kp_cpu_thread_range, which the CPU block entries read and the per-thread
/// entries build, and the address of element D of its array field F
/// (begin[D] or end[D]) in the one at Range.
llvm::StructType *threadRangeType(llvm::LLVMContext &C);
llvm::Value *threadRangeElement(llvm::IRBuilder<> &B, llvm::Value *Range,
                                kp_cpu_thread_range_field::Index F, unsigned D);

/// A private NUL-terminated string for a descriptor's `const char *` field.
llvm::Constant *descriptorString(llvm::Module &M, llvm::StringRef S, const llvm::Twine &Name);

/// Stops the plugin: a descriptor field was left unset or given a value of
/// another type (a bug in the plugin, never in the user's code).
[[noreturn]] void reportBadDescriptorField(const char *Name, bool Unset);

/// Builds the initializer of one descriptor of struct S (Fields is
/// S##_field) by field name. get() stops the plugin with an internal error
/// if a field was left unset or set to a value of another type.
template <class Fields> class DescriptorInit {
public:
  explicit DescriptorInit(llvm::StructType *Ty) : Ty(Ty), Values(Fields::NumFields, nullptr) {}

  DescriptorInit &set(typename Fields::Index F, llvm::Constant *V) {
    Values[F] = V;
    return *this;
  }
  DescriptorInit &setInt(typename Fields::Index F, uint64_t V) {
    return set(F, llvm::ConstantInt::get(Ty->getElementType(F), V));
  }
  DescriptorInit &setNull(typename Fields::Index F) {
    return set(F, llvm::Constant::getNullValue(Ty->getElementType(F)));
  }
  llvm::Constant *get() const {
    for (unsigned I = 0; I < Fields::NumFields; ++I)
      if (!Values[I] || Values[I]->getType() != Ty->getElementType(I))
        reportBadDescriptorField(Fields::Names[I], /*Unset=*/!Values[I]);
    return llvm::ConstantStruct::get(Ty, Values);
  }

private:
  llvm::StructType *Ty;
  std::vector<llvm::Constant *> Values;
};

} // namespace kernplug

#endif
