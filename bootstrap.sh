#!/usr/bin/env bash
# usbsat bootstrap: the two README commands, for a fresh Debian 12 machine, as root.
#   ./bootstrap.sh run    install dependencies, build, run the main job (usbsat topo on this machine)
#   ./bootstrap.sh test   install dependencies, build with -Werror, run every test with ctest
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

# Build and library dependencies (README "Dependencies" says why each is here).
BUILD_DEPS=(g++ cmake ninja-build pkg-config ccache
            libudev-dev libboost-graph-dev libfmt-dev doctest-dev
            libcli11-dev nlohmann-json3-dev liburing-dev
            libgraphviz-dev)  # usbsat report lays out its topology picture with Graphviz (libgvc) in process
# Test-only: umockdev replays sysfs trees, lsusb -t (usbutils) is the peer oracle, udev provides the
# hwdb that names vendors, fio is the reference load tool, util-linux/e2fsprogs build the loop bed,
# python3-jsonschema validates every --json document against report/schemas, chromium (headless) loads every
# `usbsat report` page offline and screenshots it (report_browser.* tests).
TEST_DEPS=(umockdev libumockdev-dev usbutils udev fio util-linux e2fsprogs xz-utils python3 kmod
           python3-jsonschema chromium)

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
    exec ctest --preset ci
    ;;
  *)
    echo "usage: $0 run [usbsat arguments] | test" >&2
    exit 2
    ;;
esac
