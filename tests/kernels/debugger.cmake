# gdb on kernels (docs/debugging.md): debugger_expect.c built -g -O0, gdb in batch mode with
# share/kernplug-gdb.py, one script of tests/kernels/gdb/ per test; the output must show the
# stop inside the kernel with the right indices and locals. Needs gdb (scripts/install-deps.sh)
# and ptrace; not in a sanitizer build. Each test runs again on the gcc twin (<name>.gcc).
find_program(KP_GDB gdb)
if(NOT KP_GDB OR KP_SANITIZE)
  return()
endif()
kernplug_add_program(kt_debugger debugger_expect.c)
kernplug_add_program(kt_debugger_O2 debugger_expect.c)
foreach(t kt_debugger kt_debugger_O2)
  target_include_directories(${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
endforeach()
target_compile_options(kt_debugger PRIVATE -g -O0)
target_compile_options(kt_debugger_O2 PRIVATE -g -O2)

# kp_gdb_test(<name> <program> <script> <text>...): each text must be in gdb's output.
function(kp_gdb_test name program script)
  string(REPLACE ";" "@@" wanted "${ARGN}")
  add_test(NAME debug.gdb.${name}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${KP_GDB}"
                   "-DARGS=-batch|-nx|-ex|source ${PROJECT_SOURCE_DIR}/share/kernplug-gdb.py|-x|${CMAKE_CURRENT_SOURCE_DIR}/gdb/${script}|$<TARGET_FILE:${program}>"
                   -DEXPECT=success "-DSTDOUT_HAS=${wanted}"
                   -P ${PROJECT_SOURCE_DIR}/tests/runtime/run_expect.cmake)
  set_tests_properties(debug.gdb.${name} PROPERTIES LABELS cpu TIMEOUT 120
                       ENVIRONMENT "KP_BACKEND=cpu;KP_NUM_THREADS=1")
  kernplug_gcc_twin(${program} gcc_exe) # the same session on the gcc-built program
  # Kernel DWARF in GCC-built objects needs LLVM 19 (split/AsmLineTable.cpp).
  if(gcc_exe AND LLVM_VERSION_MAJOR LESS 20)
    add_test(NAME debug.gdb.${name}.gcc
             COMMAND ${CMAKE_COMMAND} "-DCMD=${KP_GDB}"
                     "-DARGS=-batch|-nx|-ex|source ${PROJECT_SOURCE_DIR}/share/kernplug-gdb.py|-x|${CMAKE_CURRENT_SOURCE_DIR}/gdb/${script}|${gcc_exe}"
                     -DEXPECT=success "-DSTDOUT_HAS=${wanted}"
                     -P ${PROJECT_SOURCE_DIR}/tests/runtime/run_expect.cmake)
    set_tests_properties(debug.gdb.${name}.gcc PROPERTIES LABELS cpu TIMEOUT 120
                         ENVIRONMENT "KP_BACKEND=cpu;KP_NUM_THREADS=1")
  endif()
endfunction()

kp_gdb_test(block_loop kt_debugger block_loop.gdb
            "scale (x=" "at ${CMAKE_CURRENT_SOURCE_DIR}/debugger_expect.c:14"
            "kernel scale: block (2, 0, 0) of (4, 1, 1), thread (7, 0, 0) of (256, 1, 1)"
            "$1 = 519" "$2 = 519" "scale.kp.cpu_block ()")
kp_gdb_test(device_function kt_debugger device_function.gdb
            "twice (v=300) at" "in scale (x=" "$1 = 600" "Value returned is $2 = 600")
# -O0 -g runs kernels with barriers on fibers (CpuEntryPolicy.cpp): every local is there.
kp_gdb_test(barrier kt_debugger barrier.gdb
            "kernel reverse: block (1, 0, 0) of (2, 1, 1), thread (5, 0, 0) of (64, 1, 1)"
            "$1 = 5" "$2 = 244")
# The stop is reported at line 14 (clang 19) or 15 (clang 22's -O2 line table).
kp_gdb_test(optimised kt_debugger_O2 optimised.gdb
            "Breakpoint 1, scale (" "debugger_expect.c:1"
            "kernel scale: block (0, 0, 0) of (4, 1, 1), thread ")
