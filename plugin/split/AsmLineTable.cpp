//===- AsmLineTable.cpp - split mode: the line table written out -*- C++ -*-===//
#include "split/AsmLineTable.h"

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

} // namespace

bool writeLineTablesInAssembly(std::string &Error) {
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
}

} // namespace kernplug
