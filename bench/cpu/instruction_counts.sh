#!/bin/sh
# bench/cpu/instruction_counts.sh [--compare BIN2] [BIN] [CASE...] — the GPU idioms table's
# rows counted in instructions instead of timed: each row's kernplug, OpenMP and serial sides
# run on one thread under valgrind's callgrind, and the instructions each side's harness
# function executed (inclusive: the runtime's launch path, OpenMP's fork, the kernel) are
# printed with their ratios. Unlike times, the counts do not move with the machine's load,
# so a change to the CPU backend can be judged on a shared, busy machine; they say nothing
# about memory stalls, so rows bound by memory (vector add, grid-stride add at 2^27) still
# need the timed table. BIN: a built cpu_vs_openmp (default build/bench/bin/cpu_vs_openmp);
# --compare BIN2: a second build (e.g. main's) counted in the same run, column by column.
# CASE: row name prefixes (default: the rows whose kernels have barriers or warp collectives).
# Several minutes per row (valgrind runs ~50x slower); never part of `make test` or `make bench`.
set -eu
root=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
compare=""
if [ "${1:-}" = "--compare" ]; then compare=$2; shift 2; fi
bin=${1:-$root/build/bench/bin/cpu_vs_openmp}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "tree reduction" "histogram" "block scan" "hotspot" "2D convolution" \
  "tiled matmul"
command -v valgrind > /dev/null || { echo "instruction_counts: valgrind is not installed (apt-get install valgrind)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # count BIN CASE: "kp omp serial", instructions per call of the row's three sides
  OMP_NUM_THREADS=1 KP_CPU_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
    "$1" --case="$2" --reps=1 --threads=1 > /dev/null 2>&1
  # Per call: the harness calibrates calls per sample for each side on its own, so totals
  # would compare different numbers of calls. Each call site of kp_*/mp_*/se_* gives its
  # calls (calls=N) and their inclusive cost (the line after).
  python3 - "$tmp/cg" << 'PY'
import re, sys
names, calls, cost = {}, {"kp": 0, "mp": 0, "se": 0}, {"kp": 0, "mp": 0, "se": 0}
caller, side, pending = "", None, None
for line in open(sys.argv[1]):
    m = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3):
            names[m.group(2)] = m.group(3).strip()
        n = names.get(m.group(2), "")
        if not m.group(1):
            caller = n
        else:  # a side's function called by the harness (not the runtime's kp_* API)
            side = (n[:2] if re.fullmatch(r"(kp|mp|se)_[a-z0-9_]+", n) and
                    caller.startswith(("harness_", "time_calls", "check_row")) else None)
        continue
    if line.startswith("calls="):
        pending = int(line.split("=")[1].split()[0]) if side else None
        continue
    if pending is not None:
        calls[side] += pending
        cost[side] += int(line.split()[1])
        pending = None
print(" ".join("%.0f" % (cost[s] / calls[s] if calls[s] else 0) for s in ("kp", "mp", "se")))
PY
}
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'); $(date -u '+%Y-%m-%d %H:%M UTC');" \
  "$(uptime | sed 's/.*load/load/') (instruction counts do not depend on it)"
echo
if [ -n "$compare" ]; then
  echo "| row | kernplug (M instr. per call) | OpenMP | serial | kernplug / OpenMP | $compare: kernplug / OpenMP |"
  echo "|---|---:|---:|---:|---:|---:|"
else
  echo "| row | kernplug (M instr. per call) | OpenMP | serial | kernplug / OpenMP | kernplug / serial |"
  echo "|---|---:|---:|---:|---:|---:|"
fi
for c in "$@"; do
  set -- $(count "$bin" "$c")
  kp=$1 mp=$2 se=$3
  if [ -n "$compare" ]; then
    set -- $(count "$compare" "$c")
    last=$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  else
    last=$(awk -v a="$kp" -v b="$se" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  fi
  awk -v c="$c" -v kp="$kp" -v mp="$mp" -v se="$se" -v last="$last" 'BEGIN {
    printf "| %s | %.1f | %.1f | %.1f | %.2f | %s |\n", c, kp / 1e6, mp / 1e6, se / 1e6,
           (mp > 0 ? kp / mp : 0), last }'
done
