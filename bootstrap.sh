#!/usr/bin/env bash
# usbsat bootstrap: the two README commands, for a fresh Debian 12 machine, as root.
#   ./bootstrap.sh run    install dependencies, build, run the main job (usbsat topo on this machine)
#   ./bootstrap.sh test   install dependencies, build with -Werror, run every test with ctest
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

# Build and library dependencies (README "Dependencies" says why each is here).
BUILD_DEPS=(g++ cmake ninja-build pkg-config ccache
            libudev-dev libboost-graph-dev libfmt-dev doctest-dev
            libcli11-dev nlohmann-json3-dev liburing-dev)
# Test-only: umockdev replays sysfs trees, lsusb -t (usbutils) is the peer oracle, udev provides the
# hwdb that names vendors, fio is the reference load tool, util-linux/e2fsprogs build the loop bed,
# python3-jsonschema validates every --json document against report/schemas.
# The Windows leg (test_windows): g++-mingw-w64-x86-64-posix cross-builds for Windows x64 (posix thread
# model for std::thread, static runtime), wine64 runs the cross-built unit tests.
TEST_DEPS=(umockdev libumockdev-dev usbutils udev fio util-linux e2fsprogs xz-utils python3 kmod
           python3-jsonschema g++-mingw-w64-x86-64-posix wine wine64)

install_deps() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "bootstrap: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# The Windows leg: cross-build (build-windows/, preset `windows`) and the Windows unit tests under wine.
# Independent of the Linux build: it can run in parallel with the other legs.
test_windows() {
  cmake --preset windows >/dev/null
  cmake --build --preset windows --target windows_test
  ctest --preset windows
}

case "${1:-}" in
  run)
    install_deps "${BUILD_DEPS[@]}" udev
    cmake --preset default >/dev/null
    cmake --build --preset default
    shift
    exec ./build/src/usbsat "${@:-topo}"
    ;;
  test)
    install_deps "${BUILD_DEPS[@]}" "${TEST_DEPS[@]}"
    cmake --preset ci >/dev/null
    cmake --build --preset ci
    rc=0
    ctest --preset ci || rc=$?
    test_windows || rc=$?
    exit "$rc"
    ;;
  test-windows)
    install_deps g++-mingw-w64-x86-64-posix wine wine64 "${BUILD_DEPS[@]}"
    test_windows
    ;;
  *)
    echo "usage: $0 run [usbsat arguments] | test | test-windows" >&2
    exit 2
    ;;
esac
