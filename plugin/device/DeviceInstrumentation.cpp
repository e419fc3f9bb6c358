//===- DeviceInstrumentation.cpp - host instrumentation in device code -*- C++ -*-===//
//
// -fsanitize=undefined (and integer, bounds, …) checks are emitted by clang
// straight into the IR the device closure is cloned from: a branch to a call of
// __ubsan_handle_<check>(&data, operands…), where the data holds the source
// location. The host copies of kernels keep them, so that kernels debugged on
// the CPU report as any C code does. The GPU has no UBSan runtime: there, each
// call becomes
//
//   if (atomic_exchange(&reported_here, 1) == 0)
//     printf("<file>:<line>:<col>: runtime error in device code: <check>\n");
//   [__builtin_trap();]   -- for the _abort handlers (-fno-sanitize-recover)
//
// ASan, TSan and MSan instrument later in clang's pipeline, after the device
// module is cloned; only their function attributes reach it, and ASan's call of
// __asan_handle_no_return, which clang emits before each call of a noreturn
// function (abort(), __assert_fail) and which is dropped. -fsanitize=function
// and kcfi put a type hash before each function (metadata), which PTX cannot hold.
// Other host instrumentation would call functions the GPU lacks (mcount,
// __cyg_profile_func_enter), crash instruction selection (llvm.instrprof.*) or
// emit directives ptxas rejects (patchable entries): it is dropped.
//
//===----------------------------------------------------------------------===//
#include "device/DeviceInstrumentation.h"
#include "ClangCompat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace kernplug {
namespace {

const Attribute::AttrKind SanitizerAttrs[] = {
    Attribute::SanitizeAddress,   Attribute::SanitizeThread, Attribute::SanitizeMemory,
    Attribute::SanitizeHWAddress, Attribute::SanitizeMemTag, Attribute::SanitizeNumericalStability};

const char *const HandlerPrefix = "__ubsan_handle_";

bool isHandler(const Function *F) { return F && F->getName().starts_with(HandlerPrefix); }

/// "add_overflow_abort" -> "integer overflow in addition" etc.; unknown checks by name.
std::string describeCheck(StringRef Check) {
  Check.consume_back("_minimal"); // -fsanitize-minimal-runtime: _minimal or _minimal_abort
  Check.consume_back("_abort");
  Check.consume_back("_minimal");
  Check.consume_back("_v1");
  StringRef Text = StringSwitch<StringRef>(Check)
                       .Case("add_overflow", "integer overflow in addition")
                       .Case("sub_overflow", "integer overflow in subtraction")
                       .Case("mul_overflow", "integer overflow in multiplication")
                       .Case("negate_overflow", "integer overflow in negation")
                       .Case("divrem_overflow", "division by zero or overflow in division")
                       .Case("shift_out_of_bounds", "shift out of bounds")
                       .Case("out_of_bounds", "index out of bounds")
                       .Case("type_mismatch", "null, misaligned or too small pointer")
                       .Case("pointer_overflow", "pointer arithmetic overflow")
                       .Case("load_invalid_value", "load of an invalid bool or enum value")
                       .Case("builtin_unreachable", "__builtin_unreachable() reached")
                       .Case("vla_bound_not_positive", "variable-length array bound <= 0")
                       .Case("float_cast_overflow", "float to integer conversion overflow")
                       .Case("implicit_conversion", "implicit conversion changed the value")
                       .Case("invalid_builtin", "invalid argument to a builtin")
                       .Case("alignment_assumption", "alignment assumption violated")
                       .Case("nonnull_arg", "null passed as nonnull argument")
                       .Case("nullability_arg", "null passed as nonnull argument")
                       .Case("nonnull_return", "null returned as nonnull")
                       .Case("nullability_return", "null returned as nonnull")
                       .Default("");
  return Text.empty() ? Check.str() : Text.str();
}

/// "file:line:col: " from a handler's static data, whose first member is UBSan's
/// SourceLocation {const char *file, u32 line, u32 column}; nonnull_return passes
/// the location of the return statement as its second argument.
std::string locationOf(const CallBase &Call) {
  unsigned Arg = Call.getCalledFunction()->getName().contains("nonnull_return") ||
                         Call.getCalledFunction()->getName().contains("nullability_return")
                     ? 1
                     : 0;
  if (Call.arg_size() <= Arg)
    return "";
  auto *Data = dyn_cast<GlobalVariable>(Call.getArgOperand(Arg)->stripPointerCasts());
  if (!Data || !Data->hasInitializer())
    return "";
  Constant *Loc = Data->getInitializer();
  while (Loc && isa<ConstantStruct>(Loc) && isa<ConstantStruct>(Loc->getOperand(0)))
    Loc = Loc->getAggregateElement(0u);
  auto *S = dyn_cast_or_null<ConstantStruct>(Loc);
  if (!S || S->getNumOperands() != 3)
    return "";
  auto *FileVar = dyn_cast<GlobalVariable>(S->getOperand(0)->stripPointerCasts());
  auto *Line = dyn_cast<ConstantInt>(S->getOperand(1));
  auto *Col = dyn_cast<ConstantInt>(S->getOperand(2));
  auto *File = FileVar && FileVar->hasInitializer()
                   ? dyn_cast<ConstantDataArray>(FileVar->getInitializer())
                   : nullptr;
  if (!File || !File->isCString() || !Line || !Col)
    return "";
  return (File->getAsCString() + ":" + Twine(Line->getZExtValue()) + ":" +
          Twine(Col->getZExtValue()) + ": ")
      .str();
}

/// One report per call site: a flag in global memory, set by the first thread.
void replaceHandlerCall(CallBase &Call, FunctionCallee VPrintf, FunctionCallee Trap) {
  Module &M = *Call.getModule();
  LLVMContext &C = M.getContext();
  StringRef Handler = Call.getCalledFunction()->getName();
  std::string Msg = locationOf(Call) + "runtime error in device code: " +
                    describeCheck(Handler.drop_front(strlen(HandlerPrefix))) + "\n";
  auto *Text = new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(C), Msg.size() + 1),
                                  /*isConstant=*/true, GlobalValue::PrivateLinkage,
                                  ConstantDataArray::getString(C, Msg), "kp.ubsan.msg");
  Text->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  auto *Flag = new GlobalVariable(M, Type::getInt32Ty(C), /*isConstant=*/false,
                                  GlobalValue::InternalLinkage,
                                  ConstantInt::get(Type::getInt32Ty(C), 0), "kp.ubsan.reported",
                                  nullptr, GlobalValue::NotThreadLocal, /*AddressSpace=*/1);

  IRBuilder<> B(&Call);
  Value *Old = B.CreateAtomicRMW(AtomicRMWInst::Xchg, Flag, B.getInt32(1), Align(4),
                                 AtomicOrdering::Monotonic);
  Instruction *Then = SplitBlockAndInsertIfThen(B.CreateICmpEQ(Old, B.getInt32(0)), &Call,
                                                /*Unreachable=*/false);
  IRBuilder<> R(Then);
  R.CreateCall(VPrintf, {Text, ConstantPointerNull::get(PointerType::get(C, 0))});
  if (Handler.contains("_abort") || Call.doesNotReturn())
    IRBuilder<>(&Call).CreateCall(Trap);
  Call.eraseFromParent();
}

} // namespace

bool isSanitizerData(const GlobalVariable &GV) {
  if (!GV.hasLocalLinkage() || GV.use_empty())
    return false;
  for (const User *U : GV.users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    if (!Call || !isHandler(Call->getCalledFunction()))
      return false;
  }
  return true;
}

void lowerHostInstrumentation(Module &Dev) {
  LLVMContext &C = Dev.getContext();
  SmallVector<CallBase *, 16> Handlers;
  SmallVector<CallInst *, 4> UbsanTraps;
  for (Function &F : Dev)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        if (isHandler(Call->getCalledFunction()))
          Handlers.push_back(Call);
        else if (auto *II = dyn_cast<IntrinsicInst>(Call);
                 II && II->getIntrinsicID() == Intrinsic::ubsantrap)
          UbsanTraps.push_back(II);
      }

  if (!Handlers.empty()) {
    PointerType *PtrTy = PointerType::get(C, 0);
    FunctionCallee VPrintf = Dev.getOrInsertFunction(
        "vprintf", FunctionType::get(Type::getInt32Ty(C), {PtrTy, PtrTy}, false));
    FunctionCallee Trap = compat::intrinsic(Dev, Intrinsic::trap);
    for (CallBase *Call : Handlers)
      replaceHandlerCall(*Call, VPrintf, Trap);
  }
  // -fsanitize-trap: NVPTX selects llvm.trap but not llvm.ubsantrap.
  for (CallInst *T : UbsanTraps) {
    CallInst::Create(compat::intrinsic(Dev, Intrinsic::trap), "", T->getIterator());
    T->eraseFromParent();
  }

  // Profiling counters and entry/exit hooks (inserted before this pass at -O0), and ASan's
  // stack cleanup before noreturn calls; none of them returns a value that code uses.
  SmallVector<Instruction *, 8> Hooks;
  for (Function &F : Dev)
    for (Instruction &I : instructions(F))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction())
          if (Callee->getName().starts_with("llvm.instrprof.") ||
              is_contained({"__cyg_profile_func_enter", "__cyg_profile_func_exit", "mcount",
                            "_mcount", "__fentry__", "__asan_handle_no_return"},
                           Callee->getName()))
            Hooks.push_back(&I);
  for (Instruction *I : Hooks)
    I->eraseFromParent();

  for (Function &F : Dev) {
    for (Attribute::AttrKind K : SanitizerAttrs)
      F.removeFnAttr(K);
    for (StringRef A : {"instrument-function-entry", "instrument-function-exit",
                        "instrument-function-entry-inlined", "instrument-function-exit-inlined",
                        "patchable-function-entry", "patchable-function-prefix",
                        "patchable-function"})
      F.removeFnAttr(A);
    F.setMetadata(LLVMContext::MD_func_sanitize, nullptr);
    F.setMetadata(LLVMContext::MD_kcfi_type, nullptr);
  }
}

void inheritSanitizerAttributes(Module &Host) {
  // What the user's code was compiled with, for the ufunc kernels, whose own host function
  // is gone by now (their entries inline the user's element function).
  SmallVector<Attribute::AttrKind, 2> FileWide;
  for (Attribute::AttrKind K : SanitizerAttrs)
    for (const Function &F : Host)
      if (!F.isDeclaration() && !F.getName().contains(".kp.") && F.hasFnAttribute(K)) {
        FileWide.push_back(K);
        break;
      }
  if (FileWide.empty())
    return;
  for (Function &F : Host) {
    size_t Dot = F.getName().find(".kp.");
    if (F.isDeclaration() || Dot == StringRef::npos)
      continue;
    // A user kernel's entries follow the kernel (no_sanitize on it included).
    const Function *Kernel = Host.getFunction(F.getName().take_front(Dot));
    for (Attribute::AttrKind K : FileWide)
      if (!Kernel || Kernel->isDeclaration() || Kernel->hasFnAttribute(K))
        F.addFnAttr(K);
  }
}

PreservedAnalyses StripHostInstrumentationPass::run(Module &Dev, ModuleAnalysisManager &) {
  lowerHostInstrumentation(Dev);
  return PreservedAnalyses::none();
}

} // namespace kernplug
