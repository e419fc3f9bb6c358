#!/bin/sh
# gcc -fplugin=kernplug_gcc.so: objects that link and run right in every shape.
#   link_shapes.sh <mode> <gcc> <plugin> <kpcc> <include> <runtime dir> <src dir> [ptxas]
# mode run <gcc flags…>: shapes_part.c twice (-DSCALE=2, -DSCALE=3) into one -fPIC shared
#   library, shapes_kpcc.c by kpcc, shapes_main.c with the flags; the program must pass on
#   the CPU backend; the library must export only run_part2/run_part3.
# mode reproducible: two compiles of shapes_main.c are byte-identical; another -D or -o
#   gives another per-file name to its static kernel.
# mode ptx: the PTX in a GCC-built object has the kernel's launch_bounds and the `constant`
#   variables, and assembles with ptxas for sm_75 and sm_90 (when ptxas is given).
# mode dwarf: a -g object has GCC's compile unit and clang's, whose line table has the
#   kernels' lines, and one description of each `constant` variable; with -gas-loc-support it still assembles (clang's half without DWARF).
set -eu
mode=$1 gcc=$2 plugin=$3 kpcc=$4 include=$5 rtdir=$6 src=$7
shift 7
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cc="$gcc -fplugin=$plugin -I$include -Wall -Wextra -Werror"
case $mode in
run)
  $cc -O2 -fPIC -DSCALE=2 -c "$src/shapes_part.c" -o part2.o
  $cc -O2 -fPIC -DSCALE=3 -c "$src/shapes_part.c" -o part3.o
  "$gcc" -shared part2.o part3.o -o libparts.so -L"$rtdir" -lkernplug_rt
  exported=$(nm -D --defined-only libparts.so | awk '{print $3}' | grep -v '^_' | sort | tr '\n' ' ')
  if [ "$exported" != "run_part2 run_part3 " ]; then
    echo "FAIL: libparts.so exports '$exported', want 'run_part2 run_part3 '"; exit 1
  fi
  if nm -D libparts.so | grep -q '__kp\.'; then
    echo "FAIL: libparts.so exports per-file kernel names:"; nm -D libparts.so; exit 1
  fi
  "$kpcc" -O2 -c "$src/shapes_kpcc.c" -o kpcc.o
  $cc "$@" -c "$src/shapes_main.c" -o main.o
  "$gcc" "$@" main.o kpcc.o -o shapes -L. -lparts -L"$rtdir" -lkernplug_rt \
    -Wl,-rpath,"$work" -Wl,-rpath,"$rtdir"
  KP_BACKEND=cpu ./shapes
  ;;
reproducible)
  # The same command twice (-o is part of the per-file name, and -g records the directory).
  $cc -O2 -g -c "$src/shapes_main.c" -o m.o && mv m.o first.o
  $cc -O2 -g -c "$src/shapes_main.c" -o m.o
  cmp first.o m.o || { echo "FAIL: two compiles differ"; exit 1; }
  $cc -O2 -g -DOTHER -c "$src/shapes_main.c" -o m.o && mv m.o other.o
  names=$(nm first.o | grep ' T __kp\.' | sort) other=$(nm other.o | grep ' T __kp\.' | sort)
  if [ -z "$names" ] || [ "$names" = "$other" ]; then
    echo "FAIL: -DOTHER kept the per-file names"; nm first.o other.o | grep __kp; exit 1
  fi
  echo "PASS: byte-identical objects; another -D gives other per-file names"
  ;;
ptx)
  ptxas=${1:-}
  $cc -O2 -c "$src/shapes_main.c" -o main.o
  objcopy -O binary --only-section=.kp_ptx main.o main.raw.ptx
  tr -d '\000' <main.raw.ptx >main.ptx
  grep -q '.entry k_extern' main.ptx || { echo "FAIL: no k_extern entry in .kp_ptx"; exit 1; }
  # k_extern's launch_bounds(64), read by clang's half from the same source (LLVM 22 writes
  # .maxntid 64, 19 .maxntid 64, 1, 1).
  awk '/\.entry k_extern/ {on = 1} on && /^\.maxntid 64(, 1, 1)?$/ {found = 1} on && /^{/ {on = 0}
       END {exit !found}' main.ptx || { echo "FAIL: no .maxntid 64 on k_extern"; exit 1; }
  # The `constant` variables, GCC's on the host, are .const globals with their initial value.
  grep -q '^\.visible \.const .* offsets_c\[16\];' main.ptx &&
    grep -q '^\.visible \.const \.align 4 \.f32 one = 0f3F800000;' main.ptx ||
    { echo "FAIL: the constant variables are not .const globals:"; grep const main.ptx; exit 1; }
  [ -n "$ptxas" ] || { echo "PASS: .maxntid, .const variables (no ptxas)"; exit 0; }
  for arch in sm_75 sm_90; do
    "$ptxas" -arch=$arch main.ptx -o main.$arch.cubin
  done
  echo "PASS: .maxntid, .const variables; ptxas sm_75 and sm_90"
  ;;
dwarf)
  $cc -O0 -g -c "$src/shapes_main.c" -o m.o
  units=$(readelf --debug-dump=info m.o 2>/dev/null | grep -c 'Compilation Unit @')
  [ "$units" = 2 ] || { echo "FAIL: $units compile units in a -g object, want 2"; exit 1; }
  readelf --debug-dump=info m.o 2>/dev/null | grep -q 'DW_AT_name.*: k_extern$' ||
    { echo "FAIL: no DWARF for the kernel k_extern"; exit 1; }
  # shapes_main.c:29 is in k_extern's body, which only clang's half compiles.
  readelf --debug-dump=decodedline m.o 2>/dev/null | grep -q 'shapes_main\.c  *29  ' ||
    { echo "FAIL: no line 29 (k_extern's body) in the line tables"; exit 1; }
  # A `constant` variable is GCC's: one description, in GCC's unit, with a location.
  for v in offsets_c one; do
    n=$(readelf --debug-dump=info m.o 2>/dev/null | grep -c "DW_AT_name.*: $v\$")
    [ "$n" = 1 ] || { echo "FAIL: $n descriptions of the constant variable $v, want 1"; exit 1; }
  done
  $cc -O0 -g -gas-loc-support -c "$src/shapes_main.c" -o l.o
  units=$(readelf --debug-dump=info l.o 2>/dev/null | grep -c 'Compilation Unit @')
  [ "$units" = 1 ] || { echo "FAIL: $units compile units with -gas-loc-support, want 1"; exit 1; }
  echo "PASS: two compile units, the kernel's lines; -gas-loc-support: GCC's unit only"
  ;;
*)
  echo "unknown mode $mode"; exit 2
  ;;
esac
