# kp_install_paths(<prefix-var> <base>): sets <prefix-var>_BINDIR, _LIBDIR and _INCLUDEDIR to
# the GNUInstallDirs directories under <base> (a prefix, or a placeholder kpcc and the
# pkg-config file rewrite). Absolute CMAKE_INSTALL_<dir> values (e.g. /usr/lib) are kept.
function(kp_install_paths var base)
  foreach(dir BINDIR LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
      set(${var}_${dir} "${CMAKE_INSTALL_${dir}}" PARENT_SCOPE)
    else()
      set(${var}_${dir} "${base}/${CMAKE_INSTALL_${dir}}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()
