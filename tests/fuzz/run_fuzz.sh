#!/bin/bash
# run_fuzz.sh — differential fuzzing of kernplug with generated kernels (gen_kernel.py).
#
#   tests/fuzz/run_fuzz.sh [options]
#     --start S       first seed (default 1)
#     --count N       number of seeds, one program each (default 20)
#     --jobs J        seeds run in parallel (default 2)
#     --kernels K     kernels per program (default 6)
#     --exclude LIST  features gen_kernel.py leaves out (comma-separated)
#     --modes LIST    builds per program, each OPT:BARRIERS (default "O2:split O0:split
#                     O2:fibers O0:fibers"; the first also saves and checks the PTX); OPT is a clang -O level, BARRIERS split|fibers
#     --cflags F      extra compiler flags for every build (e.g. -DFZ_SELFTEST_BREAK, which
#                     makes each reference deliberately wrong: every kernel must then fail)
#     --ubsan         also run each program's references alone under UBSan (plain clang, no
#                     plugin): checks the generator, not kernplug
#     --out DIR       where failing programs are kept (default ./fuzz-failures)
#     --work DIR      scratch directory (default: a fresh one under ${TMPDIR:-/tmp}, removed)
#     --build DIR     kernplug build tree (default: build/ next to tests/)
#     --quiet         print failures and the summary only
#
# For each seed: generate prog.c, check its PTX with ptxas (sm_75 and sm_90) when the CUDA
# toolkit is there, then build it once per mode with kpcc and run it with KP_BACKEND=cpu
# (a program compares every kernel with its serial reference and exits 1 on a mismatch).
# A failing seed is copied to DIR/seed-<S>/ with prog.c, the logs and repro.sh, the commands
# that reproduce it. Exit status: 0 when every seed passed, 1 otherwise. The last line is
# "<n> passed, <n> failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

start=1 count=20 jobs=2 kernels=6 exclude="" modes="O2:split O0:split O2:fibers O0:fibers"
ubsan=0 extra="" out=$PWD/fuzz-failures work="" build=$root/build quiet=0 one=""
while (($#)); do
  case $1 in
  --start) start=$2; shift 2 ;;
  --count) count=$2; shift 2 ;;
  --jobs) jobs=$2; shift 2 ;;
  --kernels) kernels=$2; shift 2 ;;
  --exclude) exclude=$2; shift 2 ;;
  --modes) modes=$2; shift 2 ;;
  --ubsan) ubsan=1; shift ;;
  --cflags) extra=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --work) work=$2; shift 2 ;;
  --build) build=$2; shift 2 ;;
  --quiet) quiet=1; shift ;;
  --one) one=$2; shift 2 ;; # internal: run one seed (what the parallel workers call)
  -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "run_fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

kpcc=$build/bin/kpcc
cuda=${CUDA_PATH:-/usr/local/cuda}
ptxas=$cuda/bin/ptxas
[[ -x $ptxas ]] || ptxas=""
clang=${KPCC_CLANG:-clang-19}
python=${PYTHON:-python3}
cflags=(-ffp-contract=off -w $extra)

# ---- one seed: prints one line (PASS/FAIL seed ...) and returns 0/1
run_one() {
  local seed=$1
  local d=$work/seed-$seed status=0 why=""
  mkdir -p "$d"
  local genargs=(--seed "$seed" --kernels "$kernels")
  [[ -n $exclude ]] && genargs+=(--exclude "$exclude")
  if ! "$python" "$here/gen_kernel.py" "${genargs[@]}" -o "$d/prog.c" 2>"$d/gen.log"; then
    why="generator failed"; status=1
  fi
  local repro=()
  repro+=("python3 tests/fuzz/gen_kernel.py ${genargs[*]} -o prog.c   # or use the prog.c kept here")
  if ((status == 0 && ubsan)); then
    if ! "$clang" -DFZ_REF_ONLY -I"$root/include" -O1 -g "${cflags[@]}" \
      -fsanitize=undefined -fno-sanitize-recover=all "$d/prog.c" -lm -o "$d/ref_ubsan" \
      >"$d/ubsan.log" 2>&1 || ! timeout 120 "$d/ref_ubsan" >>"$d/ubsan.log" 2>&1; then
      why="reference under UBSan (generator bug)"; status=1
      repro+=("$clang -DFZ_REF_ONLY -I$root/include -O1 -g ${cflags[*]} -fsanitize=undefined -fno-sanitize-recover=all prog.c -lm -o ref && ./ref")
    fi
  fi
  local first=1 m
  for m in $modes; do
    ((status == 0)) || break
    local opt=${m%%:*} bar=${m#*:}
    local exe=$d/prog-$opt-$bar
    local flags=(-"$opt" "${cflags[@]}" -fplugin-arg-kernplug-cpu-barriers="$bar")
    if ((first)) && [[ -n $ptxas ]]; then
      flags+=(-fplugin-arg-kernplug-save-temps -fplugin-arg-kernplug-verbose)
    else
      flags+=(-fplugin-arg-kernplug-ptxas=none)
    fi
    local cc="$kpcc ${flags[*]} -c prog.c -o prog.o && $kpcc prog.o -lm -o prog"
    if ! (cd "$d" && "$kpcc" "${flags[@]}" -c prog.c -o "prog-$opt-$bar.o" \
      && "$kpcc" "prog-$opt-$bar.o" -lm -o "$exe") >"$d/compile-$opt-$bar.log" 2>&1; then
      why="compile failed ($m)"; status=1
      repro+=("$cc")
      break
    fi
    if ((first)) && [[ -n $ptxas ]]; then
      grep -o "kernel '[a-z0-9_]*': barriers [a-z]* [a-z]*" "$d/compile-$opt-$bar.log" \
        >"$d/paths.txt" 2>/dev/null || true
      local arch
      for arch in sm_75 sm_90; do
        if ! "$ptxas" -arch=$arch "$d/prog-$opt-$bar.o.kp.ptx" -o /dev/null \
          >"$d/ptxas-$arch.log" 2>&1; then
          why="ptxas -arch=$arch failed"; status=1
          repro+=("$kpcc -O2 -ffp-contract=off -fplugin-arg-kernplug-save-temps -c prog.c -o prog.o && $ptxas -arch=$arch prog.o.kp.ptx -o /dev/null")
        fi
      done
    fi
    first=0
    ((status == 0)) || break
    local rc=0
    KP_BACKEND=cpu timeout 120 "$exe" >"$d/run-$opt-$bar.log" 2>&1 || rc=$?
    if ((rc != 0)); then
      case $rc in
      1) why="mismatch ($m)" ;;
      3) why="reference reports a generator bug ($m)" ;;
      124) why="timeout ($m)" ;;
      *) why="exit $rc ($m)" ;;
      esac
      status=1
      repro+=("$cc")
      repro+=("KP_BACKEND=cpu ./prog    # ./prog <k> runs kernel k only")
    fi
  done
  if ((status)); then
    echo "FAIL seed $seed: $why"
    mkdir -p "$out/seed-$seed"
    cp "$d"/prog.c "$d"/*.log "$out/seed-$seed/" 2>/dev/null
    grep -h MISMATCH "$d"/run-*.log 2>/dev/null | head -5 | sed 's/^/  /'
    {
      echo "#!/bin/bash"
      echo "# seed $seed: $why"
      echo "# run from this directory; kernplug build: $build (kpcc), sources: $root"
      printf '%s\n' "${repro[@]}"
    } >"$out/seed-$seed/repro.sh"
    chmod +x "$out/seed-$seed/repro.sh"
  else
    echo "PASS seed $seed"
  fi
  [[ -f $d/paths.txt ]] && cp "$d/paths.txt" "$work/paths-$seed.txt"
  rm -rf "$d"
  return $status
}

if [[ -n $one ]]; then
  run_one "$one"
  exit $?
fi

if [[ ! -x $kpcc ]]; then
  echo "run_fuzz.sh: no kpcc at $kpcc (build kernplug first, or pass --build)" >&2
  exit 2
fi
own_work=0
if [[ -z $work ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/kp-fuzz.XXXXXX")
  own_work=1
fi
mkdir -p "$work"
export KP_NUM_THREADS=${KP_NUM_THREADS:-2}
args=(--kernels "$kernels" --modes "$modes" --out "$out" --work "$work" --build "$build"
  --cflags "$extra")
[[ -n $exclude ]] && args+=(--exclude "$exclude")
((ubsan)) && args+=(--ubsan)
((quiet)) && args+=(--quiet)
results=$work/results.txt
seq "$start" $((start + count - 1)) |
  xargs -P "$jobs" -I{} bash "$0" "${args[@]}" --one {} | tee "$results" |
  if ((quiet)); then grep -v '^PASS'; else cat; fi
pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
if [[ -z $ptxas ]]; then echo "(no ptxas at $cuda/bin: PTX not assembled)"; fi
if cat "$work"/paths-*.txt >/dev/null 2>&1; then
  echo "kernels with barriers on the CPU: $(cat "$work"/paths-*.txt | grep -c 'split into') split," \
    "$(cat "$work"/paths-*.txt | grep -c 'kept on') on fibers (first build mode)"
fi
((fail)) && echo "failing programs are in $out/ (repro.sh in each)"
((own_work)) && rm -rf "$work"
echo "$((pass * kernels)) kernels in $pass programs passed, $fail program(s) failed ($modes)"
echo "$pass passed, $fail failed"
((fail == 0))
