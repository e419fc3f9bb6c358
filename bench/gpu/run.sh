#!/bin/bash
# bench/gpu/run.sh — the GPU benchmark, in one run on one device: for each case the kernplug
# program (built elsewhere by bench/gpu/build.sh and carried here), the same kernel in CUDA C
# built here with `nvcc -O3 -arch=native`, and numba-cuda (plus CuPy's sum and raw
# cuLaunchKernel where the case has them). Collects their JSON lines and writes results.md
# and chart.png (bench/gpu/report.py). docs/benchmarks.md has the method.
#
#   bench/gpu/run.sh [--check] [--out DIR] [--bench-dir DIR] [--section NAME]
#
#   --check        small sizes, one repetition: a self-test of the whole pipeline
#   --out DIR      where the results go (default: build/gpu-bench): results.jsonl,
#                  results.md, chart.png, sass.txt, log.txt
#   --bench-dir    the carried folder with bin/kp_bench (default: build/bench, else
#                  build-bench/bench, under the repository root)
#   --section      only one of streaming, compute, reductions, launch, copies, first-launch
#
# Needs: an NVIDIA GPU and driver, nvcc (CUDA toolkit), python3 with numba-cuda, NumPy and
# CuPy, matplotlib for the chart. Without a GPU it still builds the CUDA programs (for
# $CUDA_ARCH, default sm_90) and checks the Python scripts, then stops with a message.
set -uo pipefail
root=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
here=$root/bench/gpu
check=""
out=$root/build/gpu-bench
bench_dir=""
section=""
while [ $# -gt 0 ]; do
  case $1 in
  --check) check=--check ;;
  --out) out=$2; shift ;;
  --bench-dir) bench_dir=$2; shift ;;
  --section) section=$2; shift ;;
  -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
  *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
die() { echo "run.sh: $*" >&2; exit 2; }
say() { echo "run.sh: $*" >&2; }
want() { [ -z "$section" ] || [ "$section" = "$1" ]; }

# ---- what must be there ------------------------------------------------------------------
if [ -z "$bench_dir" ]; then
  for d in "$root/build/bench" "$root/build-bench/bench"; do
    [ -x "$d/bin/kp_bench" ] && bench_dir=$d && break
  done
fi
[ -n "$bench_dir" ] && [ -x "$bench_dir/bin/kp_bench" ] ||
  die "no kernplug bench programs (bin/kp_bench): run bench/gpu/build.sh on a machine with clang-19 and carry its BUILD_DIR/bench here, or pass --bench-dir"
for p in kp_bench kp_first_launch kp_first_launch_ptx; do
  [ -x "$bench_dir/bin/$p" ] || die "$bench_dir/bin/$p is missing: rebuild with bench/gpu/build.sh"
done
[ -e "$bench_dir/lib/libkernplug_rt.so.0" ] || die "$bench_dir/lib/libkernplug_rt.so.0 is missing"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || die "nvcc not found (set NVCC or put the CUDA toolkit's bin on PATH)"
PY=${PYTHON:-python3}
for s in numba_bench.py report.py; do
  "$PY" -m py_compile "$here/$s" || die "$here/$s does not compile"
done
mkdir -p "$out" || die "cannot create $out"
# the CUDA programs go to a scratch folder: $out keeps only the five result files
B=$(mktemp -d "${TMPDIR:-/tmp}/kp-gpu-bench.XXXXXX") || die "cannot create a scratch folder"
log=$out/log.txt
: > "$log"

# ---- the GPU, if any -----------------------------------------------------------------------
sm=""
if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
  sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '. ')
fi
if [ -n "$sm" ]; then
  arch_flags="-arch=native"
  ptx_flags="-gencode arch=compute_$sm,code=compute_$sm"
else
  sm=${CUDA_ARCH:-sm_90}
  sm=${sm#sm_}
  arch_flags="-arch=sm_$sm"
  ptx_flags="-gencode arch=compute_$sm,code=compute_$sm"
  say "no GPU (nvidia-smi finds none): building the CUDA programs for sm_$sm only, to check them"
fi

# ---- build the CUDA C side -------------------------------------------------------------------
build() { say "$*"; "$@" >> "$log" 2>&1 || die "build failed: $* (see $log)"; }
build "$NVCC" -O3 $arch_flags -I"$root/bench/common" -o "$B/cuda_bench" "$here/cuda_bench.cu"
build "$NVCC" -O3 $arch_flags -I"$root/bench/common" -o "$B/first_launch" "$here/first_launch.cu"
build "$NVCC" -O3 $ptx_flags -DBENCH_PTX_ONLY -I"$root/bench/common" -o "$B/first_launch_ptx" \
  "$here/first_launch.cu"
build "$NVCC" -cubin $arch_flags -o "$B/empty_kernels.cubin" "$here/empty_kernels.cu"
build "$NVCC" -O3 -I"$root/bench/common" -o "$B/launch_raw" "$here/launch_raw.c" -lcuda

if [ "${arch_flags}" != "-arch=native" ]; then
  say "everything is built and the scripts compile; the measurements need a GPU: stopping here"
  exit 3
fi
"$PY" -c "import numba.cuda, numpy" 2>> "$log" || die "python3 cannot import numba.cuda and numpy (see $log)"
"$PY" -c "import cupy" 2>> "$log" || say "no CuPy: the CuPy sum row will be missing"

# ---- run ---------------------------------------------------------------------------------------
results=$out/results.jsonl
: > "$results"
{
  printf '{"impl": "run", "kind": "meta", "date": "%s", "host": "%s", "driver": "%s", "memory_gib": "%s"}\n' \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$(hostname)" \
    "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)" \
    "$(nvidia-smi --query-gpu=memory.total --format=csv,noheader | head -1)"
  [ -f "$bench_dir/BUILD_INFO.jsonl" ] && cat "$bench_dir/BUILD_INFO.jsonl"
} >> "$results"
export LD_LIBRARY_PATH="$bench_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
sec_arg=""
[ -n "$section" ] && [ "$section" != first-launch ] && sec_arg=--section=$section
status=0
run() { # run NAME CMD...: JSON lines to results, the rest to the log
  say "running $1"
  shift
  "$@" >> "$results" 2>> "$log"
  local rc=$?
  [ $rc -eq 0 ] || { say "  exited $rc (see $log)"; status=1; }
}
if [ "$section" != first-launch ]; then
  run "kernplug (kp_bench)" env KP_BACKEND=cuda "$bench_dir/bin/kp_bench" $check $sec_arg
  run "CUDA C (cuda_bench)" "$B/cuda_bench" $check $sec_arg
  want launch && run "raw cuLaunchKernel (launch_raw)" "$B/launch_raw" "$B/empty_kernels.cubin" $check
  run "numba-cuda (numba_bench.py)" env PYTHONUNBUFFERED=1 "$PY" "$here/numba_bench.py" $check \
    ${section:+--section $section}
fi
if want first-launch; then
  # one measurement per process; the JIT cache off, so that PTX is compiled every time
  for i in 1 2 3 4 5; do
    run "first launch $i/5" env KP_BACKEND=cuda CUDA_CACHE_DISABLE=1 "$bench_dir/bin/kp_first_launch"
    run "first launch, PTX $i/5" env KP_BACKEND=cuda CUDA_CACHE_DISABLE=1 "$bench_dir/bin/kp_first_launch_ptx"
    run "first launch nvcc $i/5" env CUDA_CACHE_DISABLE=1 "$B/first_launch"
    run "first launch nvcc PTX $i/5" env CUDA_CACHE_DISABLE=1 "$B/first_launch_ptx"
    run "first launch numba $i/5" env CUDA_CACHE_DISABLE=1 "$PY" "$here/numba_bench.py" --first-launch
  done
fi

# SASS of both sides, for the PTX/SASS comparison in docs/benchmarks.md
if command -v cuobjdump > /dev/null || [ -x "$(dirname "$NVCC")/cuobjdump" ]; then
  CUOBJDUMP=$(command -v cuobjdump || echo "$(dirname "$NVCC")/cuobjdump")
  {
    echo "=== nvcc: cuda_bench"; "$CUOBJDUMP" -res-usage -sass "$B/cuda_bench"
    if objcopy -O binary --only-section=.kp_cubin "$bench_dir/bin/kp_bench" "$B/kp.cubin" 2> /dev/null &&
       [ -s "$B/kp.cubin" ]; then
      echo "=== kernplug: kp_bench (.kp_cubin)"; "$CUOBJDUMP" -res-usage -sass "$B/kp.cubin"
    fi
  } > "$out/sass.txt" 2>&1
fi

say "report"
"$PY" "$here/report.py" "$results" --md "$out/results.md" --png "$out/chart.png" > /dev/null 2>> "$log" ||
  { say "report.py failed (see $log)"; status=1; }
say "results: $out/results.md, $out/chart.png, $out/results.jsonl, log: $log"
[ -f "$out/results.md" ] && tail -n 40 "$out/results.md"
exit $status
