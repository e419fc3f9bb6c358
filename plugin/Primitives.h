//===- Primitives.h - the runtime primitives, from abi/primitives.def -*- C++ -*-===//
//
// The plugin recognises the kp_dev_* functions of the header only through this table, so a
// primitive added to abi/primitives.def is known to every pass at once.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_PLUGIN_PRIMITIVES_H
#define KERNPLUG_PLUGIN_PRIMITIVES_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
} // namespace llvm

namespace kernplug {

enum class PrimitiveClass {
  Index,         // a thread, block or grid index (Slot says which)
  LaneId,        // laneid()
  Barrier,       // syncthreads()
  Collective,    // a barrier that combines values: syncthreads_count/and/or
  GridBarrier,   // grid_sync(): every thread of the grid (a cooperative launch)
  Warp,          // a warp collective
  Fence,         // threadfence*()
  Atomic,        // the atomics that have no LLVM instruction
  DynamicShared, // the block's dynamic shared array
};

/// First slots of the index groups (x, y, z follow): the Slot column of primitives.def, which
/// is also the layout of the CPU block entry's index array (CpuBlockEntry.h).
enum : unsigned { SlotTid = 0, SlotCtaid = 3, SlotNtid = 6, SlotNctaid = 9 };

struct Primitive {
  llvm::StringRef Name;     // the IR name, kp_dev_<ShortName>
  llvm::StringRef ShortName; // what messages call it: ShortName()
  PrimitiveClass Class;
  unsigned Slot; // Index: tid x/y/z 0..2, ctaid 3..5, ntid 6..8, nctaid 9..11
};

/// The primitive a function declaration is, or nullptr (a definition never is one: the
/// device runtime's own bodies are linked in later, and user code cannot define them).
const Primitive *primitiveOf(const llvm::Function *F);
/// The primitive named Name (an IR name), or nullptr.
const Primitive *primitiveNamed(llvm::StringRef Name);
/// The primitive whose ShortName is Short, or nullptr.
const Primitive *primitiveShortNamed(llvm::StringRef Short);
/// The IR name of the index primitive that fills Slot (0..11).
llvm::StringRef indexPrimitiveName(unsigned Slot);

inline bool isPrimitive(const llvm::Function *F, PrimitiveClass C) {
  const Primitive *P = primitiveOf(F);
  return P && P->Class == C;
}

} // namespace kernplug

#endif
