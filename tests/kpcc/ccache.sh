#!/bin/sh
# ccache never serves an object built with other device code (docs/compiling.md, "Build
# caches"): ccache keys on the compiler and its -fplugin= plugins, and kernplug's build writes
# the SHA-256 of the device runtime, reduce templates and libdevice into the plugin and into
# kpcc. A rebuild with other device code changes exactly that string, which this test does to
# copies of the plugin and of kpcc, and then expects a cache miss; an unchanged copy must hit.
#   ccache.sh <kpcc> <clang> <plugin> <include dir> <work dir>
set -u
kpcc=$1 clang=$2 plugin=$3 include=$4 work=$5
command -v ccache >/dev/null 2>&1 || { echo "SKIP: ccache is not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
export CCACHE_DIR=$work/cache CCACHE_NOHASHDIR=1
unset CCACHE_BASEDIR CCACHE_DISABLE CCACHE_RECACHE CCACHE_COMPILERCHECK
id=$(sed -n "s/^KPCC_DEVICE_CODE_ID='\([0-9a-f]*\)'$/\1/p" "$kpcc")
[ ${#id} -eq 64 ] || fail "kpcc carries no device code id: '$id'"
grep -q "$id" "$plugin" || fail "the plugin does not carry kpcc's device code id $id"
other=$(printf '%s' "$id" | tr '0-9a-f' 'f0-9a-e') # another id of the same length
cat >k.c <<'SRC'
#include <kernplug.h>
__attribute__((kernel)) void twice(float *x, int n) {
  int i = grid(1);
  if (i < n) x[i] *= 2.0f;
}
SRC
misses() { ccache --print-stats | sed -n 's/^cache_miss\t//p'; }
compile() { # <expect hit|miss> <compiler and args...>
  want=$1; shift
  before=$(misses)
  "$@" -O2 -c k.c -o k.o || fail "$*"
  if [ "$(misses)" = "$before" ]; then got=hit; else got=miss; fi
  [ "$got" = "$want" ] || fail "expected a cache $want, got a $got: $*"
}

# 1. clang -fplugin= with a copy of the plugin (its device runtime and templates beside it).
mkdir p && cp "$plugin" "$(dirname "$plugin")"/kernplug-clang*.so "$(dirname "$plugin")"/kernplug-*.bc p/ || exit 1
compile miss ccache "$clang" -fplugin=$PWD/p/kernplug.so -I"$include"
compile hit ccache "$clang" -fplugin=$PWD/p/kernplug.so -I"$include"
python3 - "$PWD/p/kernplug.so" "$id" "$other" <<'PY' || fail "cannot rewrite the plugin's id"
import sys
p, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
b = open(p, 'rb').read()
assert b.count(old) == 1
open(p, 'wb').write(b.replace(old, new))
PY
compile miss ccache "$clang" -fplugin=$PWD/p/kernplug.so -I"$include"

# 2. ccache kpcc: a copy of kpcc that finds the same plugin, include and runtime.
bindir=$(dirname "$kpcc")
rel_lib=$(sed -n "s/^KPCC_REL_LIBDIR='\(.*\)'$/\1/p" "$kpcc")
rel_inc=$(sed -n "s/^KPCC_REL_INCLUDEDIR='\(.*\)'$/\1/p" "$kpcc")
mkdir -p t/a/b/c/bin && cd t/a/b/c/bin || exit 1
mkdir -p "$(dirname "$rel_lib")" "$(dirname "$rel_inc")"
ln -s "$(cd "$bindir/$rel_lib" && pwd)" "$rel_lib" && ln -s "$(cd "$bindir/$rel_inc" && pwd)" "$rel_inc" ||
  fail "cannot lay out a copy of kpcc's tree"
cp "$kpcc" kpcc && cd "$work" || exit 1
k=$work/t/a/b/c/bin/kpcc
compile miss ccache "$k"
compile hit ccache "$k"
sed -i "s/^KPCC_DEVICE_CODE_ID='$id'$/KPCC_DEVICE_CODE_ID='$other'/" "$k"
compile miss ccache "$k"
echo "ok: ccache keys on the device code"
