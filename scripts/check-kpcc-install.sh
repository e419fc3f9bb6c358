#!/bin/sh
# check-kpcc-install.sh BUILD_DIR PREFIX
#
# Installs the build into a scratch PREFIX and checks that the installed kpcc finds the
# installed plugin, header, runtime and device bitcode, and not those of the build tree.
# When the build has the plugin and the runtime, compiles, links and runs a program with it.
# Exit 77 (skipped) when the build has no plugin yet.
set -eu
build=$1
prefix=$2

rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
kpcc=$prefix/bin/kpcc
[ -x "$kpcc" ] || { echo "not installed: $kpcc" >&2; exit 1; }

version=$("$kpcc" --version)
printf '%s\n' "$version"
prefix_abs=$(cd "$prefix" && pwd)
for what in include 'device bc'; do
  line=$(printf '%s\n' "$version" | grep "^$what:")
  case $line in
  *"(missing)"*) echo "installed kpcc: $line" >&2; exit 1 ;;
  *"$prefix_abs/"*) ;;
  *) echo "installed kpcc looks outside the prefix: $line" >&2; exit 1 ;;
  esac
done

show=$("$kpcc" --show app.o -o app)
case $show in
*"-L$prefix_abs/"*"-lkernplug_rt -Wl,-rpath,$prefix_abs/"*) ;;
*) echo "installed kpcc links the wrong runtime: $show" >&2; exit 1 ;;
esac

if printf '%s\n' "$version" | grep -E '^(plugin|runtime):.*\(missing\)'; then
  echo "the build has no plugin or runtime (yet): compile check skipped"
  exit 77
fi

# A program with a kernel: the installed plugin must load and find its device bitcode.
work=$prefix/test
mkdir -p "$work"
cat >"$work/app.c" <<'C'
#include <kernplug.h>
#include <stdio.h>
__attribute__((kernel)) void twice(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] *= 2.0f;
}
int main(void) {
  printf("kpcc-installed-ok\n");
  return 0;
}
C
"$kpcc" -O2 -Wall -Wextra -Werror -o "$work/app" "$work/app.c"
"$work/app" | grep -q kpcc-installed-ok
echo "installed kpcc built and ran $work/app"
