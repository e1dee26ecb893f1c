# The header-only dependencies of the Windows cross-build, from Debian's /usr/include. Adding /usr/include itself
# to a mingw build would pull in glibc's headers, so a directory of symlinks offers exactly these five, and
# imported targets with the names the Linux build gets from find_package() carry it. fmt is used header-only
# (Debian's libfmt.so is a Linux library).
set(USBSAT_MINGW_INCLUDE ${CMAKE_BINARY_DIR}/mingw-include)
file(MAKE_DIRECTORY ${USBSAT_MINGW_INCLUDE})
foreach(d boost nlohmann CLI doctest fmt)
  if(NOT EXISTS /usr/include/${d})
    message(FATAL_ERROR "/usr/include/${d} is missing: install the Debian package that provides it (bootstrap.sh)")
  endif()
  if(NOT EXISTS ${USBSAT_MINGW_INCLUDE}/${d})
    file(CREATE_LINK /usr/include/${d} ${USBSAT_MINGW_INCLUDE}/${d} SYMBOLIC)
  endif()
endforeach()
foreach(t Boost::headers fmt::fmt CLI11::CLI11 nlohmann_json::nlohmann_json doctest::doctest)
  add_library(${t} INTERFACE IMPORTED GLOBAL)
  set_target_properties(${t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${USBSAT_MINGW_INCLUDE})
endforeach()
set_property(TARGET fmt::fmt PROPERTY INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY)
set(doctest_DIR /usr/lib/cmake/doctest)  # doctest.cmake (doctest_discover_tests), data only
find_package(Threads REQUIRED)
