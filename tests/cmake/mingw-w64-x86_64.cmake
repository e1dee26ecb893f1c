# Cross-build for Windows x64 from Debian: mingw-w64 with the posix thread model (std::thread via
# winpthreads), a static runtime (usbsat.exe needs no DLL beside it), tests run under wine.
# Used by the `windows` preset (CMakePresets.json); Debian packages: g++-mingw-w64-x86-64-posix, wine, wine64.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# GCC 12's -Wrestrict reports std::string operations inside libstdc++ (char_traits.h) at -O2 that cannot overlap
# (GCC bug 105329); with USBSAT_WERROR it would fail the build on code that is fine.
set(CMAKE_CXX_FLAGS_INIT "-Wno-restrict")

# Tests (ctest, doctest's test discovery) run through wine: no display, no debug chatter, and a throwaway
# prefix inside the build directory so nothing touches the user's ~/.wine.
find_program(USBSAT_WINE NAMES wine64 wine)
find_program(USBSAT_WINESERVER NAMES wineserver)
if(USBSAT_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      /usr/bin/env -u DISPLAY -u WAYLAND_DISPLAY WINEDEBUG=-all WINEPREFIX=${CMAKE_BINARY_DIR}/wineprefix
      WINEDLLOVERRIDES=mscoree,mshtml= ${USBSAT_WINE})
endif()
