//===- KernelMetadata.cpp - the AST's findings as module metadata -*- C++ -*-===//
#include "KernelMetadata.h"
#include "DevicePass.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {
namespace {

const char *const MainFileMD = "kernplug.main_file";
const char *const FunctionsMD = "kernplug.functions";
const char *const DeviceExportsMD = "kernplug.device_exports";
const char *const DeviceImportsMD = "kernplug.device_imports";
const char *const KernelsMD = "kernplug.kernels";

/// Builds and reads the tuples, operand by operand.
class TupleWriter {
public:
  explicit TupleWriter(LLVMContext &C) : C(C) {}
  TupleWriter &str(StringRef S) { return add(MDString::get(C, S)); }
  TupleWriter &num(uint64_t V, unsigned Bits) {
    return add(ConstantAsMetadata::get(ConstantInt::get(IntegerType::get(C, Bits), V)));
  }
  TupleWriter &flag(bool B) { return num(B, 1); }
  TupleWriter &value(Value *V) {
    return add(V ? static_cast<Metadata *>(ValueAsMetadata::get(V)) : nullptr);
  }
  TupleWriter &add(Metadata *MD) {
    Ops.push_back(MD);
    return *this;
  }
  MDTuple *get() { return MDTuple::get(C, Ops); }

private:
  LLVMContext &C;
  SmallVector<Metadata *, 12> Ops;
};

class TupleReader {
public:
  explicit TupleReader(const MDNode *N) : N(N) {}
  std::string str() { return cast<MDString>(next())->getString().str(); }
  uint64_t num() { return mdconst::extract<ConstantInt>(next())->getZExtValue(); }
  bool flag() { return num() != 0; }
  Function *function() {
    const Metadata *MD = next();
    auto *VAM = dyn_cast_or_null<ValueAsMetadata>(MD);
    return VAM ? dyn_cast<Function>(VAM->getValue()) : nullptr;
  }
  const MDNode *node() { return cast<MDNode>(next()); }
  bool more() const { return I < N->getNumOperands(); }

private:
  const Metadata *next() { return N->getOperand(I++).get(); }
  const MDNode *N;
  unsigned I = 0;
};

MDTuple *encodeParam(LLVMContext &C, const ParamInfo &P) {
  return TupleWriter(C)
      .str(P.Name)
      .num(P.TheKind, 32)
      .flag(P.PointeeConst)
      .flag(P.IsSigned)
      .flag(P.IsFloat)
      .num(P.Size, 64)
      .num(P.Align, 64)
      .num(P.ElemSize, 64)
      .get();
}

ParamInfo decodeParam(const MDNode *N) {
  TupleReader R(N);
  ParamInfo P;
  P.Name = R.str();
  P.TheKind = static_cast<ParamInfo::Kind>(R.num());
  P.PointeeConst = R.flag();
  P.IsSigned = R.flag();
  P.IsFloat = R.flag();
  P.Size = R.num();
  P.Align = R.num();
  P.ElemSize = R.num();
  return P;
}

MDTuple *encodeFunction(LLVMContext &C, const DeviceFunctionInfo &F) {
  TupleWriter Params(C), Sigs(C);
  for (const ParamInfo &P : F.Params)
    Params.add(encodeParam(C, P));
  for (const std::string &S : F.Signatures)
    Sigs.str(S);
  return TupleWriter(C)
      .str(F.IRName)
      .num(F.TheRole, 32)
      .str(F.File)
      .num(F.Line, 32)
      .add(Params.get())
      .add(encodeParam(C, F.Result))
      .add(Sigs.get())
      .get();
}

DeviceFunctionInfo decodeFunction(const MDNode *N) {
  TupleReader R(N);
  DeviceFunctionInfo F;
  F.IRName = R.str();
  F.TheRole = static_cast<DeviceFunctionInfo::Role>(R.num());
  F.File = R.str();
  F.Line = R.num();
  for (const MDOperand &P : R.node()->operands())
    F.Params.push_back(decodeParam(cast<MDNode>(P.get())));
  F.Result = decodeParam(R.node());
  for (const MDOperand &S : R.node()->operands())
    F.Signatures.push_back(cast<MDString>(S.get())->getString().str());
  return F;
}

MDTuple *encodeKernel(LLVMContext &C, const KernelEntry &K) {
  TupleWriter Params(C);
  for (const IRParam &P : K.Params)
    Params.add(TupleWriter(C)
                   .str(P.Name)
                   .num(P.Kind, 64)
                   .num(P.Flags, 64)
                   .num(P.Size, 64)
                   .num(P.ElemSize, 64)
                   .get());
  TupleWriter Entry(C);
  Entry.str(K.Name)
      .value(K.Fn)
      .value(K.HostFn)
      .flag(K.IsVectorize)
      .str(K.Signature)
      .num(K.Flags, 64)
      .str(K.File)
      .num(K.Line, 32)
      .add(Params.get());
  if (K.CpuEntry != CpuEntryKind::Undecided)
    Entry.num(static_cast<unsigned>(K.CpuEntry), 32).str(K.CpuEntryWhy);
  if (K.CpuEntry != CpuEntryKind::Undecided && K.CpuEntriesBuilt)
    Entry.value(K.CpuBlockEntry).value(K.CpuThreadEntry);
  return Entry.get();
}

KernelEntry decodeKernel(const MDNode *N) {
  TupleReader R(N);
  KernelEntry K;
  K.Name = R.str();
  K.Fn = R.function();
  K.HostFn = R.function();
  K.IsVectorize = R.flag();
  K.Signature = R.str();
  K.Flags = R.num();
  K.File = R.str();
  K.Line = R.num();
  for (const MDOperand &Op : R.node()->operands()) {
    TupleReader P(cast<MDNode>(Op.get()));
    IRParam Param;
    Param.Name = P.str();
    Param.Kind = P.num();
    Param.Flags = P.num();
    Param.Size = P.num();
    Param.ElemSize = P.num();
    K.Params.push_back(std::move(Param));
  }
  if (R.more()) { // written by kernplug-cpu-entry-policy
    K.CpuEntry = static_cast<CpuEntryKind>(R.num());
    K.CpuEntryWhy = R.str();
  }
  if (R.more()) { // written by kernplug-cpu-block-entry or kernplug-barrier-fission
    K.CpuEntriesBuilt = true;
    K.CpuBlockEntry = R.function();
    K.CpuThreadEntry = R.function();
  }
  return K;
}

/// The named metadata Name, emptied (created if absent).
NamedMDNode &freshNamedMD(Module &M, StringRef Name) {
  NamedMDNode *NMD = M.getOrInsertNamedMetadata(Name);
  NMD->clearOperands();
  return *NMD;
}

} // namespace

void writeTranslationUnitInfo(Module &M, const TranslationUnitInfo &Info) {
  LLVMContext &C = M.getContext();
  freshNamedMD(M, MainFileMD).addOperand(TupleWriter(C).str(Info.MainFile).get());
  NamedMDNode &Functions = freshNamedMD(M, FunctionsMD);
  for (const DeviceFunctionInfo &F : Info.Functions)
    Functions.addOperand(encodeFunction(C, F));
  for (auto [Name, List] : {std::pair{DeviceExportsMD, &Info.DeviceExports},
                            std::pair{DeviceImportsMD, &Info.DeviceImports}}) {
    if (List->empty()) {
      if (NamedMDNode *NMD = M.getNamedMetadata(Name))
        M.eraseNamedMetadata(NMD);
      continue;
    }
    NamedMDNode &Names = freshNamedMD(M, Name);
    for (const std::string &N : *List)
      Names.addOperand(TupleWriter(C).str(N).get());
  }
}

TranslationUnitInfo readTranslationUnitInfo(const Module &M) {
  TranslationUnitInfo Info;
  if (const NamedMDNode *File = M.getNamedMetadata(MainFileMD); File && File->getNumOperands())
    Info.MainFile = TupleReader(File->getOperand(0)).str();
  if (const NamedMDNode *Functions = M.getNamedMetadata(FunctionsMD))
    for (const MDNode *F : Functions->operands())
      Info.Functions.push_back(decodeFunction(F));
  for (auto [Name, List] : {std::pair{DeviceExportsMD, &Info.DeviceExports},
                            std::pair{DeviceImportsMD, &Info.DeviceImports}})
    if (const NamedMDNode *Names = M.getNamedMetadata(Name))
      for (const MDNode *N : Names->operands())
        List->push_back(TupleReader(N).str());
  return Info;
}

void writeKernelEntries(Module &M, const std::vector<KernelEntry> &Kernels) {
  NamedMDNode &List = freshNamedMD(M, KernelsMD);
  for (const KernelEntry &K : Kernels)
    List.addOperand(encodeKernel(M.getContext(), K));
}

std::vector<KernelEntry> readKernelEntries(const Module &M) {
  std::vector<KernelEntry> Kernels;
  if (const NamedMDNode *List = M.getNamedMetadata(KernelsMD))
    for (const MDNode *N : List->operands())
      if (KernelEntry K = decodeKernel(N); K.Fn)
        Kernels.push_back(std::move(K));
  return Kernels;
}

void eraseKernelMetadata(Module &M) {
  for (const char *Name : {MainFileMD, FunctionsMD, KernelsMD, DeviceExportsMD, DeviceImportsMD})
    if (NamedMDNode *NMD = M.getNamedMetadata(Name))
      M.eraseNamedMetadata(NMD);
}

} // namespace kernplug
