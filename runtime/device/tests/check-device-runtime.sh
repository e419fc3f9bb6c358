#!/bin/sh
# Checks the device runtime bitcode (run by CTest, see CMakeLists.txt next to this file).
#
#   check-device-runtime.sh library  : PTX of the linked library matches device_runtime.check
#   check-device-runtime.sh inlined  : a kernel using every primitive has no call left after O3
#   check-device-runtime.sh ptxas SM : both PTX files assemble with ptxas for SM (77 = skipped)
#
# Tools and paths come from the environment: CLANG LLVM_LINK OPT LLC FILECHECK PTXAS
# DEVICE_BC RESOURCE_DIR INCLUDE_DIR SRC_DIR WORK_DIR.
set -eu

mkdir -p "$WORK_DIR"
cd "$WORK_DIR"

library_ptx() {
  "$LLC" -march=nvptx64 -mcpu=sm_75 "$DEVICE_BC" -o library.ptx
}

# What the plugin does to a device module: link the runtime, keep only the kernel external,
# optimise at O3, emit PTX.
inlined_ptx() {
  "$CLANG" -target nvptx64-nvidia-cuda -march=sm_75 -O0 -Xclang -disable-O0-optnone \
    -nostdinc -isystem "$RESOURCE_DIR/include" -I"$INCLUDE_DIR" \
    -emit-llvm -c "$SRC_DIR/all_primitives.c" -o kernel.bc
  "$LLVM_LINK" kernel.bc "$DEVICE_BC" -o linked.bc
  "$OPT" -passes='internalize,default<O3>' -internalize-public-api-list=all_primitives \
    linked.bc -o optimised.bc
  "$LLC" -march=nvptx64 -mcpu=sm_75 optimised.bc -o kernel.ptx
}

case "$1" in
library)
  library_ptx
  "$FILECHECK" --input-file=library.ptx "$SRC_DIR/device_runtime.check"
  ;;
inlined)
  inlined_ptx
  "$FILECHECK" --input-file=kernel.ptx "$SRC_DIR/all_primitives.c"
  ;;
ptxas)
  if [ -z "${PTXAS:-}" ]; then
    echo "no ptxas (CUDA toolkit not found at configure time): skipped"
    exit 77
  fi
  library_ptx
  inlined_ptx
  # -c compiles every .func, not only those an .entry reaches. A ptxas older than the SM
  # (sm_100 and sm_120 need CUDA 12.8) skips.
  if ! "$PTXAS" -c -arch="$2" library.ptx -o "library.$2.cubin" 2>ptxas.log; then
    cat ptxas.log
    if grep -q "not defined for option 'gpu-name'" ptxas.log; then
      echo "this ptxas has no $2: skipped"
      exit 77
    fi
    exit 1
  fi
  "$PTXAS" -arch="$2" kernel.ptx -o "kernel.$2.cubin"
  echo "ptxas -arch=$2: library.ptx and kernel.ptx assemble"
  ;;
*)
  echo "usage: $0 library|inlined|ptxas SM" >&2
  exit 2
  ;;
esac
