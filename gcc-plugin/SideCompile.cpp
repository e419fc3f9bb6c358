//===- SideCompile.cpp - clang's half of the object --------------*- C++ -*-===//
//
// Before GCC's IPA passes, when the file defines kernplug functions and GCC found no error:
// run clang-19 -fplugin=kernplug.so -fplugin-arg-kernplug-split=<id> -S on the same source
// (GCC-preprocessed text is not C clang can read, so clang preprocesses it itself, with the
// user's -I/-D/-U/-std…, forwarded from the driver's COLLECT_GCC_OPTIONS), and add its
// assembly to GCC's as one top-level asm statement, which GCC writes into the object and
// streams through LTO like the user's own. The clang half defines the launch stubs, CPU
// entries, descriptors, images and registration; all its other symbols are local and
// prefixed kp.<id>. (split/SplitPass.h). Its diagnostics go to stderr as clang prints them,
// at the original lines; host warnings are GCC's only (-Wno-everything).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "GccIncludes.h"

#include "GccPlugin.h"

namespace kpgcc {
namespace {

/// COLLECT_GCC_OPTIONS: the driver's options, each in single quotes ('\'' for a quote).
std::vector<std::string> driverOptions() {
  std::vector<std::string> Out;
  const char *S = getenv("COLLECT_GCC_OPTIONS");
  if (!S)
    return Out;
  std::string Cur;
  bool InQuote = false, Any = false;
  for (const char *P = S; *P; ++P) {
    if (*P == '\'') {
      InQuote = !InQuote;
      Any = true;
    } else if (*P == '\\' && !InQuote && P[1]) {
      Cur += *++P;
    } else if (*P == ' ' && !InQuote) {
      if (Any)
        Out.push_back(Cur);
      Cur.clear();
      Any = false;
    } else {
      Cur += *P;
      Any = true;
    }
  }
  if (Any)
    Out.push_back(Cur);
  return Out;
}

bool startsWith(const std::string &S, const char *Prefix) {
  return S.compare(0, strlen(Prefix), Prefix) == 0;
}

/// Options clang must see to read the file as GCC did and to lay out the same ABI.
bool forwarded(const std::string &O) {
  static const char *const Exact[] = {
      "-ffast-math", "-fno-fast-math", "-fmath-errno", "-fno-math-errno", "-funsigned-char",
      "-fsigned-char", "-fno-signed-char", "-fno-unsigned-char", "-fshort-enums",
      "-fno-short-enums", "-fwrapv", "-fno-wrapv", "-fstrict-aliasing", "-fno-strict-aliasing",
      "-fPIC", "-fpic", "-fPIE", "-fpie", "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE",
      "-fopenmp", "-ffunction-sections", "-fdata-sections", "-fcommon", "-fno-common",
      "-fno-builtin", "-ffreestanding", "-ffinite-math-only", "-fno-finite-math-only",
      "-fno-trapping-math", "-fno-signed-zeros", "-freciprocal-math", "-funroll-loops",
      "-fno-omit-frame-pointer", "-fomit-frame-pointer", "-Werror", "-ansi"};
  for (const char *E : Exact)
    if (O == E)
      return true;
  static const char *const Prefixes[] = {"-I", "-D", "-U", "-std=", "-O", "-march=", "-mtune=",
                                         "-mavx", "-msse", "-mfma", "-mf16c", "-mbmi", "-mno-",
                                         "-mpopcnt", "-mlzcnt", "-ffp-contract=",
                                         "-fpack-struct", "-fvisibility=", "-include",
                                         "-imacros", "-isystem", "-iquote", "-idirafter",
                                         "-fdebug-prefix-map=", "-ffile-prefix-map=",
                                         "-fmacro-prefix-map="};
  for (const char *P : Prefixes)
    if (startsWith(O, P))
      return true;
  return false;
}

/// Options whose argument is the next word.
bool takesNextWord(const std::string &O) {
  static const char *const Words[] = {"-I", "-D", "-U", "-include", "-imacros", "-isystem",
                                      "-iquote", "-idirafter", "-o", "-x", "-dumpdir",
                                      "-dumpbase", "-dumpbase-ext", "-MF", "-MT", "-MQ"};
  for (const char *W : Words)
    if (O == W)
      return true;
  return false;
}

/// Options that change the C ABI in a way the clang half would not follow.
bool abiChanging(const std::string &O) {
  return O == "-m32" || O == "-mx32" || O == "-m16" || startsWith(O, "-mabi=") ||
         O == "-fpcc-struct-return" || O == "-freg-struct-return" ||
         startsWith(O, "-mregparm") || O == "-mrtd";
}

std::string pluginDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&pluginDirectory), &Info) || !Info.dli_fname)
    return ".";
  std::string Path = Info.dli_fname;
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

std::string firstExisting(std::initializer_list<std::string> Candidates) {
  for (const std::string &C : Candidates)
    if (!C.empty() && access(C.c_str(), R_OK) == 0)
      return C;
  return "";
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// clang's assembler-local labels (.L…) renamed .Lkp_…, which GCC never writes: with -g
/// both compilers name DWARF labels alike (.Ldebug_loc0). Not inside string data.
std::string renameLocalLabels(const std::string &Line) {
  size_t First = Line.find_first_not_of(" \t");
  if (First != std::string::npos &&
      (startsWith(Line.substr(First), ".ascii") || startsWith(Line.substr(First), ".string")))
    return Line;
  std::string Out;
  for (size_t I = 0; I < Line.size(); ++I) {
    Out += Line[I];
    char Before = I ? Line[I - 1] : ' ';
    if (Line[I] == '.' && I + 1 < Line.size() && Line[I + 1] == 'L' && !ISALNUM(Before) &&
        Before != '_' && Before != '.' && Before != '$')
      Out += "Lkp_", ++I;
  }
  return Out;
}

/// clang's assembly, made fit to sit inside GCC's: it starts and ends in GCC's section; its
/// own .file line goes (GCC has one), its local labels are renamed, and under -flto -g so do
/// its line directives (the source lines kernplug.so needed are in the code already:
/// checked-mode messages, the PTX's line info; two compilers' .file tables cannot share one
/// assembly file, and lto1 writes GCC's line table with directives). Otherwise, with -g,
/// clang wrote its line table as data and its compile unit stays (lineTablesInAssembly()).
std::string joinableAssembly(const std::string &Text) {
  std::string Out = "\t.pushsection .text\n";
  std::istringstream In(Text);
  for (std::string Line; std::getline(In, Line);) {
    if (startsWith(Line, "\t.file\t") || startsWith(Line, "\t.file ") ||
        startsWith(Line, "\t.loc\t"))
      continue;
    // GCC's top-level asm is a C string; clang's -g comments can hold a raw NUL (the bytes
    // of a DW_OP_implicit_value), which would cut it there.
    Line.erase(std::remove(Line.begin(), Line.end(), '\0'), Line.end());
    Out += renameLocalLabels(Line);
    Out += '\n';
  }
  Out += "\t.popsection\n";
  return Out;
}

int runProgram(const std::vector<std::string> &Args) {
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  fflush(stderr);
  pid_t Pid = fork();
  if (Pid < 0)
    return -1;
  if (Pid == 0) {
    execv(Argv[0], Argv.data());
    fprintf(stderr, "kernplug-gcc: cannot run %s: %s\n", Argv[0], xstrerror(errno));
    _exit(127);
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
}

/// A new empty file for clang's assembly, in $TMPDIR.
std::string temporaryAssemblyFile() {
  const char *Dir = getenv("TMPDIR");
  std::string Path = std::string(Dir && *Dir ? Dir : "/tmp") + "/kernplug-gcc-XXXXXX.s";
  int Fd = mkstemps(&Path[0], 2);
  if (Fd < 0)
    return "";
  close(Fd);
  return Path;
}

std::string quoteForMessage(const std::vector<std::string> &Args) {
  std::string S;
  for (const std::string &A : Args)
    S += (S.empty() ? "" : " ") + A;
  return S;
}

} // namespace

const std::string &translationUnitId() {
  static std::string Id;
  if (!Id.empty())
    return Id;
  // FNV-1a, 64 bits, of the input's name and the driver's options.
  uint64_t H = 1469598103934665603ull;
  auto Mix = [&](const char *S) {
    for (; S && *S; ++S)
      H = (H ^ static_cast<unsigned char>(*S)) * 1099511628211ull;
    H = (H ^ 0xff) * 1099511628211ull;
  };
  Mix(main_input_filename);
  Mix(getenv("COLLECT_GCC_OPTIONS"));
  char Buf[17];
  snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(H));
  Id = Buf;
  return Id;
}

namespace {

/// Runs clang's half: its assembly, or only its checks (-fsyntax-only). False after an error.
bool runClang(bool SyntaxOnly, std::string &Assembly) {
  if (seen_error() || !kernplugDefinitions() || !reportNestedFunctions())
    return false;
  const char *Input = main_input_filename;
  if (!Input || !*Input || !strcmp(Input, "-") || access(Input, R_OK) != 0) {
    error("kernplug-gcc: the kernels of %qs need a source file clang can read too (not "
          "standard input)",
          Input ? Input : "");
    return false;
  }
  Options &O = options();
  const char *EnvClang = getenv("KPGCC_CLANG");
  std::string Clang =
      O.Clang.empty() ? firstExisting({EnvClang ? EnvClang : "", KPGCC_DEFAULT_CLANG}) : O.Clang;
  std::string Kernplug = O.KernplugPlugin.empty()
                             ? firstExisting({pluginDirectory() + "/kernplug.so",
                                              pluginDirectory() + "/kernplug/kernplug.so"})
                             : O.KernplugPlugin;
  if (Clang.empty() || access(Clang.c_str(), X_OK) != 0) {
    error("kernplug-gcc: clang-19 was not found (looked at %qs); pass "
          "-fplugin-arg-<plugin>-clang=<path> or set KPGCC_CLANG",
          Clang.empty() ? KPGCC_DEFAULT_CLANG : Clang.c_str());
    return false;
  }
  if (Kernplug.empty() || access(Kernplug.c_str(), R_OK) != 0) {
    error("kernplug-gcc: kernplug.so was not found (looked at %qs); pass "
          "-fplugin-arg-<plugin>-kernplug=<path>",
          Kernplug.empty() ? (pluginDirectory() + "/kernplug.so").c_str() : Kernplug.c_str());
    return false;
  }

  std::vector<std::string> Args = {Clang, "-x", "c", Input, "-S", "-o", "",
                                   "-fplugin=" + Kernplug,
                                   "-fplugin-arg-kernplug-split=" + translationUnitId(),
                                   "-fno-addrsig", "-fno-ident", "-Wno-everything",
                                   "-Wbackend-plugin"};
  if (SyntaxOnly)
    Args.erase(Args.begin() + 4, Args.begin() + 7), Args.insert(Args.begin() + 4, "-fsyntax-only");
  std::string Output;
  bool Debug = false;
  std::vector<std::string> Driver = driverOptions();
  for (size_t I = 0; I < Driver.size(); ++I) {
    const std::string &D = Driver[I];
    if (abiChanging(D)) {
      error("kernplug-gcc: %qs changes the C ABI of the kernels' parameters, which clang's "
            "half of the object would not follow; it is not supported with kernels",
            D.c_str());
      return false;
    }
    if (startsWith(D, "-g") && !startsWith(D, "-gno-")) // the last -g* decides, as in gcc
      Debug = D != "-g0";
    bool Next = takesNextWord(D) && I + 1 < Driver.size();
    if (D == "-o" && Next)
      Output = Driver[I + 1];
    if (forwarded(D)) {
      Args.push_back(D);
      if (Next)
        Args.push_back(Driver[I + 1]);
    }
    if (Next)
      ++I;
  }
  if (Debug && lineTablesInAssembly()) { // clang's compile unit joins GCC's
    Args.push_back("-g");
    Args.push_back("-fplugin-arg-kernplug-asm-line-table");
  } else if (Debug) { // source lines in the IR, for kernplug.so; joinableAssembly() drops
    Args.push_back("-gline-directives-only"); // the directives
  }
  for (const std::string &KpArg : O.KpArgs)
    Args.push_back("-fplugin-arg-kernplug-" + KpArg);

  std::string Asm;
  if (!SyntaxOnly) {
    Asm = O.KeepTemps ? (Output.empty() ? std::string(lbasename(Input)) : Output) + ".kp.s"
                      : temporaryAssemblyFile();
    if (Asm.empty()) {
      error("kernplug-gcc: cannot create a temporary file in %qs: %s",
            getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", xstrerror(errno));
      return false;
    }
    Args[6] = Asm;
  }
  if (O.Verbose)
    inform(UNKNOWN_LOCATION, "kernplug-gcc: %s", quoteForMessage(Args).c_str());
  int Status = runProgram(Args);
  if (!SyntaxOnly) {
    Assembly = Status == 0 ? readFile(Asm) : "";
    if (!O.KeepTemps)
      unlink(Asm.c_str());
  }
  if (Status != 0) {
    error_at(UNKNOWN_LOCATION,
             "kernplug-gcc: the kernel side of %qs, compiled by %qs, failed (its messages are "
             "above)",
             Input, Clang.c_str());
    return false;
  }
  return true;
}

} // namespace

// -flto sets flag_lto to ""; an explicit -gas-loc-support wins over plugin_init's default.
bool lineTablesInAssembly() { return !flag_lto && !dwarf2out_as_loc_support; }

void runSideCompile(void *, void *) {
  std::string Assembly;
  if (!runClang(false, Assembly))
    return;
  exposeStaticConstantVariables();
  std::string Joined = joinableAssembly(Assembly);
  symtab->finalize_toplevel_asm(build_string(Joined.size() + 1, Joined.c_str()));
}

void checkKernelsOnly(void *, void *) {
  std::string Unused;
  if (flag_syntax_only) // no IPA passes, so runSideCompile does not run
    runClang(true, Unused);
}

} // namespace kpgcc
