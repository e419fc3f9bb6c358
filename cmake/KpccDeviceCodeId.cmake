# cmake -DIN=<kpcc configured> -DOUT=<kpcc> -DID_FILE=<device-code.id> -P KpccDeviceCodeId.cmake
#
# kpcc with the device code's identity (cmake/DeviceCodeId.cmake) in its text: `ccache kpcc`
# keys on kpcc itself, so kpcc must change whenever the device code does. Rewritten only when
# the result differs, executable.
file(READ "${IN}" text)
file(READ "${ID_FILE}" id)
string(REPLACE "KPCC-DEVICE-CODE-ID-PLACEHOLDER" "${id}" text "${text}")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
  file(CHMOD "${OUT}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                  WORLD_READ WORLD_EXECUTE)
endif()
