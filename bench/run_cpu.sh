#!/bin/sh
# bench/run_cpu.sh [BUILD_DIR] — what `make bench` runs, on any machine (no GPU needed):
#   1. compile-time cost of the plugin, and nvcc on the same kernels in CUDA C where nvcc is
#      installed (bench/cpu/compile_time.py);
#   2. the GPU idioms table: the CPU backend against the OpenMP loop and the serial loop
#      (bench/cpu/cpu_vs_openmp; docs/benchmarks.md says how to read it);
#   3. what a launch costs: empty launches and small vector adds against OpenMP's fork/join
#      (bench/cpu/launch_overhead.c).
# BUILD_DIR (default: build) must hold a built kernplug; the bench programs are built in
# BUILD_DIR/bench. Installs libomp-19-dev (OpenMP for clang 19) when it is missing, as
# `make deps` installs the rest. A few minutes; never part of `make test`.
# BENCH_ARGS passes options to cpu_vs_openmp (e.g. BENCH_ARGS="--threads=4 --reps=9"),
# LAUNCH_ARGS to launch_overhead (e.g. LAUNCH_ARGS="--reps=21"). Each table's header names
# the CPU, the date and the load it was measured under.
set -eu
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
build=${1:-$root/build}
case $build in /*) ;; *) build=$root/$build ;; esac

# OpenMP for clang 19 (Debian: libomp-19-dev)
if ! printf '#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n' |
  clang-19 -fopenmp -x c - -o /dev/null 2> /dev/null; then
  echo "bench: clang-19 cannot build OpenMP programs: installing libomp-19-dev"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y libomp-19-dev
fi

cmake -S "$root/bench" -B "$build/bench" -G Ninja -DKERNPLUG_BUILD_DIR="$build" \
  -DCMAKE_C_COMPILER=clang-19 -DKP_BENCH_CPU=ON > /dev/null
cmake --build "$build/bench" --target cpu_vs_openmp launch_overhead

echo
echo "kernplug $(git -C "$root" describe --always --dirty 2> /dev/null || echo '(no git)');" \
  "$(uptime | sed 's/^ *//')"
echo
python3 "$root/bench/cpu/compile_time.py" --build "$build"
echo
# shellcheck disable=SC2086
"$build/bench/bin/cpu_vs_openmp" ${BENCH_ARGS:-}
echo
# shellcheck disable=SC2086
"$build/bench/bin/launch_overhead" ${LAUNCH_ARGS:-}
