# Cross-build for arm64 (aarch64) Linux from Debian 12 amd64: Debian's cross toolchain (crossbuild-essential-arm64)
# and the libraries as :arm64 multiarch packages (/usr/lib/aarch64-linux-gnu), tests run under qemu-user
# (qemu-aarch64). Used by the `arm64` preset (CMakePresets.json); bootstrap.sh's arm64 leg installs them.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_STRIP aarch64-linux-gnu-strip)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Only the arm64 multiarch directory holds libraries and their pkg-config files; headers are shared (/usr/include).
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/cmake /lib/x86_64-linux-gnu)
# GCC 12's -Wrestrict reports std::string operations inside libstdc++ at -O2 that cannot overlap (GCC bug
# 105329), as in the Windows cross-build.
set(CMAKE_CXX_FLAGS_INIT "-Wno-restrict")
# Debian 12's libgvc6 is not multi-arch: the arm64 build runs Graphviz's `dot` program (report/CMakeLists.txt).
set(USBSAT_GRAPHVIZ program CACHE STRING "")

# ctest, doctest's test discovery and the build's own generators (completions, man page) run arm64 programs
# through qemu-user; its ld.so finds the :arm64 libraries in their multiarch directories.
find_program(USBSAT_QEMU NAMES qemu-aarch64 qemu-aarch64-static)
if(USBSAT_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${USBSAT_QEMU})
endif()
