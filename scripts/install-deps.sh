#!/bin/bash
# install-deps.sh — installs what building and testing kernplug needs on Debian 12, if missing.
#
# Idempotent and quick: one dpkg query when everything is there, and apt-get (through sudo
# only when not root) only for packages that are missing. The CUDA toolkit is optional and
# never installed here: without it kernplug still emits PTX, and the tests that need ptxas
# skip themselves.
set -euo pipefail

# clang-19 also brings clang++-19, libstdc++ headers and binutils; libclang-19-dev and
# llvm-19-dev the CMake packages and headers the plugin builds against; llvm-19-tools
# FileCheck, not, count and lit (with python3) for the tests; llc/opt/llvm-link come with
# llvm-19 (opt runs the passes alone in the lit suite, tests/lit.cfg.py). pkgconf is Debian 12's
# pkg-config, for the test that builds examples/out_of_tree against the installed kernplug.
# libclang-rt-19-dev: the sanitizer runtimes of clang 19 (the CPU backend's fault handling is
# tested under -fsanitize=thread). valgrind and gdb: the tests that check kernels under memcheck
# and in the debugger (docs/debugging.md). python3-numpy: the NumPy arrays of
# examples/python_ctypes (without it the example uses Python's array module).
packages=(clang-19 libclang-19-dev llvm-19-dev llvm-19-tools libclang-rt-19-dev cmake
          ninja-build make pkgconf python3 valgrind gdb)
packages+=(python3-numpy)
# gcc-12-plugin-dev and g++-12: GCC 12's plugin headers and the g++ that builds kernplug_gcc.so
# (gcc-plugin/), and the gcc twins of the kernel tests and examples.
packages+=(gcc-12-plugin-dev g++-12)
# openmpi-bin and libopenmpi-dev: mpicc and mpirun for examples/mpi_allreduce.c (docs/mpi.md).
packages+=(openmpi-bin libopenmpi-dev)
# Clang/LLVM 22, the second version kernplug builds against (make test-clang22, build-22), with
# its sanitizer runtimes; docs/getting-started.md "Which clang".
packages+=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools libclang-rt-22-dev)

if ! command -v dpkg-query >/dev/null 2>&1; then
  # Not Debian: check for the tools and say what is missing; installing is up to the user.
  missing_tools=()
  for tool in clang-19 cmake ninja make; do
    command -v "$tool" >/dev/null 2>&1 || missing_tools+=("$tool")
  done
  if ((${#missing_tools[@]})); then
    echo "install-deps: not a Debian system; please install: ${missing_tools[*]}" >&2
    echo "install-deps: (Clang/LLVM 19 with its CMake packages, FileCheck, CMake >= 3.20, Ninja)" >&2
    exit 1
  fi
  echo "install-deps: not a Debian system, but clang-19, cmake, ninja and make are there"
  exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ $status == installed ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all present (${packages[*]})"
else
  if ((EUID == 0)); then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install-deps: missing ${missing[*]}, and not root and no sudo to install them" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Optional: Csmith (random C programs) for the fuzz.csmith test, tests/fuzz/csmith_diff.sh,
# which is skipped without it. Installed when missing and possible; never an error.
optional_missing=()
for pkg in csmith libcsmith-dev; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ $status == installed ]] || optional_missing+=("$pkg")
done
if ((${#optional_missing[@]})); then
  if ((EUID == 0)) || command -v sudo >/dev/null 2>&1; then
    as_root=()
    ((EUID == 0)) || as_root=(sudo -n)
    echo "install-deps: installing optional ${optional_missing[*]}"
    { "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${optional_missing[@]}"; } >/dev/null 2>&1 ||
      echo "install-deps: could not install ${optional_missing[*]} (optional): fuzz.csmith skipped"
  else
    echo "install-deps: ${optional_missing[*]} missing (optional): fuzz.csmith skipped"
  fi
fi

# Optional parts: say what the build will find, so that skipped tests are no surprise.
cuda=${CUDAToolkit_ROOT:-${CUDA_PATH:-/usr/local/cuda}}
if [[ -x $cuda/bin/ptxas ]]; then
  echo "install-deps: CUDA toolkit at $cuda (ptxas, libdevice): cubins and ptx tests enabled"
else
  echo "install-deps: no CUDA toolkit at $cuda (optional): PTX only, ptxas tests skipped"
fi
