//===- SignatureDesc.h - generated kernels' signatures as data --*- C++ -*-===//
#ifndef KERNPLUG_HOST_SIGNATUREDESC_H
#define KERNPLUG_HOST_SIGNATUREDESC_H

#include "DevicePass.h"
#include "host/AbiTypes.h"

namespace kernplug {

/// A new private kp_signature_desc for generated kernel K (VECTORIZE,
/// GUVECTORIZE or REDUCE), from its canonical signature text.
llvm::Constant *signatureDesc(llvm::Module &M, const KernelEntry &K, const AbiTypes &T);

} // namespace kernplug

#endif
