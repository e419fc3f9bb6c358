#!/bin/sh
# The static runtime (docs/compiling.md, "A static runtime"):
#   static.sh <kpcc> <runtime dir> <fake libcuda> <tests/rdc dir> <work dir>
# kpcc -static-libkernplug: libkernplug_rt.a in a dynamically linked program (no
# libkernplug_rt.so needed), on the CPU backend and on the fake driver (its GPU code loads and
# links); kpcc -static: a fully static program, which runs on the CPU and refuses the driver
# with a message (a static program cannot load libcuda) instead of crashing.
set -u
kpcc=$1 rtdir=$2 fake=$3 rdc=$4 work=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$rtdir/libkernplug_rt.a" ] || fail "no $rtdir/libkernplug_rt.a"
src="$rdc/app.c $rdc/physics.c"
flags="-O2 -Wall -Wextra -Werror -I$rdc"

out=$("$kpcc" --show -static-libkernplug $flags $src -o x) || fail "--show: $out"
case $out in *-static-libkernplug*) fail "-static-libkernplug reached clang: $out" ;; esac
case $out in *libkernplug_rt.a*) ;; *) fail "-static-libkernplug does not link the archive: $out" ;; esac

"$kpcc" -static-libkernplug $flags $src -o app_rt_static || fail "kpcc -static-libkernplug"
ldd ./app_rt_static | grep -q libkernplug_rt && fail "app_rt_static needs libkernplug_rt.so"
KP_BACKEND=cpu ./app_rt_static || fail "app_rt_static on the CPU"
KP_BACKEND=cuda KP_LIBCUDA=$fake FAKE_CUDA_LOG=$PWD/rt.log ./app_rt_static launch-only ||
  fail "app_rt_static on the fake driver"
grep -q "cuLinkComplete" rt.log && grep -q "cuLaunchKernel step" rt.log || { cat rt.log; fail "fake log"; }

# Fully static: glibc's static dlopen warns at link time; that warning is expected.
"$kpcc" -static $flags $src -o app_static 2>link.txt || { cat link.txt; fail "kpcc -static"; }
file ./app_static | grep -q "statically linked" || fail "app_static is not static: $(file ./app_static)"
KP_BACKEND=cpu ./app_static || fail "app_static on the CPU"
KP_BACKEND=cuda KP_LIBCUDA=$fake ./app_static launch-only 2>err.txt && fail "app_static used the driver"
grep -q "this program is statically linked (-static).*kpcc -static-libkernplug" err.txt ||
  { cat err.txt; fail "the static program's message"; }
echo "ok: static runtime"
