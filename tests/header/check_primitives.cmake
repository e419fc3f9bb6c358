# check_primitives.cmake — the kp_dev_* primitives agree in abi/primitives.def, the header and
# the device runtime:
#   1. every row is declared by kernplug.h, convergent exactly when its Convergent column is 1
#      and const (memory(none) in the IR) exactly when its Const column is 1;
#   2. every kp_dev_* name the header uses is a row;
#   3. every row is defined once in runtime/device/, convergent exactly when the table says,
#      by the definition itself (the header's attribute is switched off for this part).
# The table is read through its X-macro and the attributes from the IR clang makes, so the
# check sees what the compiler sees, not a spelling.
#
#   cmake -DCC=<clang> -DSOURCE_DIR=<repo> -DWORK=<dir> -P check_primitives.cmake

cmake_minimum_required(VERSION 3.20)
set(include ${SOURCE_DIR}/include)
file(MAKE_DIRECTORY ${WORK})
set(failures "")
macro(fail msg)
  string(APPEND failures "  ${msg}\n")
endmacro()

function(run_cc out_var)
  execute_process(COMMAND ${CC} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CC} ${ARGN}\nfailed (${rc}):\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# The attribute groups of an IR module: attrs_<n> = the text between the braces.
macro(read_attribute_groups ir)
  string(REGEX MATCHALL "\nattributes #[0-9]+ = { [^\n]*" groups "${ir}")
  foreach(g IN LISTS groups)
    string(REGEX MATCH "#([0-9]+) = { (.*)" _ "${g}")
    set(attrs_${CMAKE_MATCH_1} " ${CMAKE_MATCH_2}")
  endforeach()
endmacro()

# kind: declare or define. Sets found, convergent, readnone for @kp_dev_<name>.
macro(primitive_attributes ir kind name)
  set(found 0)
  set(convergent 0)
  set(readnone 0)
  string(REGEX MATCH "\n${kind} [^\n]*@kp_dev_${name}\\([^\n]*" line "${ir}")
  if(line)
    set(found 1)
    if(line MATCHES "\\) #([0-9]+)")
      set(a "${attrs_${CMAKE_MATCH_1}}")
      if(a MATCHES " convergent ")
        set(convergent 1)
      endif()
      if(a MATCHES " memory\\(none\\) ")
        set(readnone 1)
      endif()
    endif()
  endif()
endmacro()

# The table: "KP_ROW <name> <convergent> <const>" per row.
file(WRITE ${WORK}/rows.c
  "#define KP_PRIMITIVE(Name, Class, Slot, Convergent, Const) KP_ROW Name Convergent Const\n"
  "#include \"abi/primitives.def\"\n")
run_cc(rows_text -E -P -I${SOURCE_DIR} ${WORK}/rows.c)
string(REGEX MATCHALL "KP_ROW [a-z0-9_]+ [01] [01]" rows "${rows_text}")
list(LENGTH rows nrows)
if(nrows LESS 20)
  message(FATAL_ERROR "abi/primitives.def gave ${nrows} rows (expected KP_PRIMITIVE(Name, Class, "
                      "Slot, Convergent, Const) with 0/1 in the last two):\n${rows_text}")
endif()

# 1. The header's declarations, as IR: a table of every primitive's address.
file(WRITE ${WORK}/uses.c
  "#include \"kernplug.h\"\n"
  "#define KP_PRIMITIVE(Name, Class, Slot, Convergent, Const) (const void *)&kp_dev_##Name,\n"
  "const void *const kp_primitive_addresses[] = {\n"
  "#include \"abi/primitives.def\"\n"
  "};\n")
execute_process(COMMAND ${CC} -std=c17 -O0 -S -emit-llvm -I${include} -I${SOURCE_DIR}
                        ${WORK}/uses.c -o -
                RESULT_VARIABLE rc OUTPUT_VARIABLE header_ir ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a primitive of abi/primitives.def is not declared by kernplug.h:\n${err}")
endif()
read_attribute_groups("${header_ir}")
set(table_names "")
foreach(row IN LISTS rows)
  string(REPLACE " " ";" f "${row}")
  list(GET f 1 name)
  list(GET f 2 want_convergent)
  list(GET f 3 want_const)
  list(APPEND table_names ${name})
  primitive_attributes("${header_ir}" declare ${name})
  if(NOT found)
    fail("kp_dev_${name}: no declaration in the IR of kernplug.h")
  endif()
  if(NOT convergent EQUAL want_convergent)
    fail("kp_dev_${name}: declared convergent=${convergent}, the table says ${want_convergent}")
  endif()
  if(NOT readnone EQUAL want_const)
    fail("kp_dev_${name}: declared const=${readnone}, the table says ${want_const}")
  endif()
  set(want_convergent_${name} ${want_convergent})
endforeach()

# 2. Every kp_dev_* name in the preprocessed header is a row.
file(WRITE ${WORK}/header.c "#include \"kernplug.h\"\n")
run_cc(header_text -E -P -I${include} ${WORK}/header.c)
string(REGEX MATCHALL "kp_dev_[A-Za-z0-9_]+" header_names "${header_text}")
list(REMOVE_DUPLICATES header_names)
foreach(n IN LISTS header_names)
  string(REGEX REPLACE "^kp_dev_" "" n "${n}")
  if(NOT n IN_LIST table_names)
    fail("kp_dev_${n}: kernplug.h has it, abi/primitives.def has no row for it")
  endif()
endforeach()

# 3. The device definitions, compiled as runtime/device/CMakeLists.txt does (the target part),
# with the header's KP_DEV_CONVERGENT empty so that only the definitions' attributes show.
execute_process(COMMAND ${CC} -print-resource-dir OUTPUT_VARIABLE resource_dir
                OUTPUT_STRIP_TRAILING_WHITESPACE)
file(GLOB device_sources ${SOURCE_DIR}/runtime/device/*.c)
set(defined "")
foreach(src IN LISTS device_sources)
  file(STRINGS ${src} uses_prelude REGEX "#include \"kp_device.h\"")
  if(NOT uses_prelude) # reduce_template.c: host-triple templates, no primitives
    continue()
  endif()
  run_cc(device_ir -target nvptx64-nvidia-cuda -march=sm_75 -fno-convergent-functions
         --cuda-path=${WORK}/no-cuda
         -Xclang -target-feature -Xclang +ptx63 -std=c17 -O0 -nostdinc
         -isystem ${resource_dir}/include -I${include} -DKP_DEV_CONVERGENT=
         -S -emit-llvm ${src} -o -)
  read_attribute_groups("${device_ir}")
  string(REGEX MATCHALL "\ndefine [^\n]*@kp_dev_[a-z0-9_]+\\(" defs "${device_ir}")
  foreach(d IN LISTS defs)
    string(REGEX MATCH "@kp_dev_([a-z0-9_]+)\\($" _ "${d}")
    set(name ${CMAKE_MATCH_1})
    get_filename_component(file ${src} NAME)
    if(name IN_LIST defined)
      fail("kp_dev_${name}: defined twice in runtime/device/ (again in ${file})")
    endif()
    list(APPEND defined ${name})
    if(NOT name IN_LIST table_names)
      fail("kp_dev_${name}: runtime/device/${file} defines it, abi/primitives.def has no row")
      continue()
    endif()
    primitive_attributes("${device_ir}" define ${name})
    if(NOT convergent EQUAL want_convergent_${name})
      set(want ${want_convergent_${name}})
      fail("kp_dev_${name}: defined convergent=${convergent} (${file}), the table says ${want}")
    endif()
  endforeach()
endforeach()
foreach(name IN LISTS table_names)
  if(NOT name IN_LIST defined)
    fail("kp_dev_${name}: no definition in runtime/device/")
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "kp_dev_* primitives disagree with abi/primitives.def:\n${failures}")
endif()
list(LENGTH defined ndefined)
message(STATUS "${nrows} primitives: header declarations and ${ndefined} device definitions "
               "match abi/primitives.def (convergent, const)")
