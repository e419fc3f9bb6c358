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

. "$(dirname -- "$0")/one_line_refusal.sh"
"$other" -load-pass-plugin="$passes" -passes=kernplug-host-stubs -S "$work/in.ll" \
  -o "$work/out.ll" 2>"$work/err"
expect_one_line_refusal "$other" $? "$work/err" \
  "^kernplug: error: .*/kernplug-passes\.so holds the passes for LLVM $major, but .* loaded it; run opt-$major \(/[^)]*\)" \
  "$work/out.ll"
echo "OK: $other refuses the LLVM $major passes with one line"
