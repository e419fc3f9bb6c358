# kpcc, the compiler driver: generated from kpcc.in twice, once for the build tree
# (build/bin/kpcc, finding the plugin in build/lib and the header in the source tree) and once
# for installation (<prefix>/bin/kpcc, finding <prefix>/lib and <prefix>/include). Both find
# their paths relative to their own location, so a relocated prefix keeps working.
#
# Included from plugin/CMakeLists.txt. Needs nothing from the plugin target itself: the plugin
# file name is fixed by the top-level KP_PLUGIN_PATH.
include_guard(GLOBAL)

get_filename_component(KPCC_PLUGIN_NAME "${KP_PLUGIN_PATH}" NAME)
get_filename_component(KPCC_DEVICE_BC_NAME "${KP_DEVICE_BC}" NAME)
list(TRANSFORM KP_NVPTX_ARCHS PREPEND sm_ OUTPUT_VARIABLE KPCC_ARCHS)
string(REPLACE ";" " " KPCC_ARCHS "${KPCC_ARCHS}")
set(KPCC_CUDA_ROOT "")
if(CUDAToolkit_FOUND)
  get_filename_component(KPCC_CUDA_ROOT "${CUDAToolkit_BIN_DIR}" DIRECTORY)
endif()

# kpcc_generate(<output> <layout> <bindir> <libdir> <includedir>): directories absolute.
function(kpcc_generate output layout bindir libdir includedir)
  set(KPCC_LAYOUT ${layout})
  file(RELATIVE_PATH KPCC_REL_LIBDIR "${bindir}" "${libdir}")
  file(RELATIVE_PATH KPCC_REL_INCLUDEDIR "${bindir}" "${includedir}")
  foreach(var KPCC_REL_LIBDIR KPCC_REL_INCLUDEDIR)
    if("${${var}}" STREQUAL "")
      set(${var} .)
    endif()
  endforeach()
  # The device code's identity goes in at build time, once the device runtime is built
  # (cmake/KpccDeviceCodeId.cmake); configure time fills in everything else.
  set(KPCC_DEVICE_CODE_ID KPCC-DEVICE-CODE-ID-PLACEHOLDER)
  get_filename_component(name ${output} NAME)
  set(configured ${CMAKE_CURRENT_BINARY_DIR}/${name}.configured)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/kpcc.in ${configured} @ONLY)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DIN=${configured} -DOUT=${output} -DID_FILE=${KP_DEVICE_CODE_ID_FILE}
            -P ${PROJECT_SOURCE_DIR}/cmake/KpccDeviceCodeId.cmake
    DEPENDS ${configured} ${KP_DEVICE_CODE_ID_FILE} ${PROJECT_SOURCE_DIR}/cmake/KpccDeviceCodeId.cmake
    COMMENT "Generating ${name} with the device code's identity"
    VERBATIM)
  add_custom_target(kpcc-${layout} ALL DEPENDS ${output})
endfunction()

# Build tree.
set(KPCC_BUILD_TREE ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/kpcc)
kpcc_generate(${KPCC_BUILD_TREE} build-tree ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}
              ${CMAKE_LIBRARY_OUTPUT_DIRECTORY} ${PROJECT_SOURCE_DIR}/include)

# Installed: the GNUInstallDirs directories, relative to a prefix that only has to exist
# at install time.
set(kpcc_fake_prefix /kpcc-prefix)
kp_install_paths(kpcc ${kpcc_fake_prefix})
set(KPCC_INSTALLED ${CMAKE_CURRENT_BINARY_DIR}/kpcc.installed)
kpcc_generate(${KPCC_INSTALLED} installed ${kpcc_BINDIR} ${kpcc_LIBDIR} ${kpcc_INCLUDEDIR})
install(PROGRAMS ${KPCC_INSTALLED} DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME kpcc)

# Tests (label compile): --version and --help say what kpcc uses, --show adds the runtime
# only when linking, and the installed kpcc finds the installed files.
if(BUILD_TESTING)
  set(kpcc_expect sh ${PROJECT_SOURCE_DIR}/scripts/expect-output.sh)
  add_test(NAME kpcc.version COMMAND ${kpcc_expect}
    "^kpcc \\(kernplug\\) ${PROJECT_VERSION}$"
    "^clang: +.*clang.*version ${LLVM_VERSION_MAJOR}\\."
    "^plugin: +${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/${KPCC_PLUGIN_NAME}"
    "^include: +${PROJECT_SOURCE_DIR}/include/kernplug.h$"
    "^device bc: +${KP_DEVICE_BC}"
    "^CUDA: " "^libdevice: " "^ptxas: "
    -- ${KPCC_BUILD_TREE} --version)
  # A kpcc whose configured clang is gone (a prefix copied to another machine) finds clang
  # <major> itself; the plugin line says which clang it is for.
  add_test(NAME kpcc.find_clang COMMAND ${kpcc_expect}
    "^clang: +[^ ]*clang(-${LLVM_VERSION_MAJOR})? \\(.*clang version ${LLVM_VERSION_MAJOR}\\."
    "^plugin: +.*\\(for clang ${LLVM_VERSION_MAJOR}\\)$"
    -- sh -c "sed \"s|^KPCC_CLANG_CONFIGURED=.*|KPCC_CLANG_CONFIGURED=/nonexistent/clang|\" '${KPCC_BUILD_TREE}' >kpcc-moved && sh kpcc-moved --version"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  add_test(NAME kpcc.help COMMAND ${kpcc_expect}
    "^Usage: kpcc "
    "-fplugin=${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/${KPCC_PLUGIN_NAME}"
    "-lkernplug_rt"
    "-fplugin-arg-kernplug-<name>=<value>"
    "arch=sm_80,sm_90" "ptx-arch=sm_75" "save-temps" "verbose" "device-opt=0\\.\\.3" "libdevice=<path>"
    -- ${KPCC_BUILD_TREE} --help)
  add_test(NAME kpcc.show_compile COMMAND ${kpcc_expect}
    "-fplugin=.*${KPCC_PLUGIN_NAME} -I.*/include -O2 -c a b\\.c -o a b\\.o$"
    "!-lkernplug_rt"
    -- ${KPCC_BUILD_TREE} --show -O2 -c "a b.c" -o "a b.o")
  # An object may come from g++ or clang++: the C++ runtime follows, as-needed (the plugin's
  # own build needs libstdc++, so clang finds it here); a link of C sources alone does not.
  add_test(NAME kpcc.show_link COMMAND ${kpcc_expect}
    " app\\.o -o app -lm -L${CMAKE_LIBRARY_OUTPUT_DIRECTORY} -lkernplug_rt -Wl,-rpath,${CMAKE_LIBRARY_OUTPUT_DIRECTORY} -Wl,--push-state,--as-needed -lstdc\\+\\+ -lm -Wl,--pop-state$"
    -- ${KPCC_BUILD_TREE} app.o -o app -lm --show)
  add_test(NAME kpcc.show_link_c COMMAND ${kpcc_expect}
    " app\\.c -o app -L${CMAKE_LIBRARY_OUTPUT_DIRECTORY} -lkernplug_rt -Wl,-rpath,${CMAKE_LIBRARY_OUTPUT_DIRECTORY}$"
    "!-lstdc"
    -- ${KPCC_BUILD_TREE} app.c -o app --show)
  # -fveclib=libmvec (the user's opt-in to glibc's vector math): libmvec when linking only.
  # Without AVX2 kpcc warns: clang 19 may call libmvec's AVX2 functions from SSE2 code.
  add_test(NAME kpcc.show_libmvec COMMAND ${kpcc_expect}
    " -fveclib=libmvec app\\.c -o app -L${CMAKE_LIBRARY_OUTPUT_DIRECTORY} -lkernplug_rt -Wl,-rpath,${CMAKE_LIBRARY_OUTPUT_DIRECTORY} -lmvec -lm$"
    "!warning"
    -- ${KPCC_BUILD_TREE} -O2 -mavx2 -fno-math-errno -fveclib=libmvec app.c -o app --show)
  add_test(NAME kpcc.show_libmvec_compile COMMAND ${kpcc_expect}
    " -fveclib=libmvec -c app\\.c$" "!-lmvec"
    "^kpcc: warning: -fveclib=libmvec without -mavx2 or an -march= that has AVX2"
    -- ${KPCC_BUILD_TREE} -O2 -fveclib=libmvec -c app.c --show)
  add_test(NAME kpcc.installed
    COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/check-kpcc-install.sh
            ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/kpcc-install-test)
  # The build-tree kpcc compiles a kernel: the plugin loads, and the object carries its PTX.
  set(kpcc_work ${CMAKE_CURRENT_BINARY_DIR}/kpcc-test)
  file(WRITE ${kpcc_work}/twice.c
    "#include <kernplug.h>\n"
    "__attribute__((kernel)) void twice(float *x, int n) {\n"
    "  int i = grid(1);\n"
    "  if (i < n) x[i] *= 2.0f;\n"
    "}\n")
  add_test(NAME kpcc.compile_kernel COMMAND ${kpcc_expect}
    "^\\.visible \\.entry twice\\("
    -- sh -c "'${KPCC_BUILD_TREE}' -O2 -Wall -Wextra -Werror -c twice.c -o twice.o && strings twice.o"
    WORKING_DIRECTORY ${kpcc_work})
  set_tests_properties(kpcc.version kpcc.find_clang kpcc.help kpcc.show_compile kpcc.show_link kpcc.show_link_c
                       kpcc.show_libmvec kpcc.show_libmvec_compile kpcc.compile_kernel
                       kpcc.installed PROPERTIES LABELS compile)
  # The install test builds nothing but installs the whole project: keep it alone.
  set_tests_properties(kpcc.installed PROPERTIES RUN_SERIAL TRUE SKIP_RETURN_CODE 77)
endif()
