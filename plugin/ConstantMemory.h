//===- ConstantMemory.h - file-scope `constant` variables in the IR -*- C++ -*-===//
//
// A `constant` variable (annotation kernplug.constant) is one host global: the
// CPU backend's copy and the master of the GPU's. In the device module it
// becomes an externally visible .const symbol (address space 4) named
// ptxSymbolOf(its IR name), which the runtime finds with cuModuleGetGlobal;
// the host module lists each in kp_module_desc.constants.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CONSTANTMEMORY_H
#define KERNPLUG_PLUGIN_CONSTANTMEMORY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class GlobalVariable;
} // namespace llvm

namespace kernplug {

/// The device module's constant variables carry this attribute, so that the
/// device code generation keeps them visible.
inline constexpr const char *ConstantMemoryAttr = "kernplug-constant";

/// The PTX name of a constant variable: its IR name with characters PTX does
/// not allow ('.' of a static's suffix) written as "_$_", as NVPTX does.
std::string ptxSymbolOf(llvm::StringRef IRName);

/// In the device module: GV becomes an external .const variable named
/// ptxSymbolOf(GV's name), keeping its initializer (the host's initial value).
void moveToConstantSpace(llvm::GlobalVariable *GV);

} // namespace kernplug

#endif
