#!/bin/sh
# The CUDA path of a gcc-built program without a GPU: its calls into the fake driver
# (tests/runtime fake_cuda) must be those of the kpcc-built program: the same module loads,
# functions, launches (grid, block, shared bytes, parameter counts), addresses masked.
#   fake_trace.sh <fake libcuda.so.1> <kpcc-built program> <gcc-built program>
set -u
fake=$1 kpcc_prog=$2 gcc_prog=$3
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
for side in kpcc gcc; do
  eval prog=\$${side}_prog
  KP_BACKEND=cuda KP_LIBCUDA=$fake FAKE_CUDA_LOG=$work/$side.raw "$prog" >/dev/null 2>&1
  sed 's/0x[0-9a-fA-F]*/0x/g' "$work/$side.raw" >"$work/$side.log"
done
if ! grep -q cuLaunchKernel "$work/kpcc.log"; then
  echo "FAIL: the kpcc-built program launched nothing on the fake driver"; cat "$work/kpcc.raw"
  exit 1
fi
diff -u "$work/kpcc.log" "$work/gcc.log" || { echo "FAIL: the driver calls differ"; exit 1; }
echo "PASS: $(grep -c . "$work/gcc.log") identical driver calls"
