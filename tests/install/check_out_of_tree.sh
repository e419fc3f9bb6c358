#!/bin/sh
# check_out_of_tree.sh — builds examples/out_of_tree against an installed kernplug and runs it.
#
#   check_out_of_tree.sh CMAKE BUILD_DIR WORK_DIR EXAMPLE_DIR GENERATOR MAKE_PROGRAM CC LIBDIR
#                        INCLUDE_DIR
#
# 1. cmake --install BUILD_DIR into WORK_DIR/staged, then moves it to WORK_DIR/prefix: every
#    step below uses the moved prefix, so a path of the install time left anywhere fails.
#    Every header of INCLUDE_DIR (the source tree's include/: kernplug.h, kernplug/*.h,
#    kernplug/detail/*.h) must be installed, unchanged, under prefix/include.
# 2. CMake: configures EXAMPLE_DIR with CMAKE_PREFIX_PATH=prefix (find_package(kernplug)),
#    checks that the package, the plugin and the runtime come from the prefix, builds, runs
#    saxpy with KP_BACKEND=cpu.
# 3. make: the example's Makefile with PKG_CONFIG_PATH=prefix/LIBDIR/pkgconfig builds saxpy
#    (pkg-config flags) and saxpy_kpcc (prefix/bin/kpcc) and runs both. Without pkg-config,
#    only prefix/bin/kpcc is checked (scripts/install-deps.sh installs pkg-config).
# 4. With gcc on PATH: when the prefix has the GCC plugin for that gcc (kernplug_gcc.so), the
#    example builds with gcc through it (find_package and pkg-config's gcc_plugin) and runs;
#    otherwise configuring the example with gcc fails with kernplug's message.
set -eu
cmake=$1 build=$2 work=$3 example=$4 generator=$5 make_program=$6 cc=$7 libdir=$8 include=$9

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
run_saxpy() { # the program prints "... OK" and exits 0 on the CPU backend
  out=$(KP_BACKEND=cpu "$1") || fail "$1 exited $?: $out"
  printf '%s\n' "$out"
  case $out in *"cpu backend"*", OK") ;; *) fail "$1: unexpected output" ;; esac
}
uses_prefix() { # the shared object $2 that program $1 loads is the prefix's
  ldd "$1" | grep "$2" | grep -q "=> $prefix/" || fail "$1 does not load $2 from $prefix: $(ldd "$1" | grep "$2")"
}

case $libdir in /*) echo "CMAKE_INSTALL_LIBDIR is absolute ($libdir): skipped"; exit 77 ;; esac
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

step "install $build, then move the prefix"
"$cmake" --install "$build" --prefix "$work/staged" >"$work/install.log" ||
  { cat "$work/install.log"; fail "cmake --install"; }
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
for f in bin/kpcc include/kernplug.h "$libdir/kernplug.so" "$libdir/kernplug-device.bc" \
         "$libdir/kernplug-reduce.bc" "$libdir/libkernplug_rt.so" \
         "$libdir/cmake/kernplug/kernplugConfig.cmake" "$libdir/pkgconfig/kernplug.pc"; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
headers=$(cd "$include" && find . -name '*.h' | sort)
[ -n "$headers" ] || fail "no headers in $include"
for h in $headers; do
  cmp -s "$include/$h" "$prefix/include/$h" || fail "header not installed as it is: include/${h#./}"
done
echo "headers installed: $(echo "$headers" | tr "\n" " ")"
echo "installed into $prefix (moved from $work/staged)"

step "CMake: find_package(kernplug) with CMAKE_PREFIX_PATH=$prefix"
"$cmake" -S "$example" -B "$work/cmake" -G "$generator" -DCMAKE_MAKE_PROGRAM="$make_program" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
grep -qx "kernplug_DIR:PATH=$prefix/$libdir/cmake/kernplug" "$work/cmake/CMakeCache.txt" ||
  fail "find_package(kernplug) did not find $prefix: $(grep kernplug_DIR "$work/cmake/CMakeCache.txt")"
"$cmake" --build "$work/cmake"
grep -q -- "-fplugin=$prefix/$libdir/kernplug.so" "$work/cmake/compile_commands.json" ||
  fail "saxpy.c is not compiled with the installed plugin: $(cat "$work/cmake/compile_commands.json")"
grep -q -- "-fplugin-arg-kernplug-arch=sm_75,sm_90" "$work/cmake/compile_commands.json" ||
  fail "PLUGIN_ARGS did not reach the compile command"
uses_prefix "$work/cmake/saxpy" libkernplug_rt
run_saxpy "$work/cmake/saxpy"

if command -v pkg-config >/dev/null 2>&1; then
  step "make: pkg-config and kpcc with make PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig"
  # As the Makefile's comment says to run it: the path on make's command line, not in the
  # environment (where an outer PKG_CONFIG_PATH must not help it).
  pcdir=$prefix/$libdir/pkgconfig
  PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs kernplug
  plugin=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=plugin kernplug)
  [ -f "$plugin" ] || fail "pkg-config's plugin is not a file: $plugin"
  # kernplug.pc names the clang the plugin loads into: clang_major and that clang's path.
  pc_clang=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=clang kernplug)
  pc_major=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=clang_major kernplug)
  "$pc_clang" --version | grep -q "clang version $pc_major\." ||
    fail "pkg-config's clang ($pc_clang) is not clang $pc_major"
  mkdir -p "$work/make"
  env -u PKG_CONFIG_PATH make -C "$work/make" -f "$example/Makefile" CC="$cc" \
    PKG_CONFIG_PATH="$pcdir" || fail "make PKG_CONFIG_PATH=$pcdir"
  for p in saxpy saxpy_kpcc; do
    uses_prefix "$work/make/$p" libkernplug_rt
    run_saxpy "$work/make/$p"
  done
  # And from the environment, as pkg-config users also do.
  mkdir -p "$work/make-env"
  PKG_CONFIG_PATH=$pcdir make -C "$work/make-env" -f "$example/Makefile" CC="$cc" saxpy ||
    fail "PKG_CONFIG_PATH=$pcdir make"
  run_saxpy "$work/make-env/saxpy"
else
  step "no pkg-config: the Makefile is not checked; kpcc from $prefix/bin"
  mkdir -p "$work/kpcc"
  "$prefix/bin/kpcc" -O2 -Wall -Wextra "$example/saxpy.c" -lm -o "$work/kpcc/saxpy_kpcc"
  uses_prefix "$work/kpcc/saxpy_kpcc" libkernplug_rt
  run_saxpy "$work/kpcc/saxpy_kpcc"
fi

gcc_major=$(gcc -dumpversion 2>/dev/null | cut -d. -f1 || true)
if command -v gcc >/dev/null 2>&1 && [ -e "$prefix/$libdir/kernplug_gcc.so" ] &&
   grep -q "KERNPLUG_GCC_VERSION_MAJOR \"$gcc_major\"" "$prefix/$libdir/cmake/kernplug/kernplugConfig.cmake"; then
  step "CMake with gcc: kernplug_compile_with_plugin uses kernplug_gcc.so"
  "$cmake" -S "$example" -B "$work/gcc" -G "$generator" -DCMAKE_MAKE_PROGRAM="$make_program" \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  "$cmake" --build "$work/gcc"
  grep -q -- "-fplugin=$prefix/$libdir/kernplug_gcc.so" "$work/gcc/compile_commands.json" ||
    fail "saxpy.c is not compiled with the installed GCC plugin: $(cat "$work/gcc/compile_commands.json")"
  grep -q -- "-fplugin-arg-kernplug_gcc-kp-arch=sm_75,sm_90" "$work/gcc/compile_commands.json" ||
    fail "PLUGIN_ARGS did not reach the gcc compile command"
  uses_prefix "$work/gcc/saxpy" libkernplug_rt
  run_saxpy "$work/gcc/saxpy"
  if command -v pkg-config >/dev/null 2>&1; then
    step "gcc with pkg-config's gcc_plugin"
    pcdir=$prefix/$libdir/pkgconfig
    gcc_plugin=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=gcc_plugin kernplug)
    [ "$gcc_plugin" -ef "$prefix/$libdir/kernplug_gcc.so" ] || fail "pkg-config's gcc_plugin: $gcc_plugin"
    mkdir -p "$work/gcc-make"
    gcc -O2 -Wall -Wextra -fplugin="$gcc_plugin" -I"$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=includedir kernplug)" \
      -c "$example/saxpy.c" -o "$work/gcc-make/saxpy.o"
    gcc "$work/gcc-make/saxpy.o" $(PKG_CONFIG_PATH=$pcdir pkg-config --libs kernplug) -lm -o "$work/gcc-make/saxpy"
    run_saxpy "$work/gcc-make/saxpy"
  fi
elif command -v gcc >/dev/null 2>&1; then
  step "CMake with gcc: kernplug_compile_with_plugin refuses it"
  if "$cmake" -S "$example" -B "$work/gcc" -G "$generator" -DCMAKE_MAKE_PROGRAM="$make_program" \
       -DCMAKE_C_COMPILER=gcc -DCMAKE_PREFIX_PATH="$prefix" >"$work/gcc.log" 2>&1; then
    fail "configuring with gcc succeeded"
  fi
  grep -q "loads only" "$work/gcc.log" || { cat "$work/gcc.log"; fail "no kernplug message for gcc"; }
  grep -A3 "CMake Error" "$work/gcc.log"
fi
step "out-of-tree example OK"
