//===- DeviceImages.cpp - the placeholder images filled in ------*- C++ -*-===//
//
// HostSide.cpp builds __kp_images from placeholders (no bytes) while the
// device job runs. Each row is { kind, sm, ptr data, size }; the data global
// is replaced by one holding the bytes, with the same name, section and
// alignment, in the same place in the module, so the object is as if the
// images had been there from the start.
//
//===----------------------------------------------------------------------===//
#include "device/DeviceJob.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace kernplug {

void fillImageTable(GlobalVariable &Table, const std::vector<DeviceImage> &Images) {
  auto *Rows = cast<ConstantArray>(Table.getInitializer());
  std::vector<GlobalVariable *> Old;
  std::vector<Constant *> NewRows;
  for (unsigned I = 0; I < Rows->getNumOperands(); ++I) {
    auto *Row = cast<ConstantStruct>(Rows->getOperand(I));
    auto *Placeholder = cast<GlobalVariable>(Row->getOperand(2));
    const std::string &Bytes = Images[I].Bytes;
    auto *Data = ConstantDataArray::getRaw(Bytes, Bytes.size(),
                                           Type::getInt8Ty(Table.getContext()));
    auto *GV = new GlobalVariable(*Table.getParent(), Data->getType(), true,
                                  Placeholder->getLinkage(), Data, "", Placeholder);
    GV->takeName(Placeholder);
    GV->setSection(Placeholder->getSection());
    GV->setAlignment(Placeholder->getAlign());
    Old.push_back(Placeholder);
    NewRows.push_back(ConstantStruct::get(
        Row->getType(), {Row->getOperand(0), Row->getOperand(1), GV,
                         ConstantInt::get(Row->getOperand(3)->getType(), Bytes.size())}));
  }
  Table.setInitializer(ConstantArray::get(Rows->getType(), NewRows));
  for (GlobalVariable *GV : Old) {
    GV->removeDeadConstantUsers(); // the old rows
    if (GV->use_empty())
      GV->eraseFromParent();
  }
}

} // namespace kernplug
