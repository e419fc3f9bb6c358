#!/bin/sh
# bench/gpu/build.sh [BUILD_DIR] — builds, on a machine with clang-19, everything of the GPU
# benchmark that needs the kernplug plugin: kernplug itself in BUILD_DIR (default: build,
# configured as `make build` does when it is not yet), then the bench programs in
# BUILD_DIR/bench (bin/kp_bench, bin/kp_first_launch, bin/kp_first_launch_ptx and a copy of
# libkernplug_rt in lib/). That folder is self-contained: carry it to the GPU machine, which
# has no clang, and run bench/gpu/run.sh there (docs/benchmarks.md).
set -eu
root=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
build=${1:-$root/build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
fi
cmake --build "$build" --target kernplug kernplug_rt kernplug_device_bc
cmake -S "$root/bench" -B "$build/bench" -G Ninja -DKERNPLUG_BUILD_DIR="$build" \
  -DCMAKE_C_COMPILER=clang-19 -DKP_BENCH_CPU=OFF
cmake --build "$build/bench" --target kp_bench kp_first_launch kp_first_launch_ptx

# What run.sh reports about this build (one JSON line, read by report.py).
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | head -1)
arch=$(sed -n 's/^KP_BENCH_ARCH:STRING=//p' "$build/bench/CMakeCache.txt")
printf '{"impl": "kernplug", "kind": "meta", "kernplug_commit": "%s%s", "kp_arch": "PTX + cubin for %s (clang-19 plugin, built %s)"}\n' \
  "$commit" "${dirty:+ (with uncommitted changes)}" "$arch" "$(date -u +%Y-%m-%dT%H:%MZ)" \
  > "$build/bench/BUILD_INFO.jsonl"
echo "bench/gpu/build.sh: GPU bench programs in $build/bench/bin; carry $build/bench"
