# Memory checkers on kernels (docs/debugging.md): device arrays get the checker's exactly sized
# malloc under ASan and valgrind (runtime/backend/cpu/cpu_memory.c), so a kernel's y[n] is
# reported with the kernel and the array's origin, line 18 of memcheck_overrun_expect.c.
set(kp_overrun_origin "memcheck_overrun_expect.c:18")

kp_sanitizer_combines(address combines)
if(combines)
  kernplug_add_program(kt_memcheck_overrun_asan memcheck_overrun_expect.c)
  target_include_directories(kt_memcheck_overrun_asan PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(kt_memcheck_overrun_asan PRIVATE -g -fsanitize=address -fno-omit-frame-pointer)
  target_link_options(kt_memcheck_overrun_asan PRIVATE -fsanitize=address)
  kp_kernel_expect(memcheck_overrun.asan memcheck_overrun_asan EXPECT fail ENV KP_BACKEND=cpu
                   STDERR "AddressSanitizer: heap-buffer-overflow" "off_by_one.kp.cpu"
                          "0 bytes after 4000-byte region" "in main" "${kp_overrun_origin}"
                   LACKS "not detected")
endif()

# valgrind 3.19 (Debian 12) reads DWARF 4 only: the programs it checks are built with it, as
# the runtime is (runtime/CMakeLists.txt). Not in a sanitizer build (valgrind cannot run those).
find_program(KP_VALGRIND valgrind)
if(KP_VALGRIND AND NOT KP_SANITIZE)
  target_compile_options(kt_memcheck_overrun_expect PRIVATE -g -gdwarf-4)
  add_test(NAME kernel.memcheck_overrun.valgrind
           COMMAND ${CMAKE_COMMAND} "-DCMD=${KP_VALGRIND}"
                   "-DARGS=--error-exitcode=3|$<TARGET_FILE:kt_memcheck_overrun_expect>"
                   -DEXPECT=fail
                   "-DSTDERR_HAS=Invalid write of size 4@@off_by_one.kp.cpu@@0 bytes after a block of size 4,000 alloc'd@@: main (@@${kp_overrun_origin})"
                   "-DSTDERR_LACKS=not detected"
                   -P ${PROJECT_SOURCE_DIR}/tests/runtime/run_expect.cmake)
  set_tests_properties(kernel.memcheck_overrun.valgrind PROPERTIES LABELS cpu
                       ENVIRONMENT "KP_BACKEND=cpu" TIMEOUT 300)
  # Clean programs stay clean: block loops, barrier splits, fibers, warp functions, shared
  # memory and streams under memcheck, with no error (exit 3 on any).
  foreach(name barriers warp_intrinsics shared_dynamic streams structs)
    kernplug_add_program(kt_memcheck_clean_${name} ${name}.c)
    target_include_directories(kt_memcheck_clean_${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(kt_memcheck_clean_${name} PRIVATE m)
    target_compile_options(kt_memcheck_clean_${name} PRIVATE -g -gdwarf-4)
    add_test(NAME kernel.memcheck_clean.${name}
             COMMAND ${KP_VALGRIND} --error-exitcode=3 $<TARGET_FILE:kt_memcheck_clean_${name}>)
    set_tests_properties(kernel.memcheck_clean.${name} PROPERTIES LABELS cpu
                         ENVIRONMENT "KP_BACKEND=cpu" TIMEOUT 300)
  endforeach()
endif()
