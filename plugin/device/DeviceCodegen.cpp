//===- DeviceCodegen.cpp - link, optimise, emit PTX and cubins --*- C++ -*-===//
#include "ClangCompat.h"
#include "ConstantMemory.h"
#include "device/DeviceAtomics.h"
#include "DevicePass.h"
#include "device/DeviceUnroll.h"

#include "abi/kp_abi.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <set>

using namespace llvm;

namespace kernplug {
namespace {

/// Links the functions Dev needs from the bitcode file at Path.
bool linkBitcode(Module &Dev, const std::string &Path, const char *What,
                 const PassReporter &Report) {
  SMDiagnostic Err;
  // Lazily: the linker materialises only the functions Dev needs (libdevice has ~500).
  std::unique_ptr<Module> Lib = getLazyIRFileModule(Path, Err, Dev.getContext());
  if (!Lib) {
    Report.Error(std::string("cannot read the ") + What + " '" + Path +
                 "': " + Err.getMessage().str());
    return false;
  }
  // libdevice says nvptx64-nvidia-gpulibs; the linker wants them to agree.
  Lib->setTargetTriple(Dev.getTargetTriple());
  Lib->setDataLayout(Dev.getDataLayout());
  if (Linker::linkModules(Dev, std::move(Lib), Linker::LinkOnlyNeeded)) {
    Report.Error(std::string("cannot link the ") + What + " '" + Path + "'");
    return false;
  }
  return true;
}

/// Names of the libdevice functions Dev still declares.
std::set<std::string> libdeviceNeeds(const Module &Dev) {
  std::set<std::string> Names;
  for (const Function &F : Dev.functions())
    if (F.isDeclaration() && F.getName().starts_with("__nv_"))
      Names.insert(F.getName().str());
  return Names;
}

void optimize(Module &M, TargetMachine &TM, unsigned Level) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM);
  registerNvccUnrolling(PB); // nvcc's unroll factors (DeviceUnroll.h)
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  static const OptimizationLevel Levels[] = {OptimizationLevel::O0, OptimizationLevel::O1,
                                             OptimizationLevel::O2, OptimizationLevel::O3};
  ModulePassManager MPM = Level == 0 ? PB.buildO0DefaultPipeline(OptimizationLevel::O0)
                                     : PB.buildPerModuleDefaultPipeline(Levels[Level]);
  MPM.addPass(LowerDeviceAtomicsPass()); // on the optimised module (DeviceAtomics.h)
  MPM.run(M, MAM);
}

/// Writes Text next to the object as <object><Suffix> (save-temps).
void saveTemp(const PluginOptions &Opts, StringRef Suffix, StringRef Text,
              const PassReporter &Report) {
  std::string Base = Opts.OutputFile.empty() || Opts.OutputFile == "-"
                         ? sys::path::stem(Opts.MainFile).str()
                         : Opts.OutputFile;
  std::string Path = Base + Suffix.str();
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC) {
    Report.Error("cannot write '" + Path + "': " + EC.message());
    return;
  }
  OS << Text;
  Report.Note("wrote " + Path);
}

/// Temporary files removed when it goes out of scope.
struct TempFiles {
  std::vector<std::string> Paths;
  ~TempFiles() {
    for (const std::string &P : Paths)
      sys::fs::remove(P);
  }
  /// A new empty file; false when none can be made.
  bool create(StringRef Suffix, std::string &Path) {
    SmallString<128> P;
    if (sys::fs::createTemporaryFile("kernplug", Suffix, P))
      return false;
    Paths.push_back(Path = P.str().str());
    return true;
  }
};

/// Assembles PTX with ptxas once per arch, all archs at the same time: each run
/// takes about as long as the whole host compile of the file, and they are
/// independent processes. Cubins land in Images in Opts.Archs order.
bool runPtxas(const PluginOptions &Opts, StringRef PTX, bool Relocatable,
              std::vector<DeviceImage> &Images, const PassReporter &Report) {
  TempFiles Temps;
  std::string PtxPath;
  bool Made = Temps.create("ptx", PtxPath);
  if (Made) {
    std::error_code EC;
    raw_fd_ostream OS(PtxPath, EC);
    OS << PTX;
    Made = !EC;
  }
  struct Run {
    unsigned SM;
    std::string Arch, Cubin, Log, ExecError;
    sys::ProcessInfo Process;
  };
  std::vector<Run> Runs;
  for (unsigned SM : Opts.Archs) {
    Run R{SM, "-arch=" + PluginOptions::archName(SM), "", "", "", {}};
    Made = Made && Temps.create("cubin", R.Cubin) && Temps.create("log", R.Log);
    Runs.push_back(std::move(R));
  }
  if (!Made) {
    Report.Error("cannot create temporary files for ptxas");
    return false;
  }
  for (Run &R : Runs) {
    SmallVector<StringRef, 8> Args = {Opts.Ptxas, R.Arch, "-O3"};
    if (Opts.DebugLineInfo)
      Args.push_back("-lineinfo");
    if (Relocatable)
      Args.push_back("-c"); // calls functions of other files: nvlink/cuLink resolve them
    for (const std::string &O : Opts.PtxasOptions)
      Args.push_back(O);
    Args.append({PtxPath, "-o", R.Cubin});
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(R.Log), StringRef(R.Log)};
    R.Process = sys::ExecuteNoWait(Opts.Ptxas, Args, std::nullopt, Redirects, 0, &R.ExecError);
  }
  bool AllOK = true;
  for (Run &R : Runs) {
    // Every process is waited for, also after a failure, so that none is left behind.
    int RC = -1;
    std::optional<sys::ProcessStatistics> Stats;
    if (R.Process.Pid != sys::ProcessInfo::InvalidPid)
      RC = sys::Wait(R.Process, std::nullopt, &R.ExecError, &Stats).ReturnCode;
    std::unique_ptr<MemoryBuffer> Cubin;
    if (RC == 0)
      if (auto Buf = MemoryBuffer::getFile(R.Cubin))
        Cubin = std::move(*Buf);
    if (Cubin) {
      Report.Note("cubin for " + PluginOptions::archName(R.SM) + ": " +
                  std::to_string(Cubin->getBufferSize()) + " bytes" +
                  (Stats ? " (ptxas: " + std::to_string(Stats->TotalTime.count() / 1000) +
                               " ms of CPU)"
                         : ""));
      Images.push_back({KP_IMAGE_CUBIN, R.SM, Cubin->getBuffer().str()});
      // What the user's ptxas-options asked ptxas to print (-v: registers, spills).
      if (!Opts.PtxasOptions.empty())
        if (auto Buf = MemoryBuffer::getFile(R.Log); Buf && (*Buf)->getBufferSize())
          Report.Note("ptxas " + PluginOptions::archName(R.SM) + ":\n" +
                      StringRef((*Buf)->getBuffer()).rtrim().str());
      continue;
    }
    if (!AllOK)
      continue; // one report is enough: the others usually say the same
    AllOK = false;
    std::string Log;
    if (auto Buf = MemoryBuffer::getFile(R.Log))
      Log = (*Buf)->getBuffer().str();
    Report.Error("ptxas failed for " + PluginOptions::archName(R.SM) + " (" + Opts.Ptxas +
                 (R.ExecError.empty() ? "" : ": " + R.ExecError) + "):\n" + Log);
  }
  return AllOK;
}

/// Removes the `$L__tmpN:` labels NVPTX 19 emits for debug line ranges. Only DWARF sections
/// refer to them, and DebugDirectivesOnly emits none; worse, the printer can put one inside
/// a multi-line `call.uni` sequence, which ptxas rejects as a syntax error.
void dropDebugLabels(SmallString<0> &PTX) {
  SmallString<0> Out;
  Out.reserve(PTX.size());
  for (StringRef Rest = PTX.str(); !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    StringRef Label = Line.trim();
    bool DebugLabel = Label.consume_front("$L__tmp") && Label.consume_back(":") &&
                      !Label.empty() && Label.find_first_not_of("0123456789") == StringRef::npos;
    if (!DebugLabel)
      (Out += Line) += '\n';
    Rest = Tail;
  }
  PTX = std::move(Out);
}

/// libdevice asks __nvvm_reflect("__CUDA_PREC_SQRT") whether sqrt must be correctly
/// rounded; LLVM 19's NVVMReflect answers 0 for it, which makes sqrtf and everything built on
/// it (hypotf, jnf, …) use sqrt.approx. Answer as nvcc does by default: 1, or 0 when the
/// device code was compiled with -ffast-math (nvcc's -use_fast_math).
void answerPrecSqrt(Module &Dev, bool FastMath) {
  for (const char *Name : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    Function *Reflect = Dev.getFunction(Name);
    if (!Reflect)
      continue;
    for (User *U : make_early_inc_range(Reflect->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->arg_size() != 1)
        continue;
      auto *Str = dyn_cast<GlobalVariable>(Call->getArgOperand(0)->stripPointerCasts());
      auto *Init = Str && Str->hasInitializer()
                       ? dyn_cast<ConstantDataArray>(Str->getInitializer())
                       : nullptr;
      if (!Init || !Init->isCString() || Init->getAsCString() != "__CUDA_PREC_SQRT")
        continue;
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), FastMath ? 0 : 1));
      Call->eraseFromParent();
    }
  }
}

/// -ffast-math is nvcc's --use_fast_math, which implies --ftz=true: float subnormals are
/// flushed to zero (.ftz instructions), and libdevice's __nvvm_reflect("__CUDA_FTZ") says so.
void flushFloatSubnormals(Module &Dev) {
  Dev.setModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(1));
  for (Function &F : Dev.functions())
    if (!F.isDeclaration())
      F.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
}

/// nvcc's --use_fast_math on the device code alone (the option fast-math): libdevice's fast
/// versions of the float functions (__nv_fast_sinf: sin.approx, ...), approximate division and
/// square root, and flush-to-zero of float denormals, in the user's functions and in
/// libdevice (__nvvm_reflect("__CUDA_FTZ")). Before libdevice is linked (the fast names), and
/// after (the attributes on its functions too).
void useDeviceFastMath(Module &Dev) {
  for (Function &F : Dev.functions())
    if (!F.isDeclaration())
      compat::allowApproxFloatDivSqrt(F);
  flushFloatSubnormals(Dev);
  // Each precise libdevice function the code calls becomes its fast form. -prec-sqrt=false:
  // C's sqrtf is __nv_fsqrt_rn (sqrt.rn); __nv_sqrtf is sqrt.approx once answerPrecSqrt says
  // __CUDA_PREC_SQRT is 0.
  static const std::pair<const char *, const char *> FastForms[] = {
      {"__nv_sinf", "__nv_fast_sinf"},     {"__nv_cosf", "__nv_fast_cosf"},
      {"__nv_tanf", "__nv_fast_tanf"},     {"__nv_expf", "__nv_fast_expf"},
      {"__nv_exp10f", "__nv_fast_exp10f"}, {"__nv_logf", "__nv_fast_logf"},
      {"__nv_log2f", "__nv_fast_log2f"},   {"__nv_log10f", "__nv_fast_log10f"},
      {"__nv_powf", "__nv_fast_powf"},     {"__nv_sincosf", "__nv_fast_sincosf"},
      {"__nv_fsqrt_rn", "__nv_sqrtf"}};
  for (auto [PreciseName, FastName] : FastForms) {
    Function *Precise = Dev.getFunction(PreciseName);
    if (!Precise || !Precise->isDeclaration())
      continue;
    FunctionCallee Fast = Dev.getOrInsertFunction(FastName, Precise->getFunctionType());
    Precise->replaceAllUsesWith(Fast.getCallee());
    Precise->eraseFromParent();
  }
}

/// Whether the user's device code was compiled with -ffast-math (before libraries are linked).
bool usesFastMath(const Module &Dev) {
  for (const Function &F : Dev.functions())
    if (!F.isDeclaration() && compat::compiledWithUnsafeMath(F))
      return true;
  return false;
}

} // namespace

std::vector<DeviceImage> expectedImages(const PluginOptions &Opts) {
  std::vector<DeviceImage> Images = {{KP_IMAGE_PTX, Opts.PtxArch, ""}};
  if (!Opts.Ptxas.empty())
    for (unsigned SM : Opts.Archs)
      Images.push_back({KP_IMAGE_CUBIN, SM, ""});
  return Images;
}

/// Functions device code calls that no file of this module defines and the driver does not
/// provide: `device` functions of other files, resolved when the runtime links the modules.
static std::vector<std::string> deviceImports(const Module &Dev) {
  std::vector<std::string> Names;
  for (const Function &F : Dev.functions())
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty() &&
        !is_contained({"vprintf", "malloc", "free", "__assertfail"}, F.getName()))
      Names.push_back(F.getName().str());
  return Names;
}

bool compileDeviceModule(Module &Dev, const std::vector<std::string> &KernelNames,
                         const PluginOptions &Opts, const PassReporter &Report,
                         std::vector<DeviceImage> &Images) {
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(Dev.getTargetTriple(), Err);
  if (!T) {
    Report.Error("this clang's LLVM has no NVPTX target: " + Err);
    return false;
  }
  if (Opts.DeviceRuntime.empty()) {
    Report.Error("the device runtime kernplug-device.bc was not found next to the plugin; "
                 "pass -fplugin-arg-kernplug-device-runtime=<path>");
    return false;
  }
  if (Opts.DeviceFastMath)
    useDeviceFastMath(Dev);
  bool FastMath = Opts.DeviceFastMath || usesFastMath(Dev);
  if (!linkBitcode(Dev, Opts.DeviceRuntime, "device runtime", Report))
    return false;
  std::set<std::string> Needs = libdeviceNeeds(Dev);
  if (!Needs.empty()) {
    if (Opts.Libdevice.empty()) {
      std::string List;
      for (const std::string &N : Needs)
        List += (List.empty() ? "" : ", ") + N.substr(5);
      Report.Error("device code calls " + List + ", which need libdevice; install the CUDA "
                   "toolkit or pass -fplugin-arg-kernplug-libdevice=<path>");
      return false;
    }
    if (!linkBitcode(Dev, Opts.Libdevice, "libdevice", Report))
      return false;
    answerPrecSqrt(Dev, FastMath);
  }
  // Again over libdevice's functions too: inlining one without the attributes would take
  // them off the caller. The fast-math option implies the flush to zero of -ffast-math.
  if (Opts.DeviceFastMath)
    useDeviceFastMath(Dev);
  else if (FastMath)
    flushFloatSubnormals(Dev);

  std::set<std::string> Kernels(KernelNames.begin(), KernelNames.end());
  std::string CPU = PluginOptions::archName(Opts.PtxArch);
  for (Function &F : Dev.functions()) {
    if (F.isDeclaration())
      continue;
    if (!Kernels.count(F.getName().str()))
      F.setLinkage(GlobalValue::InternalLinkage);
    F.removeFnAttr("target-features");
    F.addFnAttr("target-cpu", CPU);
  }
  for (GlobalVariable &GV : Dev.globals())
    if (!GV.isDeclaration() && !GV.hasAttribute(ConstantMemoryAttr)) // the runtime finds those
      GV.setLinkage(GlobalValue::InternalLinkage);

  TargetOptions TO;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      Dev.getTargetTriple(), CPU, "", TO, std::nullopt, std::nullopt,
      Opts.DeviceOptLevel >= 2 ? CodeGenOptLevel::Aggressive : CodeGenOptLevel::Default));
  optimize(Dev, *TM, Opts.DeviceOptLevel);

  std::string VerifyLog;
  raw_string_ostream VOS(VerifyLog);
  if (verifyModule(Dev, &VOS)) {
    Report.Error("internal error: the device module is invalid:\n" + VOS.str());
    return false;
  }
  if (Opts.SaveTemps) {
    std::string IR;
    raw_string_ostream OS(IR);
    Dev.print(OS, nullptr);
    saveTemp(Opts, ".kp.ll", OS.str(), Report);
  }

  SmallString<0> PTX;
  {
    raw_svector_ostream OS(PTX);
    legacy::PassManager PM;
    if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile)) {
      Report.Error("internal error: NVPTX cannot emit PTX");
      return false;
    }
    PM.run(Dev);
  }
  dropDebugLabels(PTX);
  if (Opts.SaveTemps)
    saveTemp(Opts, ".kp.ptx", PTX, Report);
  Images.push_back({KP_IMAGE_PTX, Opts.PtxArch, std::string(PTX.str()) + '\0'});
  Report.Note("PTX for " + CPU + ": " + std::to_string(PTX.size()) + " bytes, " +
              std::to_string(KernelNames.size()) + " kernel(s)");

  std::vector<std::string> Imports = deviceImports(Dev);
  if (!Imports.empty())
    Report.Note("device code calls " + join(Imports, ", ") +
                " of other files: the runtime links this module with theirs when it loads it" +
                (Opts.Ptxas.empty() ? "" : "; cubins are relocatable (ptxas -c)"));
  if (Opts.Ptxas.empty()) {
    Report.Note("no ptxas: embedding PTX only (the driver JIT-compiles it at first launch)");
    return true;
  }
  return runPtxas(Opts, PTX, !Imports.empty(), Images, Report);
}

} // namespace kernplug
