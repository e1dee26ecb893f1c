#!/bin/sh
# Benchmark (not a CTest test): wall time of one full topology scan (tests/bench/scan_only --quiet) vs
# `lsusb -t` on the same synthetic fixture, both as whole processes under the umockdev preload, alternated
# N times in one run. Prints the median of each and the ratio usbsat/lsusb (goal: <= 1.0).
#
#   tests/bench/scan_bench.sh [BUILD_DIR] [SCENARIO] [N]      defaults: build large 15
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
scenario=${2:-large}
n=${3:-15}
fixture="$build/fixtures/sysfs/$scenario"
scan="$build/tests/scan_only"
wrap="$here/../fixtures/with-fixture.sh"
[ -d "$fixture/sys" ] || { echo "no fixture $fixture (cmake --build --preset ci --target fixtures)" >&2; exit 2; }
[ -x "$scan" ] || { echo "no $scan (cmake --build --preset ci --target scan_only)" >&2; exit 2; }
command -v lsusb >/dev/null || { echo "lsusb not installed" >&2; exit 77; }

now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

"$wrap" "$fixture" -- "$scan" --quiet   # warm the page cache, show what one scan sees
"$wrap" "$fixture" -- lsusb -t >/dev/null 2>&1
buses=$("$wrap" "$fixture" -- lsusb -t 2>/dev/null | grep -c '^/:')

: >/tmp/scan_bench.$$.u; : >/tmp/scan_bench.$$.l
i=0
while [ "$i" -lt "$n" ]; do
  t0=$(now_ns); "$wrap" "$fixture" -- "$scan" --quiet >/dev/null; t1=$(now_ns)
  "$wrap" "$fixture" -- lsusb -t >/dev/null 2>&1; t2=$(now_ns)
  echo $(( (t1 - t0) / 1000 )) >>/tmp/scan_bench.$$.u
  echo $(( (t2 - t1) / 1000 )) >>/tmp/scan_bench.$$.l
  i=$((i + 1))
done
u=$(median </tmp/scan_bench.$$.u); l=$(median </tmp/scan_bench.$$.l)
rm -f /tmp/scan_bench.$$.u /tmp/scan_bench.$$.l
echo "fixture $scenario: $buses buses in lsusb -t; $n alternating runs, whole processes under the umockdev preload"
echo "usbsat scan (scan_only): median ${u} us"
echo "lsusb -t               : median ${l} us"
awk -v u="$u" -v l="$l" 'BEGIN { printf "ratio usbsat/lsusb -t  : %.2fx (goal <= 1.0x)\n", u / l }'
