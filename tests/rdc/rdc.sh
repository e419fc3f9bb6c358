#!/bin/sh
# Device code across files (docs/compiling.md, "Device code in several files"):
#   rdc.sh <mode> <kpcc> <clang> <plugin> <include dir> <runtime dir> <fake libcuda> <ptxas|"">
#          <nvcc|""> <src dir> <work dir>
# Modes:
#   cpu        kpcc -c app.c, kpcc -c physics.c, kpcc link; kpcc in one step; plain clang with
#              -fplugin for both files at once and a plain clang link: each runs on the CPU
#              backend and checks its results
#   fake       the program on the fake driver: app.c's module is linked with physics.c's PTX
#              through cuLinkCreate/cuLinkAddData/cuLinkComplete, also when physics.c is in a
#              shared library; a failing link's message
#   missing    physics.c built without the plugin: the host program links and runs on the CPU
#              (on one worker: its shared array is a plain one), but loading app.c's GPU code is an error naming the missing device function
#   nvlink     the two files' PTX assemble with ptxas -c and link with nvlink (no GPU needed);
#              app.c's alone does not, naming the functions it lacks
#   ptxlib     a kernel calling a CUDA C device function (culib.cu, nvcc -rdc -ptx), linked as
#              culib.ptx by kpcc: runs on the CPU (culib_host.c) and links on the fake driver
set -u
mode=$1 kpcc=$2 clang=$3 plugin=$4 include=$5 rtdir=$6 fake=$7 ptxas=$8 nvcc=$9
shift 9
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cpu() { KP_BACKEND=cpu "$@" || fail "$* on the CPU backend"; }
on_fake() { # <log> <program> [args]: runs it on the fake driver, logging to <log>
  log=$1; shift
  KP_BACKEND=cuda KP_LIBCUDA=$fake FAKE_CUDA_LOG=$PWD/$log "$@"
}
flags="-O2 -Wall -Wextra -Werror -I$src"

case $mode in
cpu)
  "$kpcc" $flags -c "$src/app.c" -o app.o || fail "kpcc -c app.c"
  "$kpcc" $flags -c "$src/physics.c" -o physics.o || fail "kpcc -c physics.c"
  "$kpcc" app.o physics.o -o app || fail "kpcc link"
  cpu ./app
  "$kpcc" $flags "$src/app.c" "$src/physics.c" -o app1 || fail "kpcc in one step"
  cpu ./app1
  mkdir plain && cd plain || exit 1
  "$clang" -fplugin="$plugin" -I"$include" $flags -c "$src/app.c" "$src/physics.c" ||
    fail "clang -fplugin -c app.c physics.c"
  "$clang" app.o physics.o -L"$rtdir" -lkernplug_rt -Wl,-rpath,"$rtdir" -lm -o app ||
    fail "plain clang link"
  cpu ./app
  ;;
fake)
  "$kpcc" $flags "$src/app.c" "$src/physics.c" -o app || fail "kpcc"
  on_fake link.log ./app launch-only || fail "app on the fake driver"
  for want in "cuLinkCreate" "cuLinkAddData ptx .*app.c" "cuLinkAddData ptx .*physics.c" \
              "cuLinkComplete" "cuLaunchKernel step" "cuLaunchKernel block_sums"; do
    grep -q "$want" link.log || { cat link.log; fail "no '$want' in the fake driver's log"; }
  done
  # The device functions in a shared library: its module registers when it is loaded.
  "$kpcc" $flags -fPIC -shared "$src/physics.c" -o libphysics.so || fail "kpcc -shared physics.c"
  "$kpcc" $flags "$src/app.c" -L. -lphysics -Wl,-rpath,"$PWD" -o app_so || fail "kpcc app.c -lphysics"
  KP_BACKEND=cpu ./app_so || fail "app_so on the CPU backend"
  on_fake so.log ./app_so launch-only || fail "app_so on the fake driver"
  grep -q "cuLinkAddData ptx .*physics.c" so.log || { cat so.log; fail "libphysics.so's PTX not linked"; }
  # A failing link is reported with the driver's log, naming the kernel and the files.
  FAKE_CUDA_FAIL=link on_fake fail.log ./app launch-only 2>err.txt && fail "the link did not fail"
  grep -q "launch(step, ...): linking the device code of .*app.c with that of .*physics.c" err.txt &&
    grep -q "cuLinkComplete returned" err.txt && grep -q "injected failure" err.txt ||
    { cat err.txt; fail "the link failure's message"; }
  ;;
missing)
  "$kpcc" $flags -c "$src/app.c" -o app.o || fail "kpcc -c app.c"
  # Without the plugin: host code only (clang warns that it ignores `device` and `shared`).
  "$clang" -I"$include" -O2 -I"$src" -w -c "$src/physics.c" -o physics.o || fail "clang -c"
  "$kpcc" app.o physics.o -o app || fail "kpcc link"
  # physics_block_sum's `shared` array is one plain C array without the plugin, not one per
  # block: its blocks are right only when they run one at a time (docs/compiling.md), so the
  # results are checked on one worker (with two, a spinning worker joins block_sums at times).
  KP_NUM_THREADS=1 cpu ./app
  on_fake missing.log ./app launch-only 2>err.txt && fail "loading app.c's GPU code did not fail"
  grep -q "launch(step, ...): the device code of .*app.c calls the device function 'physics_force', which no file linked into the program defines for the GPU: compile the file that defines it with kernplug" err.txt ||
    { cat err.txt; fail "the message about the missing device function"; }
  ;;
nvlink)
  [ -n "$ptxas" ] || { echo "SKIP: no ptxas"; exit 77; }
  nvlink=$(dirname "$ptxas")/nvlink
  [ -x "$nvlink" ] || { echo "SKIP: no nvlink beside $ptxas"; exit 77; }
  for f in app physics; do
    "$kpcc" $flags -fplugin-arg-kernplug-save-temps -c "$src/$f.c" -o $f.o || fail "kpcc -c $f.c"
    grep -q "^.extern .func" $f.o.kp.ptx && [ $f = physics ] && fail "physics.c's PTX imports"
    "$ptxas" -arch=sm_90 -c $f.o.kp.ptx -o $f.cubin || fail "ptxas -c $f.o.kp.ptx"
  done
  grep -q "^.extern .func .*physics_force" app.o.kp.ptx || fail "app.c's PTX does not import"
  grep -q "^.visible .func .*physics_force" physics.o.kp.ptx || fail "physics.c's PTX does not export"
  grep -q "^.visible .func .*square" physics.o.kp.ptx && fail "a static device function is exported"
  "$nvlink" -arch=sm_90 app.cubin physics.cubin -o linked.cubin || fail "nvlink"
  "$nvlink" -arch=sm_90 app.cubin -o alone.cubin 2>err.txt && fail "nvlink of app.c alone"
  grep -q "Undefined reference to 'physics_force'" err.txt || { cat err.txt; fail "nvlink's error"; }
  # The embedded cubins of app.o are relocatable (ptxas -c), physics.o's are not.
  ;;
ptxlib)
  ptx=$src/culib.ptx
  if [ -n "$nvcc" ]; then # the PTX of the toolkit here; the checked-in copy otherwise
    "$nvcc" -rdc=true -ptx -arch=sm_75 "$src/culib.cu" -o culib.ptx || fail "nvcc -ptx"
    ptx=$PWD/culib.ptx
  fi
  "$kpcc" $flags "$src/ptx_app.c" "$src/culib_host.c" "$ptx" -o app || fail "kpcc with a .ptx"
  cpu ./app
  on_fake ptx.log ./app launch-only || fail "on the fake driver"
  grep -q "cuLinkAddData ptx culib.ptx" ptx.log || { cat ptx.log; fail "culib.ptx not linked"; }
  # kpcc -c lib.ptx makes lib.o, which any linker takes.
  "$kpcc" -c "$ptx" || fail "kpcc -c culib.ptx"
  [ -f culib.o ] || fail "kpcc -c culib.ptx made no culib.o"
  "$kpcc" $flags -c "$src/ptx_app.c" "$src/culib_host.c" || fail "kpcc -c"
  "$clang" ptx_app.o culib_host.o culib.o -L"$rtdir" -lkernplug_rt -Wl,-rpath,"$rtdir" -o app2 ||
    fail "plain clang link with culib.o"
  on_fake ptx2.log ./app2 launch-only || fail "app2 on the fake driver"
  grep -q "cuLinkAddData ptx culib.ptx" ptx2.log || fail "culib.o's PTX not linked"
  "$kpcc" ptx_app.o culib_host.o no_such.ptx -o app3 2>err.txt && fail "a missing .ptx"
  grep -q "no_such.ptx: no such PTX file" err.txt || { cat err.txt; fail "missing .ptx message"; }
  ;;
*) fail "unknown mode $mode" ;;
esac
echo "ok: $mode"
