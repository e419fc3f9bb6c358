#!/bin/sh
# wrong_opt.sh OTHER_OPT PASSES_PLUGIN MAJOR RIGHT_OPT
#
# kernplug-passes.so, built for LLVM MAJOR, loaded by OTHER_OPT (opt of another LLVM: the other
# supported version, or Debian 12's default 14) with -load-pass-plugin: opt must stop with exit
# status 1, not a signal, and print exactly one line, which names the opt the passes need.
# RIGHT_OPT (the opt they were built for) runs the same pass on the same IR, so that the
# refusal is the version check's and not a broken plugin's. Exit 77 (skipped) when OTHER_OPT is
# not installed.
set -u
other=$1 passes=$2 major=$3 right=$4
if [ -z "$other" ] || [ ! -x "$other" ]; then
  echo "SKIP: that opt is not installed (${other:-not found})"
  exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
printf 'define void @f() {\n  ret void\n}\n' >"$work/in.ll"

"$right" -load-pass-plugin="$passes" -passes=kernplug-host-stubs -S "$work/in.ll" \
  -o "$work/right.ll" || { echo "FAIL: $right does not run the passes built for it"; exit 1; }

"$other" -load-pass-plugin="$passes" -passes=kernplug-host-stubs -S "$work/in.ll" \
  -o "$work/out.ll" 2>"$work/err"
status=$?
echo "== $other: exit status $status"
cat "$work/err"
[ "$status" -eq 1 ] || { echo "FAIL: exit status $status, expected 1"; exit 1; }
lines=$(wc -l <"$work/err")
[ "$lines" -eq 1 ] || { echo "FAIL: $lines lines on stderr, expected 1"; exit 1; }
grep -Eq "^kernplug: error: .*/kernplug-passes\.so holds the passes for LLVM $major, but .* loaded it; run opt-$major \(/[^)]*\)" \
  "$work/err" || { echo "FAIL: the line does not name the opt the passes need"; exit 1; }
[ ! -s "$work/out.ll" ] || { echo "FAIL: opt wrote output"; exit 1; }
echo "OK: $other refuses the LLVM $major passes with one line"
