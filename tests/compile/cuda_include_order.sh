#!/bin/sh
# kernplug.h before and after <cuda_runtime.h>, in C (kpcc, run on the CPU backend) and in C++
# (each C++ compiler given, linked by kpcc with the C kernel), -Wall -Wextra -Werror.
#   cuda_include_order.sh <kpcc> <include dir> <CUDA include dir> <src dir> <work> <C++ compiler>...
# Exit 77 (skipped) without the CUDA toolkit's headers.
set -u
kpcc=$1 include=$2 cuda=$3 src=$4 work=$5
shift 5
if [ ! -f "$cuda/cuda_runtime.h" ]; then
  echo "SKIP: no $cuda/cuda_runtime.h (the CUDA toolkit's headers); nothing to test"; exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
flags="-O1 -Wall -Wextra -Werror -I$cuda"
for order in kernplug_first cuda_first; do
  def=; [ $order = cuda_first ] && def=-DKP_CUDA_FIRST
  echo "== C, $order"
  "$kpcc" $flags $def "$src/cuda_include_order.c" -o c_$order || exit 1
  ./c_$order || exit 1
  "$kpcc" $flags $def -DKP_KERNEL_ONLY -c "$src/cuda_include_order.c" -o kernel_$order.o || exit 1
  for cxx in "$@"; do
    command -v "$cxx" >/dev/null 2>&1 || { echo "(no $cxx)"; continue; }
    echo "== C++ ($cxx), $order"
    "$cxx" -std=c++17 $flags $def -I"$include" -c "$src/cuda_include_order.cpp" -o cxx.o ||
      exit 1
    "$kpcc" cxx.o kernel_$order.o -o cxx_$order || exit 1
    ./cxx_$order || { echo "FAIL: C++ with $cxx, $order"; exit 1; }
  done
done
