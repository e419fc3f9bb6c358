#!/bin/sh
# The same source compiled several times must give the same object and the same PTX.
#   reproducible.sh <clang> <plugin> <include dir> <src> [clang args…]
set -u
clang=$1 plugin=$2 include=$3 src=$4
shift 4
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
for i in 1 2 3 4 5; do
  "$clang" -fplugin="$plugin" -fplugin-arg-kernplug-save-temps -I"$include" -c "$src" \
    -o "$work/t$i.o" "$@" || exit 1
done
for i in 2 3 4 5; do
  cmp -s "$work/t1.o.kp.ptx" "$work/t$i.o.kp.ptx" ||
    { echo "FAIL: the PTX of compile $i differs from compile 1"; diff "$work/t1.o.kp.ptx" "$work/t$i.o.kp.ptx" | head -20; exit 1; }
  cmp -s "$work/t1.o" "$work/t$i.o" || { echo "FAIL: the object of compile $i differs from compile 1"; exit 1; }
done
echo "5 compiles, one object"
