#!/bin/sh
# wrong_clang.sh OTHER_CLANG PLUGIN MAJOR SRC [KPCC]
#
# The plugin, built for clang MAJOR, loaded by raw -fplugin= into OTHER_CLANG (clang 14,
# Debian 12's default, or the other supported version): the compile must fail with exit
# status 1, not a signal, and print exactly one line, which names the clang the plugin needs.
# With KPCC, the same through kpcc with KPCC_CLANG=OTHER_CLANG. Exit 77 (skipped) when
# OTHER_CLANG is not installed.
set -u
other=$1 plugin=$2 major=$3 src=$4 kpcc=${5:-}
if [ -z "$other" ] || [ ! -x "$other" ]; then
  echo "SKIP: that clang is not installed (${other:-not found})"
  exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

. "$(dirname -- "$0")/one_line_refusal.sh"
expect_refusal() { # how, then the command
  how=$1
  shift
  "$@" -c "$src" -o "$work/t.o" 2>"$work/err"
  expect_one_line_refusal "$how" $? "$work/err" \
    "^kernplug: error: .*/kernplug\.so is the plugin for clang $major, but clang [0-9]+\.[0-9.]+ loaded it; compile with clang $major \(/[^)]*\) or kpcc" \
    "$work/t.o"
}

expect_refusal "$other -fplugin=" "$other" -fplugin="$plugin"
expect_refusal "$other -Xclang -load" "$other" -Xclang -load -Xclang "$plugin" \
  -Xclang -add-plugin -Xclang kernplug
if [ -n "$kpcc" ]; then
  expect_refusal "kpcc with KPCC_CLANG=$other" env KPCC_CLANG="$other" "$kpcc"
fi
echo "OK: $other refuses the clang $major plugin with one line"
