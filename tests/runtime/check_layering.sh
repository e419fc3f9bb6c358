#!/bin/sh
# check_layering.sh RUNTIME_DIR — the include rules of libkernplug_rt (docs/runtime.md,
# "Layers"): backends depend on core, never the reverse.
#   - core/ and ufunc/ include no header of a backend (backend/cpu/, backend/cuda/) and name
#     none of a backend's functions (kp_cpu_*, kp_cuda_*, kp_pool_*, kp_fiber_*): they reach
#     the backend in use through the generic object of backend/backend.h only;
#   - the generic layer (backend/backend.h, backend/backend.c) includes no backend's headers;
#   - backend/cpu/ and backend/cuda/ include nothing of each other.
# Each quoted #include is resolved as the compiler resolves it (the including file's folder,
# then RUNTIME_DIR, the runtime's include directory), so "../cpu/x.h" is caught as well as
# "backend/cpu/x.h". Prints every violation; exits 1 if there is one.
#
# check_layering.sh --self-test: runs the check on a small tree with planted violations and
# fails unless each is reported (so that a broken check cannot pass silently).
set -u

# violations FOLDER[/] FORBIDDEN_FOLDER... : prints "file:line: includes target" for each
# include of a file under RUNTIME_DIR/FOLDER (FOLDER/: only the files directly in it) that
# resolves into one of the forbidden folders.
violations() {
  folder=${1%/}
  depth=
  [ "$1" = "$folder" ] || depth="-maxdepth 1"
  shift
  [ -d "$root/$folder" ] || return 0
  # shellcheck disable=SC2086 # $depth is empty or two words
  find "$root/$folder" $depth -type f \( -name '*.c' -o -name '*.h' \) | sort |
  while IFS= read -r f; do
    dir=$(dirname "$f")
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r hit; do
      line=${hit%%:*}
      inc=$(printf '%s\n' "$hit" | sed 's/^[^"]*"\([^"]*\)".*/\1/')
      if [ -e "$dir/$inc" ]; then
        target=$(realpath "$dir/$inc")
      elif [ -e "$root/$inc" ]; then
        target=$(realpath "$root/$inc")
      else
        continue # a public or system header (kernplug.h, kp_abi.h)
      fi
      for bad in "$@"; do
        [ -d "$root/$bad" ] || continue
        case "$target" in
        "$(realpath "$root/$bad")"/*)
          echo "${f#"$root"/}:$line: includes $inc (in $bad/), which $folder/ must not" ;;
        esac
      done
    done
  done
}

check() {
  root=$(realpath "$1")
  found=$(
    violations core backend/cpu backend/cuda
    violations ufunc backend/cpu backend/cuda
    violations backend/ backend/cpu backend/cuda
    violations backend/cpu backend/cuda
    violations backend/cuda backend/cpu
    for folder in core ufunc; do
      [ -d "$root/$folder" ] || continue
      grep -rnE '\bkp_(cpu|cuda|pool|fiber)_[A-Za-z0-9_]*' --include='*.[ch]' "$root/$folder" |
        sed "s|^$root/||; s|\$| (a backend's function; $folder/ must not name it)|"
    done
  )
  if [ -n "$found" ]; then
    printf '%s\n' "$found"
    echo "check_layering: $(printf '%s\n' "$found" | wc -l) violation(s) of the runtime's layers"
    return 1
  fi
  echo "check_layering: core/, ufunc/ and backend/backend.* reach no backend directly; the" \
    "backends include nothing of each other"
}

self_test() {
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  mkdir -p "$tree/core" "$tree/ufunc" "$tree/backend/cpu" "$tree/backend/cuda"
  echo '#include "backend/backend.h"' >"$tree/core/fine.c"
  : >"$tree/backend/backend.h"
  : >"$tree/backend/cpu/cpu_backend.h"
  : >"$tree/backend/cuda/cuda_backend.h"
  echo '#include "core/fine.c"' >"$tree/backend/cpu/fine.c"
  check "$tree" >/dev/null || { echo "self-test: a clean tree was refused"; return 1; }
  echo '#include "backend/cpu/cpu_backend.h"' >"$tree/core/bad.c"
  echo ' #  include "../backend/cuda/cuda_backend.h"' >"$tree/ufunc/bad.h"
  echo '#include "../cuda/cuda_backend.h"' >"$tree/backend/cpu/bad.c"
  echo '#include "backend/cpu/cpu_backend.h"' >"$tree/backend/cuda/bad.c"
  echo '#include "cuda/cuda_backend.h"' >"$tree/backend/backend.c"
  echo 'void f(void) { kp_pool_size(); }' >"$tree/core/calls.c"
  out=$(check "$tree")
  for f in core/bad.c ufunc/bad.h backend/cpu/bad.c backend/cuda/bad.c backend/backend.c \
    core/calls.c; do
    case "$out" in
    *"$f:1:"*) ;;
    *) echo "self-test: $f's include was not reported:"; printf '%s\n' "$out"; return 1 ;;
    esac
  done
  echo "check_layering self-test: all 6 planted violations reported"
}

case "${1:-}" in
--self-test) self_test ;;
"") echo "usage: $0 RUNTIME_DIR | --self-test" >&2; exit 2 ;;
*) check "$1" ;;
esac
