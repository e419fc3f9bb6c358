#!/bin/bash
# sanitize.sh address|thread [ctest arguments...]: the test suite's sanitizer variants
# (docs/internals.md, "Sanitizer builds"; `make test-sanitize` runs both).
#
#   address  build-asan: runtime, tests and examples with ASan + LeakSanitizer + UBSan
#   thread   build-tsan: the same with TSan
#
# Configures the build directory with -DKP_SANITIZE (cmake/Sanitize.cmake) unless it is
# configured already, builds, and runs the `cpu` label: the runtime tests (CPU backend and the
# fake CUDA driver), the kernel-language tests and the examples on the CPU backend. The GPU,
# compile and ptx tests are what the sanitizers cannot see into (the plugin runs inside clang,
# GPU code on the GPU); `make test` runs them. BUILD_DIR overrides the directory, JOBS the
# parallelism (default: the number of cores). CLANG_VERSION picks the Clang/LLVM, as in the
# Makefile: 19 (the default) or 22, whose directories are build-asan-22 and build-tsan-22.
set -euo pipefail
cd "$(dirname "$0")/.."

kind=${1:-}
case "$kind" in
address) sanitizers=address,undefined default_dir=build-asan ;;
thread) sanitizers=thread default_dir=build-tsan ;;
*)
  echo "usage: $0 address|thread [ctest arguments...]" >&2
  exit 2
  ;;
esac
shift
clang_version=${CLANG_VERSION:-19}
[ "$clang_version" = 19 ] || default_dir=$default_dir-$clang_version
dir=${BUILD_DIR:-$default_dir}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

start=$(date +%s)
if ! grep -qs "^KP_SANITIZE:STRING=$sanitizers\$" "$dir/CMakeCache.txt" ||
  ! grep -qs "^KERNPLUG_CLANG_VERSION:STRING=$clang_version\$" "$dir/CMakeCache.txt"; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER="clang-$clang_version" \
    -DCMAKE_CXX_COMPILER="clang++-$clang_version" -DKERNPLUG_CLANG_VERSION="$clang_version" \
    -DKP_SANITIZE="$sanitizers"
fi
cmake --build "$dir" --parallel "$jobs"
built=$(date +%s)
status=0
ctest --test-dir "$dir" -L cpu --output-on-failure -j"$jobs" "$@" || status=$?
echo "sanitize $kind (clang $clang_version): build $((built - start)) s, tests $(($(date +%s) - built)) s"
exit $status
