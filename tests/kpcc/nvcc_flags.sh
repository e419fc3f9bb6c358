#!/bin/sh
# kpcc understands the nvcc flags people type (docs/compiling.md, "nvcc's flags"):
#   nvcc_flags.sh <kpcc> <source dir> <work dir>
# Each translation is checked in `kpcc --show`, each refusal's message, and a real compile for
# the ones whose effect shows in the object (-arch, -lineinfo, -Xptxas -v, --use_fast_math).
set -u
kpcc=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
shows() { # <expected substring of the clang command> <kpcc args...>
  want=$1; shift
  out=$("$kpcc" --show "$@" -c k.c 2>&1) || fail "kpcc --show $*: $out"
  case $out in *"$want"*) ;; *) fail "kpcc $*: expected '$want' in: $out" ;; esac
}
refuses() { # <expected substring of the error> <kpcc args...>
  want=$1; shift
  if out=$("$kpcc" --show "$@" -c k.c 2>&1); then fail "kpcc $* was accepted: $out"; fi
  case $out in *"kpcc: error: "*"$want"*) ;; *) fail "kpcc $*: expected '$want' in: $out" ;; esac
}

shows "-fplugin-arg-kernplug-arch=sm_90" -arch=sm_90
shows "-fplugin-arg-kernplug-arch=sm_80" -arch sm_80
shows "-fplugin-arg-kernplug-arch=sm_86" --gpu-architecture=sm_86
# --offload-arch (clang's CUDA spelling) is never ignored silently.
shows "-fplugin-arg-kernplug-arch=sm_89" --offload-arch=sm_89
shows "-fplugin-arg-kernplug-arch=sm_80,sm_90" --offload-arch=sm_80 --offload-arch sm_90
refuses "'gfx90a' is not an NVIDIA GPU architecture" --offload-arch=gfx90a
refuses "kpcc does not ask the GPU at compile time" -arch=native
shows "-fplugin-arg-kernplug-arch=sm_80,sm_90 -fplugin-arg-kernplug-ptx-arch=sm_80" \
  -gencode arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=[sm_90,compute_90]
shows "-fplugin-arg-kernplug-ptx-arch=sm_80 -fplugin-arg-kernplug-ptxas=none" -arch=compute_80
shows "-gline-tables-only" -lineinfo
shows "-fplugin-arg-kernplug-ptxas-options=-v,-O3" -Xptxas -v,-O3
shows "-Rremark-backend-plugin" -Xptxas -v
shows "-fplugin-arg-kernplug-ptxas-options=-dlcm=ca" --ptxas-options=-dlcm=ca
shows "-fplugin-arg-kernplug-ptxas-options=-maxrregcount=32" -maxrregcount=32
shows "-fplugin-arg-kernplug-fast-math" --use_fast_math
shows "-fplugin-arg-kernplug-fast-math" -use_fast_math
shows "-fPIC -Wall" -Xcompiler -fPIC,-Wall
out=$("$kpcc" --show -rdc=true -dc k.c 2>&1) || fail "-rdc=true -dc: $out"
case "$out " in *" -rdc"* | *" -dc "*) fail "-rdc/-dc reached clang: $out" ;; *" -c "*) ;; *) fail "-dc is not -c: $out" ;; esac
case $out in *-lkernplug_rt*) fail "-dc links: $out" ;; esac
refuses "no device-link step is needed" -dlink
refuses "kpcc spelling: -g -fplugin-arg-kernplug-device-opt=0" -G
refuses "KPCC_CLANG" -ccbin g++
refuses "compile CUDA C with nvcc -rdc=true -ptx" k.cu
out=$("$kpcc" --show -c k.c -Xptxas 2>&1) && fail "-Xptxas without a value was accepted: $out"
case $out in *"a value is missing"*) ;; *) fail "-Xptxas without a value: $out" ;; esac

# Real compiles: what each flag changes in the object.
cp "$src/nvcc_flags_kernel.c" k.c || exit 1
"$kpcc" -O2 -arch=sm_80 -fplugin-arg-kernplug-verbose -c k.c 2>log.txt || { cat log.txt; fail "-arch=sm_80"; }
grep -q "cubin for sm_80" log.txt || { cat log.txt; fail "-arch=sm_80 made no sm_80 cubin"; }
grep -q "PTX for sm_80" log.txt || { cat log.txt; fail "-arch=sm_80: the PTX is not for sm_80"; }
grep -q "cubin for sm_90" log.txt && fail "-arch=sm_80 still made the default sm_90 cubin"
"$kpcc" -O2 -lineinfo -fplugin-arg-kernplug-save-temps -c k.c -o li.o || fail "-lineinfo"
grep -q "^[[:space:]]*\.loc" li.o.kp.ptx || fail "-lineinfo: no .loc in the PTX"
"$kpcc" -O2 -Xptxas -v -c k.c 2>v.txt || { cat v.txt; fail "-Xptxas -v"; }
grep -q "ptxas info *: Used [0-9]* registers" v.txt || { cat v.txt; fail "-Xptxas -v printed no registers"; }
"$kpcc" -O2 --use_fast_math -fplugin-arg-kernplug-save-temps -c k.c -o fm.o || fail "--use_fast_math"
"$kpcc" -O2 -fplugin-arg-kernplug-save-temps -c k.c -o precise.o || fail "plain compile"
grep -q "div.approx" fm.o.kp.ptx || fail "--use_fast_math: no approximate division"
grep -q "sqrt.approx" fm.o.kp.ptx || fail "--use_fast_math: sqrtf is not sqrt.approx (-prec-sqrt=false)"
grep -q "sin.approx" fm.o.kp.ptx || fail "--use_fast_math: sinf is not __nv_fast_sinf"
grep -q "\.ftz\." fm.o.kp.ptx || fail "--use_fast_math: float denormals are not flushed"
grep -q "div.approx\|sin.approx\|sqrt.approx\|\.ftz\." precise.o.kp.ptx && fail "fast math without --use_fast_math"
# Device code only, as nvcc's: the CPU code (the host object's .text) is the same.
cmp_host() { objcopy -O binary --only-section=.text "$1" "$1.host"; }
cmp_host fm.o && cmp_host precise.o && cmp -s fm.o.host precise.o.host ||
  fail "--use_fast_math changed the CPU code"
echo "ok: nvcc flags"
