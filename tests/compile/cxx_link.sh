#!/bin/sh
# A C++ host file and C kernels (cxx_host.cpp, cxx_kernels.c) through each C++ compiler:
#   cxx_link.sh <kpcc> <C++ compiler, or "kpcc" for kpcc itself> <include dir> <src dir> <work>
# The C++ file compiles with -Wall -Wextra -Werror, kpcc links the objects (it must add the C++
# runtime) and the program runs and checks its results; with "kpcc", also the one-step
# `kpcc host.cpp kernels.c`. Exit 77 (skipped) when the compiler is not installed.
set -u
kpcc=$1 cxx=$2 include=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
if [ "$cxx" = kpcc ]; then
  cxx=$kpcc
elif ! command -v "$cxx" >/dev/null 2>&1; then
  echo "SKIP: no $cxx"; exit 77
fi
flags="-O2 -Wall -Wextra -Werror"
"$kpcc" $flags -c "$src/cxx_kernels.c" -o kernels.o || exit 1
"$cxx" -std=c++17 $flags -I"$include" -c "$src/cxx_host.cpp" -o host.o || exit 1
"$kpcc" host.o kernels.o -o prog || { echo "FAIL: kpcc did not link the C++ object"; exit 1; }
./prog || exit 1
if [ "$cxx" = "$kpcc" ]; then
  "$kpcc" $flags "$src/cxx_host.cpp" "$src/cxx_kernels.c" -o prog1 || exit 1
  ./prog1 || exit 1
fi
