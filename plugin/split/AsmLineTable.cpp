//===- AsmLineTable.cpp - split mode: the line table written out -*- C++ -*-===//
#include "split/AsmLineTable.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace kernplug {
namespace {

// The target as registered before us: its MCAsmInfo constructor, which ours calls.
Target &registeredX86_64() {
  static Target Saved;
  return Saved;
}

#if LLVM_VERSION_MAJOR < 20
// MCAsmInfo's switch is protected and has no setter; a pointer to it taken in a derived
// class is an ordinary member pointer.
struct AsmInfoAccess : MCAsmInfo {
  static constexpr bool MCAsmInfo::*Directives = &AsmInfoAccess::UsesDwarfFileAndLocDirectives;
};

MCAsmInfo *createWithoutLocDirectives(const MCRegisterInfo &MRI, const Triple &TT,
                                      const MCTargetOptions &Options) {
  MCAsmInfo *MAI = registeredX86_64().createMCAsmInfo(MRI, TT.str(), Options);
  if (MAI)
    MAI->*AsmInfoAccess::Directives = false;
  return MAI;
}
#endif

} // namespace

bool writeLineTablesInAssembly(std::string &Error) {
#if LLVM_VERSION_MAJOR >= 20
  // LLVM 20 and later decide .file/.loc from the target alone (MCAsmInfo has no switch):
  // kernplug-gcc.so built for such a clang does not ask (KPGCC_CLANG_MAJOR).
  Error = "asm-line-table needs LLVM 19 (later LLVMs always write .file/.loc directives)";
  return false;
#else
  static bool Done = false;
  if (Done)
    return true;
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget("x86_64-unknown-linux-gnu", Err);
  if (!T) {
    Error = "asm-line-table: no x86-64 target in this LLVM (" + Err + ")";
    return false;
  }
  registeredX86_64() = *T;
  TargetRegistry::RegisterMCAsmInfo(const_cast<Target &>(*T), createWithoutLocDirectives);
  Done = true;
  return true;
#endif
}

} // namespace kernplug
