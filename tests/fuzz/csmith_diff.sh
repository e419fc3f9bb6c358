#!/bin/bash
# csmith_diff.sh — the plugin must not change code that has no kernels: random C programs from
# Csmith compiled with plain clang-19 and with kpcc (plugin loaded) must give the same object
# file byte for byte (else the same disassembly) and, run, the same checksum.
#
#   tests/fuzz/csmith_diff.sh [--start S] [--count N] [--opts "-O0 -O2"] [--out DIR]
#                             [--build DIR] [--install]
#
# --install   apt-get install csmith and libcsmith-dev first when they are missing (root or
#             sudo only); without it, and without csmith, the script exits 77 (CTest: skipped).
# A differing seed is kept in DIR/csmith-<S>/ (default ./fuzz-failures) with the program, both
# objects, the outputs and repro.sh. Programs whose plain build does not finish in 10 s are
# skipped (Csmith's programs can run for a long time). Last line: "<n> passed, <n> failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
start=1 count=5 opts="-O0 -O2" out=$PWD/fuzz-failures build=$root/build install=0
while (($#)); do
  case $1 in
  --start) start=$2; shift 2 ;;
  --count) count=$2; shift 2 ;;
  --opts) opts=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --build) build=$2; shift 2 ;;
  --install) install=1; shift ;;
  -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "csmith_diff.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

clang=${KPCC_CLANG:-clang-19}
kpcc=$build/bin/kpcc
csmith=${CSMITH:-$(command -v csmith || true)}
inc=${CSMITH_INCLUDE:-/usr/include/csmith}
if [[ (-z $csmith || ! -f $inc/csmith.h) && $install == 1 ]]; then
  sudo=()
  ((EUID == 0)) || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    csmith libcsmith-dev >/dev/null || true
  csmith=$(command -v csmith || true)
fi
if [[ -z $csmith || ! -f $inc/csmith.h ]]; then
  echo "csmith_diff.sh: skipped: no csmith or no $inc/csmith.h (Debian: apt-get install csmith" \
    "libcsmith-dev)"
  exit 77
fi
if [[ ! -x $kpcc ]]; then
  echo "csmith_diff.sh: no kpcc at $kpcc (build kernplug first, or pass --build)" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/kp-csmith.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skip=0
for ((seed = start; seed < start + count; seed++)); do
  d=$work/$seed
  mkdir -p "$d"
  # (in $d: csmith writes platform.info into the current directory)
  (cd "$d" && "$csmith" --seed "$seed" -o cs.c) >/dev/null 2>&1 || { echo "csmith failed for seed $seed"; fail=$((fail + 1)); continue; }
  why=""
  for o in $opts; do
    # the same flags for both, -I for csmith.h; kpcc adds the plugin and kernplug's include dir
    flags=("$o" -w -I"$inc")
    (cd "$d" && "$clang" "${flags[@]}" -c cs.c -o plain$o.o) >"$d/plain$o.log" 2>&1 ||
      { why="plain clang failed ($o)"; break; }
    (cd "$d" && "$kpcc" "${flags[@]}" -c cs.c -o kp$o.o) >"$d/kp$o.log" 2>&1 ||
      { why="kpcc failed ($o)"; break; }
    if ! cmp -s "$d/plain$o.o" "$d/kp$o.o"; then
      objdump -d "$d/plain$o.o" | tail -n +3 >"$d/plain$o.dis"
      objdump -d "$d/kp$o.o" | tail -n +3 >"$d/kp$o.dis"
      if cmp -s "$d/plain$o.dis" "$d/kp$o.dis"; then
        why="objects differ, code the same ($o)"
      else
        why="code differs ($o)"
      fi
      break
    fi
    "$clang" "$d/plain$o.o" -o "$d/plain$o" 2>>"$d/plain$o.log" || { why="link failed ($o)"; break; }
    "$kpcc" "$d/kp$o.o" -o "$d/kp$o" 2>>"$d/kp$o.log" || { why="kpcc link failed ($o)"; break; }
    rc=0
    timeout 10 "$d/plain$o" >"$d/plain$o.out" 2>&1 || rc=$?
    if ((rc == 124)); then
      why=skip
      break
    fi
    rck=0
    KP_BACKEND=cpu timeout 20 "$d/kp$o" >"$d/kp$o.out" 2>&1 || rck=$?
    if ((rc != rck)) || ! cmp -s "$d/plain$o.out" "$d/kp$o.out"; then
      why="outputs differ ($o: exit $rc vs $rck)"
      break
    fi
  done
  if [[ $why == skip ]]; then
    echo "SKIP csmith seed $seed (runs longer than 10 s)"
    skip=$((skip + 1))
  elif [[ -n $why ]]; then
    echo "FAIL csmith seed $seed: $why"
    fail=$((fail + 1))
    mkdir -p "$out/csmith-$seed"
    cp "$d"/* "$out/csmith-$seed/" 2>/dev/null
    {
      echo "#!/bin/bash"
      echo "# csmith seed $seed: $why"
      echo "$csmith --seed $seed -o cs.c"
      for o in $opts; do
        echo "$clang $o -w -I$inc -c cs.c -o plain$o.o && $kpcc $o -w -I$inc -c cs.c -o kp$o.o && cmp plain$o.o kp$o.o"
        echo "$clang plain$o.o -o plain$o && $kpcc kp$o.o -o kp$o && ./plain$o && ./kp$o"
      done
    } >"$out/csmith-$seed/repro.sh"
    chmod +x "$out/csmith-$seed/repro.sh"
  else
    echo "PASS csmith seed $seed ($(head -c 40 "$d/plain${opts##* }.out" | tr -d '\n'))"
    pass=$((pass + 1))
  fi
  rm -rf "$d"
done
if ((pass == 0 && fail == 0)); then
  echo "csmith_diff.sh: every program ran too long; nothing compared"
  exit 77
fi
echo "$pass passed, $fail failed"
((fail == 0))
