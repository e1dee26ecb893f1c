#!/bin/sh
# Benchmark (not a CTest test): the scan alone and the whole `usbsat` processes that print it, against
# `lsusb -t` on the same synthetic fixture, all as whole processes under the umockdev preload, alternated N
# times in one run (each round runs every tool once, in turn):
#   scan (Tree)           build/tests/scan_only --quiet --tree: the scan at the detail `usbsat topo` reads
#   usbsat topo           the whole command: scan, hwdb names, mountinfo, rendering
#   usbsat drives --json  the whole command at the Drives detail
#   lsusb -t
# Prints per tool the median wall time and the median CPU time (user+sys, less disturbed by other load on a
# shared machine) with their ratios to `lsusb -t` (goal: <= 1.0), the load average before and after, and
# (with strace installed) the number of path calls the umockdev preload intercepts, which does not depend on
# the machine's load (also for the Full scan that `topo --json`, `ports` and `doctor` read).
#
#   tests/bench/scan_bench.sh [BUILD_DIR] [SCENARIO] [N]      defaults: build large 15
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
scenario=${2:-large}
n=${3:-15}
fixture="$build/fixtures/sysfs/$scenario"
scan="$build/tests/scan_only"
usbsat="$build/src/usbsat"
wrap="$here/../fixtures/with-fixture.sh"
[ -d "$fixture/sys" ] || { echo "no fixture $fixture (cmake --build --preset ci --target fixtures)" >&2; exit 2; }
[ -x "$scan" ] || { echo "no $scan (cmake --build --preset ci --target scan_only)" >&2; exit 2; }
[ -x "$usbsat" ] || { echo "no $usbsat (cmake --build --preset ci --target usbsat)" >&2; exit 2; }
command -v lsusb >/dev/null || { echo "lsusb not installed" >&2; exit 77; }

tmp=/tmp/scan_bench.$$
trap 'rm -f "$tmp".*' EXIT
tools="tree topo drives lsusb"
# What each tool is called in the table.
name() {
  case $1 in
    tree) echo "scan (Tree)" ;; topo) echo "usbsat topo" ;; drives) echo "usbsat drives --json" ;;
    lsusb) echo "lsusb -t" ;; full) echo "scan (Full)" ;;
  esac
}
# Run the command after it once and print its wall and CPU (user+sys of it and its children) time in
# microseconds: getrusage counts CPU in microseconds where time(1) prints steps of 10 ms.
timed='import os, resource, subprocess, sys, time
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t1 = time.perf_counter()
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(round((t1 - t0) * 1e6), round(cpu * 1e6))'
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v u="$1" -v l="$2" 'BEGIN { if (l > 0) printf "%.2fx", u / l; else printf "-" }'; }
# Run tool $1 on the fixture under the preload, with `$2...` in front (the timer, strace).
run() {
  t=$1; shift
  case $t in
    tree) "$@" "$wrap" "$fixture" -- "$scan" --quiet --tree ;;
    full) "$@" "$wrap" "$fixture" -- "$scan" --quiet ;;
    topo) "$@" "$wrap" "$fixture" -- "$usbsat" topo ;;
    drives) "$@" "$wrap" "$fixture" -- "$usbsat" drives --json ;;
    lsusb) "$@" "$wrap" "$fixture" -- lsusb -t ;;
  esac
}

for t in $tools; do  # warm the page cache
  run "$t" env >/dev/null 2>&1
  : >"$tmp.w$t"
  : >"$tmp.c$t"
done
buses=$(run lsusb env 2>/dev/null | grep -c '^/:')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
i=0
while [ "$i" -lt "$n" ]; do
  for t in $tools; do
    run "$t" python3 -c "$timed" >"$tmp.t"
    cut -d' ' -f1 "$tmp.t" >>"$tmp.w$t"
    cut -d' ' -f2 "$tmp.t" >>"$tmp.c$t"
  done
  i=$((i + 1))
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# The deterministic measure: how many path calls the umockdev preload intercepts (it checks for
# "$UMOCKDEV_DIR/disabled" once per intercepted call, so strace counts them); each costs the preload about
# five extra system calls (a signal-mask lock and that check), so wall time follows this count.
calls() {
  if ! command -v strace >/dev/null; then
    echo "-"
    return
  fi
  run "$1" strace -f -e trace=access -o "$tmp.s" >/dev/null 2>&1 || true
  grep -c "\"$(cd "$fixture" && pwd)/disabled\"" "$tmp.s" || true
}

echo "fixture $scenario: $buses buses in lsusb -t; $n alternating rounds, whole processes under the umockdev preload"
echo "load average before: $load_before, after: $load_after"
lw=$(median <"$tmp.wlsusb")
lc=$(median <"$tmp.clsusb")
ll=$(calls lsusb)
printf '%-22s %12s %7s %12s %7s %15s %7s\n' "" "median wall" "ratio" "median CPU" "ratio" "path calls" "ratio"
for t in $tools; do
  w=$(median <"$tmp.w$t")
  c=$(median <"$tmp.c$t")
  k=$(calls "$t")
  printf '%-22s %9d us %7s %9d us %7s %15s %7s\n' "$(name "$t")" "$w" "$(ratio "$w" "$lw")" "$c" \
    "$(ratio "$c" "$lc")" "$k" "$(ratio "$k" "$ll")"
done
k=$(calls full)
printf '%-22s %12s %7s %12s %7s %15s %7s\n' "$(name full)" "" "" "" "" "$k" "$(ratio "$k" "$ll")"
echo "goal: usbsat topo and usbsat drives --json <= 1.00x of lsusb -t"
