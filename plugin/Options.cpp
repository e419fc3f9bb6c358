//===- Options.cpp - plugin options ---------------------------*- C++ -*-===//
#include "Options.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>

namespace kernplug {

const std::vector<unsigned> &PluginOptions::supportedArchs() {
  // Those of this clang's NVPTX that CUDA 13's ptxas has too (cmake/ClangVersion.cmake).
  static const std::vector<unsigned> Archs = {KP_NVPTX_ARCHS};
  return Archs;
}

std::string PluginOptions::archName(unsigned SM) { return "sm_" + std::to_string(SM); }

static bool parseArchList(llvm::StringRef Value, std::vector<unsigned> &Out,
                          std::string &Error, const char *Option) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Value.split(Parts, ',', -1, false);
  std::vector<unsigned> Archs;
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    llvm::StringRef Token = P;
    unsigned SM = 0;
    const auto &Known = PluginOptions::supportedArchs();
    if (!P.consume_front("sm_") || P.getAsInteger(10, SM) ||
        std::find(Known.begin(), Known.end(), SM) == Known.end()) {
      Error = "unsupported arch '" + Token.str() + "' in " + Option + Value.str() +
              " (supported:";
      for (unsigned K : Known)
        Error += " " + PluginOptions::archName(K);
      Error += ")";
      return false;
    }
    Archs.push_back(SM);
  }
  if (Archs.empty()) {
    Error = std::string(Option) + " needs an architecture, e.g. " + Option + "sm_90";
    return false;
  }
  std::sort(Archs.begin(), Archs.end());
  Archs.erase(std::unique(Archs.begin(), Archs.end()), Archs.end());
  Out = Archs;
  return true;
}

bool PluginOptions::parse(const std::string &Arg, std::string &Error) {
  std::pair<llvm::StringRef, llvm::StringRef> Split = llvm::StringRef(Arg).split('=');
  llvm::StringRef Name = Split.first, Value = Split.second;
  bool HasValue = Arg.find('=') != std::string::npos;
  auto Flag = [&](bool &Out) {
    if (!HasValue || Value == "1" || Value == "on" || Value == "true") {
      Out = true;
      return true;
    }
    if (Value == "0" || Value == "off" || Value == "false") {
      Out = false;
      return true;
    }
    Error = "option '" + Name.str() + "' takes no value or one of 0/1/on/off (got '" +
            Value.str() + "')";
    return false;
  };
  if (Name == "arch") {
    ArchGiven = true;
    return parseArchList(Value, Archs, Error, "arch=");
  }
  if (Name == "ptx-arch") {
    std::vector<unsigned> One;
    if (!parseArchList(Value, One, Error, "ptx-arch="))
      return false;
    if (One.size() != 1) {
      Error = "ptx-arch= takes one architecture (got '" + Value.str() + "')";
      return false;
    }
    PtxArchGiven = true;
    PtxArch = One.front();
    return true;
  }
  if (Name == "save-temps")
    return Flag(SaveTemps);
  if (Name == "verbose")
    return Flag(Verbose);
  if (Name == "reduce-fibers")
    return Flag(ReduceFibers);
  if (Name == "check")
    return Flag(Check);
  if (Name == "split") {
    // The id goes into symbol names: keep it to what every assembler takes.
    if (Value.empty() || Value.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                                                 "VWXYZ0123456789_") != llvm::StringRef::npos) {
      Error = "split= takes an id of letters, digits and '_' (got '" + Value.str() + "')";
      return false;
    }
    SplitId = Value.str();
    return true;
  }
  if (Name == "cpu-barriers") {
    if (Value == "split" || Value == "fibers") {
      CpuBarrierFibers = Value == "fibers";
      return true;
    }
    Error = "cpu-barriers= takes split or fibers (got '" + Value.str() + "')";
    return false;
  }
  if (Name == "device-opt" || Name == "device-O") {
    if (Value.size() == 1 && Value[0] >= '0' && Value[0] <= '3') {
      DeviceOptLevel = Value[0] - '0';
      return true;
    }
    Error = "device-opt= takes 0, 1, 2 or 3 (got '" + Value.str() + "')";
    return false;
  }
  if (Name == "fast-math" && !HasValue) {
    DeviceFastMath = true;
    return true;
  }
  if (Name == "ptxas-options") {
    // Comma-separated, as nvcc's -Xptxas: -fplugin-arg-kernplug-ptxas-options=-v,-O3
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef P : Parts)
      PtxasOptions.push_back(P.trim().str());
    if (PtxasOptions.empty()) {
      Error = "ptxas-options= takes ptxas arguments separated by commas (got '" + Value.str() +
              "')";
      return false;
    }
    return true;
  }
  if (Name == "maxrregcount") {
    // nvcc's -maxrregcount: registers per thread of every kernel (ptxas rounds it and keeps
    // at least 16; sm_75 and newer have at most 255).
    unsigned N = 0;
    if (HasValue && !Value.getAsInteger(10, N) && N >= 16 && N <= 255) {
      MaxRegisters = N;
      return true;
    }
    Error = "maxrregcount= takes a register count from 16 to 255 (got '" + Value.str() + "')";
    return false;
  }
  if (Name == "libdevice" || Name == "ptxas" || Name == "device-runtime" ||
      Name == "reduce-runtime") {
    // "none" turns the tool off (PTX without cubins, no libdevice), for tests and for
    // machines whose toolkit should be ignored.
    if (!HasValue || Value.empty() || (Value != "none" && !llvm::sys::fs::exists(Value))) {
      Error = Name.str() + "= must name an existing file or be 'none' (got '" + Value.str() + "')";
      return false;
    }
    (Name == "libdevice"        ? Libdevice
     : Name == "ptxas"          ? Ptxas
     : Name == "device-runtime" ? DeviceRuntime
                                : ReduceRuntime) = Value.str();
    return true;
  }
  Error = "unknown option '" + Name.str() +
          "' (known: arch, ptx-arch, save-temps, verbose, device-opt, libdevice, ptxas, "
          "ptxas-options, fast-math, device-runtime, reduce-runtime, reduce-fibers, cpu-barriers, "
          "check, split, maxrregcount)";
  return false;
}

bool PluginOptions::finishParsing(std::string &Error) {
  if (!PtxArchGiven && ArchGiven)
    PtxArch = Archs.front(); // arch= alone: PTX for the lowest listed, as before ptx-arch=
  if (PtxArch > Archs.front()) {
    Error = "ptx-arch=" + archName(PtxArch) + " is newer than " + archName(Archs.front()) +
            " in arch=: the cubins are assembled from the PTX, so ptx-arch= must not be "
            "above any arch=";
    return false;
  }
  return true;
}

/// The directory this plugin was loaded from.
static std::string pluginDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&pluginDirectory), &Info) || !Info.dli_fname)
    return "";
  return llvm::sys::path::parent_path(Info.dli_fname).str();
}

static std::string firstExisting(std::initializer_list<std::string> Candidates) {
  for (const std::string &C : Candidates)
    if (!C.empty() && llvm::sys::fs::exists(C))
      return C;
  return "";
}

static std::string envOr(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? V : "";
}

void PluginOptions::resolvePaths() {
  std::string CudaPath = envOr("CUDA_PATH");
  if (CudaPath.empty())
    CudaPath = envOr("CUDA_HOME");
  if (Libdevice == "none")
    Libdevice.clear();
  else if (Libdevice.empty())
    Libdevice = firstExisting({KP_DEFAULT_LIBDEVICE,
                               CudaPath.empty() ? "" : CudaPath + "/nvvm/libdevice/libdevice.10.bc",
                               "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"});
  if (Ptxas == "none") {
    Ptxas.clear();
  } else if (Ptxas.empty()) {
    Ptxas = firstExisting({KP_DEFAULT_PTXAS, CudaPath.empty() ? "" : CudaPath + "/bin/ptxas"});
    if (Ptxas.empty())
      if (auto P = llvm::sys::findProgramByName("ptxas"))
        Ptxas = *P;
  }
  if (DeviceRuntime.empty())
    DeviceRuntime = firstExisting({pluginDirectory() + "/kernplug-device.bc",
                                   pluginDirectory() + "/kernplug/kernplug-device.bc"});
  if (ReduceRuntime == "none")
    ReduceRuntime.clear(); // kp_reduce's kernels unavailable: an error only where needed
  else if (ReduceRuntime.empty())
    ReduceRuntime = firstExisting({pluginDirectory() + "/kernplug-reduce.bc",
                                   pluginDirectory() + "/kernplug/kernplug-reduce.bc"});
}

} // namespace kernplug
