//===- CheckedAccess.h - kernplug-cpu-checked-access ------------*- C++ -*-===//
//
// The CPU backend's checked mode (docs/debugging.md "Checked mode"), built only
// under -fplugin-arg-kernplug-check. For each user kernel <k> this pass adds,
// beside the normal CPU entries, a per-thread entry <k>.kp.cpu_checked(void
// **args) that calls <k>.kp.checked: a clone of the kernel, with one more
// parameter (the launch's bounds, args[n] after the n arguments), every call to
// a function with a body inlined (bounded), the locals promoted to registers
// (so that -O0 code shows where its pointers come from), and a check before
// each load, store, atomic, memset/memcpy/memmove and atomic primitive whose
// address derives, through GEPs, casts, phis and selects, from
//   - a pointer parameter: bounds[param].lo <= p && p + bytes <= .hi inline
//     (the allocation the argument lies in), else a call to the report
//     __kp_check_param(param, p, bytes, flags, where), which does not return;
//   - a `shared` array: __kp_check_shared(base, array bytes, name, p, bytes,
//     flags, where);
//   - kp_dev_dynamic_shared(): __kp_check_dynamic_shared(p, bytes, flags,
//     where), against the launch's dynamic shared bytes.
// flags: bit 0 a write. where: "file:line" of the access (with -g), or null.
// Other addresses (pointers loaded from memory, returned by calls left out of
// the inlining, made from integers) are not checked. The runtime
// (runtime/backend/cpu/cpu_check.c) runs the checked entry, on fibers or one
// thread after another, when KP_CHECK is set. Generated (ufunc) kernels get
// none: the runtime builds their arguments. A remark per kernel says how many
// accesses it checks.
//
// host-stubs, once the descriptors exist, calls emitCheckedEntryTable: a table
// of {descriptor, checked entry} pairs and a constructor/destructor pair that
// registers it with __kp_register_checked(table, n) and
// __kp_unregister_checked(table). Without the option nothing of this is built.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_CPU_CHECKEDACCESS_H
#define KERNPLUG_PLUGIN_CPU_CHECKEDACCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class GlobalVariable;
} // namespace llvm

namespace kernplug {

struct KernelEntry;

class CpuCheckedAccessPass : public llvm::PassInfoMixin<CpuCheckedAccessPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// <k>.kp.cpu_checked: the checked per-thread entry of kernel <k>.
std::string checkedEntryName(llvm::StringRef Kernel);

/// For each kernel of KernelTable (the descriptor array, in Kernels' order) that has a
/// checked entry: the registration table and its constructor and destructor. Nothing
/// when none has one.
void emitCheckedEntryTable(llvm::Module &M, llvm::ArrayRef<KernelEntry> Kernels,
                           llvm::GlobalVariable *KernelTable);

} // namespace kernplug

#endif
