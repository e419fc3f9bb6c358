#!/bin/sh
# The device job (which runs beside the host pipeline): its errors are clang errors with the
# usual text, a failed compile leaves no temporary file and no ptxas process behind, and a
# successful one reports under verbose what the job did and leaves nothing behind either.
#   device_job.sh <clang> <plugin> <include dir> <source>
set -u
clang=$1 plugin=$2 include=$3 src=$4
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/pids"
fail() { echo "FAIL: $*"; cat "$work/err" 2>/dev/null; exit 1; }

# A ptxas that fails at once for sm_75 (the first) while the others still run (1 s): all
# must be waited for all the same.
cat > "$work/ptxas" <<'PTXAS'
#!/bin/sh
echo $$ > "$KP_TEST_PIDS/$$"
arch= out=
while [ $# -gt 0 ]; do
  case $1 in -arch=*) arch=${1#-arch=} ;; -o) shift; out=$1 ;; esac
  shift
done
if [ "$arch" = sm_75 ]; then echo "fake ptxas: no $arch today" >&2; exit 1; fi
sleep 1
printf 'cubin' > "$out"
PTXAS
chmod +x "$work/ptxas"

for opt in -O0 -O2; do
  rm -f "$work/t.o"
  if TMPDIR="$work/tmp" KP_TEST_PIDS="$work/pids" "$clang" -fplugin="$plugin" -I"$include" \
    $opt -c "$src" -o "$work/t.o" -fplugin-arg-kernplug-ptxas="$work/ptxas" \
    -fplugin-arg-kernplug-arch=sm_75,sm_80,sm_90 2> "$work/err"; then
    fail "$opt: compiled although ptxas failed"
  fi
  grep -q "error: kernplug: ptxas failed for sm_75 ($work/ptxas):" "$work/err" ||
    fail "$opt: no ptxas error"
  grep -q "fake ptxas: no sm_75 today" "$work/err" || fail "$opt: no ptxas log"
  [ "$(grep -c 'ptxas failed' "$work/err")" -eq 1 ] || fail "$opt: more than one ptxas error"
  [ -z "$(ls "$work/tmp")" ] || fail "$opt: temporary files left: $(ls "$work/tmp")"
  [ ! -e "$work/t.o" ] || fail "$opt: an object was written"
  [ "$(ls "$work/pids" | wc -l)" -eq 3 ] || fail "$opt: expected 3 ptxas runs"
  for pid in $(ls "$work/pids"); do
    ! kill -0 "$pid" 2> /dev/null || fail "$opt: ptxas $pid still running after clang exited"
  done
  rm -f "$work/pids"/*
done

# An error inside the job before ptxas: reported from the host's thread, nothing left.
echo "not bitcode" > "$work/bad.bc"
if TMPDIR="$work/tmp" "$clang" -fplugin="$plugin" -I"$include" -O2 -c "$src" -o "$work/t.o" \
  -fplugin-arg-kernplug-device-runtime="$work/bad.bc" 2> "$work/err"; then
  fail "compiled with a broken device runtime"
fi
grep -q "error: kernplug: cannot read the device runtime '$work/bad.bc'" "$work/err" ||
  fail "no device runtime error"
[ -z "$(ls "$work/tmp")" ] || fail "temporary files left: $(ls "$work/tmp")"

# Success, with the fake ptxas for sm_90 (it sleeps 1 s: the host pipeline waits for it).
if ! TMPDIR="$work/tmp" KP_TEST_PIDS="$work/pids" "$clang" -fplugin="$plugin" -I"$include" \
  -O2 -c "$src" -o "$work/t.o" -fplugin-arg-kernplug-ptxas="$work/ptxas" \
  -fplugin-arg-kernplug-verbose 2> "$work/err"; then
  fail "the compile with a working ptxas failed"
fi
grep -q "remark: kernplug: cubin for sm_90: 5 bytes (ptxas: [0-9]* ms of CPU)" "$work/err" ||
  fail "no cubin remark"
grep -q "remark: kernplug: device code: [0-9]* ms beside the host pipeline ([0-9]* ms of CPU on its thread, ptxas not counted); the host pipeline waited [0-9]* ms for it" "$work/err" ||
  fail "no device job remark"
grep -q "cubin" "$work/t.o" || fail "the fake cubin is not in the object"
[ -z "$(ls "$work/tmp")" ] || fail "temporary files left: $(ls "$work/tmp")"
echo "ok"
