#!/usr/bin/env bash
# usbsat bootstrap: the two README commands, for a fresh Debian 12 machine, as root.
#   ./bootstrap.sh run    install dependencies, build usbsat alone, run the main job: this machine's tree, the
#                         doctor's findings and a report page (a sample machine's where this one has no USB)
#   ./bootstrap.sh test   install dependencies, build with -Werror, run every test with ctest
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

# Build and library dependencies (README "Dependencies" says why each is here). help2man writes the man page
# from `usbsat --help`; dpkg-dev (dpkg-shlibdeps) and file let CPack's .deb compute its Depends.
BUILD_DEPS=(g++ cmake ninja-build pkg-config ccache
            libudev-dev libboost-graph-dev libfmt-dev doctest-dev
            libcli11-dev nlohmann-json3-dev liburing-dev
            help2man dpkg-dev file
            libgraphviz-dev)  # usbsat report lays out its topology picture with Graphviz (libgvc) in process
# Test-only: umockdev replays sysfs trees, lsusb -t (usbutils) is the peer oracle, udev provides the
# hwdb that names vendors, fio is the reference load tool, util-linux/e2fsprogs build the loop bed (and
# partx, swapon for the storage-stack write-safety cases), dmsetup builds dm-linear over a loop device there,
# python3-jsonschema validates every --json document against report/schemas; prometheus ships promtool, which
# checks every `usbsat export --prometheus` and the shipped rules, and its server, which in fleet.scrape_e2e
# scrapes prometheus-node-exporter reading a real export (the test starts both on loopback ports, never the
# packaged services); man-db renders the packaged man page (man -l); zsh runs the zsh completion; chromium
# (headless) loads every `usbsat report` page offline and screenshots it (report_browser.* tests); clang-format
# checks every C++ source (format.check); graphviz's own `dot` lays out every fixture's `topo --dot`
# (views_e2e.*). clang
# and its runtime (libclang-rt-14-dev) build the libFuzzer targets (tests/fuzz) under ASan + UBSan. The Windows
# leg: g++-mingw-w64-x86-64-posix cross-builds for Windows x64 (posix thread model for std::thread, static
# runtime), wine64 runs the cross-built unit tests.
TEST_DEPS=(umockdev libumockdev-dev usbutils udev fio util-linux e2fsprogs dmsetup xz-utils python3 kmod
           python3-jsonschema prometheus prometheus-node-exporter man-db zsh chromium graphviz clang libclang-rt-14-dev
           g++-mingw-w64-x86-64-posix wine wine64 clang-format)

# The arm64 leg: Debian's cross toolchain, the libraries usbsat links as :arm64 multiarch packages (Graphviz
# excepted: Debian 12's libgvc6 cannot be installed for two architectures, so the arm64 build runs the `dot`
# program), and qemu-user, which runs the cross-built tests and usbsat.
ARM64_DEPS=(crossbuild-essential-arm64 qemu-user libudev-dev:arm64 libboost-graph-dev:arm64 libfmt-dev:arm64
            liburing-dev:arm64)

install_deps() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    if [[ " ${missing[*]}" == *:arm64* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
      dpkg --add-architecture arm64  # apt then fetches the arm64 package lists beside the amd64 ones
    fi
    echo "bootstrap: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# The Windows leg: cross-build (build-windows/, preset `windows`), the Windows unit tests and usbsat.exe's smoke
# tests under wine. Those compare usbsat.exe's output with the Linux build's (./build/src/usbsat, built before the
# legs start; without it, outside CI, the comparisons skip).
test_windows() {
  # A failing test runs once more, as in the main suite: a wine start that meets the wineserver exiting (it does
  # 3 s after its last client) fails with only "wine client error:0: recvmsg: Connection reset by peer" (CI saw it
  # once under ctest -j2). A real failure fails twice; which tests needed a second run is named at the end.
  cmake --preset windows >/dev/null &&
    "${LEG_NICE[@]}" cmake --build --preset windows --target windows_test usbsat &&
    ctest --preset windows --repeat until-pass:2
}

# --- the test legs -------------------------------------------------------------------------------------
# Every variant is built once. The main suite's ctest (mostly waiting on throttled loop devices) runs while the
# sanitizer, fuzz and cross builds take the two cores one after another; each leg logs to build-logs/<leg>.log.
LOGDIR=build-logs
LEG_NICE=()      # leg_builds sets it: the extra legs compile at nice 19

leg_main() {      # the Linux suite: unit, umockdev, fixtures, schema, bad input, loop-bed e2e
  # A throughput test can miss its ±5 % while the other legs compile on the same two cores: a failing test is
  # run once more (a real failure fails twice; tests/README.md). Which ones needed that is named at the end.
  ctest --preset ci --repeat until-pass:2 2>&1 | tee "$LOGDIR/main.log"
  return "${PIPESTATUS[0]}"
}

# second_runs LOG: the tests of a `ctest --repeat until-pass:2` log that failed once and then passed.
second_runs() {
  awk '/Test +#[0-9]+: / {
         n = $0; sub(/.*Test +#[0-9]+: /, "", n); sub(/ .*/, "", n)
         if ($0 ~ /\*\*\*|Failed/) failed[n] = 1; else if ($0 ~ / Passed/ && failed[n]) print n
       }' "$1"
}
leg_tsan() {      # the load runner's tests under ThreadSanitizer
  cmake --preset tsan >/dev/null && "${LEG_NICE[@]}" cmake --build --preset tsan && ctest --preset tsan
}
leg_sanitize() {  # one clang ASan + UBSan build: every libFuzzer target for USBSAT_FUZZ_SECONDS, then its committed
                  # seeds and reproducers; then the unit and umockdev tests under the same sanitizers
  cmake --preset sanitize >/dev/null && "${LEG_NICE[@]}" cmake --build --preset sanitize || return 1
  local rc=0
  ctest --preset fuzz || rc=1
  ctest --preset asan || rc=1
  return $rc
}
leg_windows() {   # the Windows cross-build (mingw-w64) and its unit tests under wine
  test_windows
}
leg_arm64() {     # the arm64 cross-build, its unit tests and usbsat under qemu-user, and its .deb
  cmake --preset arm64 >/dev/null && "${LEG_NICE[@]}" cmake --build --preset arm64 &&
    ctest --preset arm64 --repeat until-pass:2
}
leg_builds() {    # the extra variants, one build at a time (two cores)
  local rc=0 l
  # The compilers run at the lowest CPU priority: the main suite's throughput tests (workers on throttled loop
  # devices) get a core first when they need one. The legs' tests do not: the load runner's tests measure 200 ms
  # windows, and a thread at nice 19 beside two busy cores gets about 1.5 % of one (CI saw a worker there make
  # no I/O at all in its window).
  LEG_NICE=(nice -n 19)
  for l in tsan sanitize windows arm64; do
    local t0=$SECONDS
    if "leg_$l" >"$LOGDIR/$l.log" 2>&1; then
      echo "bootstrap: leg $l passed in $((SECONDS - t0)) s"
    else
      echo "bootstrap: leg $l FAILED after $((SECONDS - t0)) s (its failures are shown at the end)"
      echo "$l" >>"$LOGDIR/failed"
      rc=1
    fi
  done
  return $rc
}

run_test_legs() {
  mkdir -p "$LOGDIR"
  rm -f "$LOGDIR/failed"
  local t0=$SECONDS
  cmake --preset ci >/dev/null
  cmake --build --preset ci
  echo "bootstrap: main build done in $((SECONDS - t0)) s"
  leg_builds & local builds=$!
  local main_rc=0
  leg_main || main_rc=$?
  local builds_rc=0
  wait "$builds" || builds_rc=$?
  # A failed leg's lines scrolled past inside the main suite's output: they are shown again last.
  local l
  if [[ -f $LOGDIR/failed ]]; then
    while read -r l; do
      echo "bootstrap: leg $l FAILED; its failures (from $LOGDIR/$l.log):"
      { grep -E -B2 -A12 'ERROR:|FAILED|Failed|error:|\*\*\*' "$LOGDIR/$l.log" || tail -n 40 "$LOGDIR/$l.log"; } |
        tail -n 80
    done <"$LOGDIR/failed"
  fi
  local again
  again=$(for l in main windows arm64; do if [[ -f $LOGDIR/$l.log ]]; then second_runs "$LOGDIR/$l.log"; fi; done |
    paste -sd' ' -)
  echo "bootstrap: tests that needed a second run: ${again:-none}"
  echo "bootstrap: all legs done in $((SECONDS - t0)) s (main suite rc $main_rc, sanitizer/fuzz legs rc $builds_rc)"
  ((main_rc == 0 && builds_rc == 0))
}

# --- the main job --------------------------------------------------------------------------------------
# `run` builds these targets and nothing else: no test executables, fixtures or extra variants
# (tests/dist/first_run_test.py checks the set).
RUN_TARGETS=(usbsat)
SAMPLE=topology/recording/samples/workstation.json

# main_job BIN: the tree, the doctor's findings and a report page of this machine; of the shipped sample
# recording where this machine has no USB host controller (usbsat itself never substitutes a sample: it says
# so on stderr, which is what is read here). The page goes to $BOOTSTRAP_REPORT (default build/usbsat-report.html).
main_job() {
  local bin=$1 page=${BOOTSTRAP_REPORT:-build/usbsat-report.html} from=() rc=0
  if "$bin" topo 2>&1 >/dev/null | grep -q "no USB host controller found"; then
    echo "bootstrap: no USB here; showing the sample recording ${SAMPLE##*/} (a recorded workstation, $SAMPLE)"
    from=(--from "$SAMPLE")
  fi
  "$bin" "${from[@]}" topo
  echo
  "$bin" "${from[@]}" doctor || rc=$?
  ((rc == 0 || rc == 10 || rc == 11)) || return "$rc"  # 10/11: the doctor found warnings/problems
  echo
  "$bin" "${from[@]}" -q report -o "$page"
  echo "bootstrap: report page (open it in a browser): $(readlink -f "$page")"
  echo "bootstrap: more: $bin --help; $bin --from $SAMPLE drives|ports|plan --drives 2 (README: Quick tour)"
}

case "${1:-}" in
  run)
    install_deps "${BUILD_DEPS[@]}" udev
    cmake --preset default >/dev/null
    cmake --build --preset default --target "${RUN_TARGETS[@]}"
    shift
    if (($#)); then exec ./build/src/usbsat "$@"; fi
    main_job ./build/src/usbsat
    ;;
  main-job)   # the main job alone, on a built usbsat (tests/dist/first_run_test.py)
    main_job "${2:-./build/src/usbsat}"
    ;;
  run-targets)   # what `run` builds (tests/dist/first_run_test.py)
    echo "${RUN_TARGETS[@]}"
    ;;
  test)
    install_deps "${BUILD_DEPS[@]}" "${TEST_DEPS[@]}" "${ARM64_DEPS[@]}"
    run_test_legs
    ;;
  test-windows)
    install_deps g++-mingw-w64-x86-64-posix wine wine64 "${BUILD_DEPS[@]}"
    test_windows
    ;;
  test-arm64)   # the arm64 leg alone; it compares with the Linux build's usbsat and package (./build, preset ci)
    install_deps "${BUILD_DEPS[@]}" "${ARM64_DEPS[@]}" umockdev graphviz
    leg_arm64
    ;;
  *)
    echo "usage: $0 run [usbsat arguments] | test | test-windows | test-arm64" >&2
    exit 2
    ;;
esac
