#!/bin/sh
# One test of gcc -fplugin=kernplug_gcc.so. The checks live in the test source.
#   check_gcc.sh diag <gcc> <plugin> <include> <FileCheck> <src> [gcc args…]
# compiling must fail; stderr (LC_ALL=C: plain quotes) is checked against the DIAG: lines.
set -u
mode=$1 gcc=$2 plugin=$3 include=$4 filecheck=$5 src=$6
shift 6
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
case $mode in
diag)
  if LC_ALL=C "$gcc" -fplugin="$plugin" -I"$include" -Wall -Wextra -c "$src" -o "$work/t.o" "$@" \
       2>"$work/err"; then
    echo "FAIL: $src compiled, but errors were expected"; exit 1
  fi
  "$filecheck" --check-prefix=DIAG --input-file="$work/err" "$src" || { cat "$work/err"; exit 1; }
  ;;
*)
  echo "unknown mode $mode"; exit 2
  ;;
esac
