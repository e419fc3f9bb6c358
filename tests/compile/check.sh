#!/bin/sh
# One FileCheck test of the plugin. The checks live in the test source itself.
#   check.sh <mode> <clang> <plugin> <include dir> <FileCheck> <ptxas or ""> <src> [clang args…]
# mode diag: compiling must fail; stderr is checked against DIAG: lines.
# mode host: the host IR (-S -emit-llvm) is checked against HOST: lines.
# mode ptx:  the embedded PTX (save-temps) is checked against PTX: lines and,
#            when ptxas is given, assembled for sm_75, sm_90, sm_100 and sm_120 (those at or
#            above the PTX's .target that this ptxas has).
# mode ok:   compiling with -Wall -Wextra -Werror must succeed silently.
# mode remark: compiling must succeed; stderr (verbose remarks) is checked against REMARK: lines.
set -u
mode=$1 clang=$2 plugin=$3 include=$4 filecheck=$5 ptxas=$6 src=$7
shift 7
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
base="$clang -fplugin=$plugin -I$include -Wall -Wextra"

case $mode in
diag)
  if $base -c "$src" -o "$work/t.o" "$@" 2>"$work/err"; then
    echo "FAIL: $src compiled, but errors were expected"; exit 1
  fi
  "$filecheck" --check-prefix=DIAG --input-file="$work/err" "$src" || { cat "$work/err"; exit 1; }
  ;;
host)
  $base -Werror -S -emit-llvm "$src" -o "$work/t.ll" "$@" || exit 1
  "$filecheck" --check-prefix=HOST --input-file="$work/t.ll" "$src"
  ;;
ptx)
  $base -Werror -fplugin-arg-kernplug-save-temps -c "$src" -o "$work/t.o" "$@" || exit 1
  "$filecheck" --check-prefix=PTX --input-file="$work/t.o.kp.ptx" "$src" || exit 1
  if [ -n "$ptxas" ]; then
    # Every arch from the PTX's .target up: sm_75 and sm_90 always, sm_100 and sm_120 where
    # this ptxas has them (CUDA 12.8 and later).
    target=$(sed -n 's/^\.target sm_\([0-9]*\).*/\1/p' "$work/t.o.kp.ptx" | head -n 1)
    for sm in 75 90 100 120; do
      [ "$sm" -ge "${target:-75}" ] || continue
      if ! "$ptxas" -arch=sm_$sm "$work/t.o.kp.ptx" -o "$work/t.sm_$sm.cubin" 2>"$work/ptxas"; then
        if [ "$sm" -ge 100 ] && grep -q "not defined for option 'gpu-name'" "$work/ptxas"; then
          continue
        fi
        cat "$work/ptxas"
        echo "FAIL: ptxas -arch=sm_$sm rejected the PTX of $src"; exit 1
      fi
    done
  fi
  ;;
remark)
  $base -Werror -c "$src" -o "$work/t.o" "$@" 2>"$work/err" || { cat "$work/err"; exit 1; }
  "$filecheck" --check-prefix=REMARK --input-file="$work/err" "$src" || { cat "$work/err"; exit 1; }
  ;;
ok)
  $base -Werror -c "$src" -o "$work/t.o" "$@" 2>"$work/err" || { cat "$work/err"; exit 1; }
  if [ -s "$work/err" ]; then cat "$work/err"; echo "FAIL: unexpected output"; exit 1; fi
  ;;
*)
  echo "unknown mode $mode"; exit 2
  ;;
esac
