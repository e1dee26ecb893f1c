#!/bin/sh
# Benchmark (not a CTest test): wall time of one topology scan at the detail `usbsat topo` reads
# (tests/bench/scan_only --quiet --tree, ScanDetail::Tree) vs `lsusb -t` on the same synthetic fixture,
# both as whole processes under the umockdev preload, alternated
# N times in one run. Prints the median wall time and the median CPU time (user+sys, less disturbed by other
# load on a shared machine) of each, the ratios usbsat/lsusb (goal: <= 1.0), and (with strace installed) the
# number of path calls the umockdev preload intercepts for each (and for the Full scan of `topo --json`,
# `drives`, `ports`), which does not depend on the machine's load.
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

"$wrap" "$fixture" -- "$scan" --quiet --tree   # warm the page cache, show what one scan sees
"$wrap" "$fixture" -- lsusb -t >/dev/null 2>&1
buses=$("$wrap" "$fixture" -- lsusb -t 2>/dev/null | grep -c '^/:')

: >/tmp/scan_bench.$$.u; : >/tmp/scan_bench.$$.l; : >/tmp/scan_bench.$$.uc; : >/tmp/scan_bench.$$.lc
cpu() {  # run "$@", append its user+sys CPU microseconds to file $1
  out=$1; shift
  /usr/bin/time -f "%U %S" -o /tmp/scan_bench.$$.t "$@" >/dev/null 2>/dev/null
  awk '{ printf "%d\n", ($1 + $2) * 1000000 }' /tmp/scan_bench.$$.t >>"$out"
}
i=0
while [ "$i" -lt "$n" ]; do
  t0=$(now_ns); "$wrap" "$fixture" -- "$scan" --quiet --tree >/dev/null; t1=$(now_ns)
  "$wrap" "$fixture" -- lsusb -t >/dev/null 2>&1; t2=$(now_ns)
  echo $(( (t1 - t0) / 1000 )) >>/tmp/scan_bench.$$.u
  echo $(( (t2 - t1) / 1000 )) >>/tmp/scan_bench.$$.l
  if [ -x /usr/bin/time ]; then
    cpu /tmp/scan_bench.$$.uc "$wrap" "$fixture" -- "$scan" --quiet --tree
    cpu /tmp/scan_bench.$$.lc "$wrap" "$fixture" -- lsusb -t
  fi
  i=$((i + 1))
done
u=$(median </tmp/scan_bench.$$.u); l=$(median </tmp/scan_bench.$$.l)
echo "fixture $scenario: $buses buses in lsusb -t; $n alternating runs, whole processes under the umockdev preload"
echo "usbsat scan (Tree)     : median wall ${u} us"
echo "lsusb -t               : median wall ${l} us"
awk -v u="$u" -v l="$l" 'BEGIN { printf "ratio usbsat/lsusb -t  : %.2fx wall (goal <= 1.0x)\n", u / l }'
if [ -s /tmp/scan_bench.$$.uc ]; then
  uc=$(median </tmp/scan_bench.$$.uc); lc=$(median </tmp/scan_bench.$$.lc)
  echo "CPU (user+sys) median  : usbsat ${uc} us, lsusb -t ${lc} us"
  awk -v u="$uc" -v l="$lc" 'BEGIN { if (l > 0) printf "ratio usbsat/lsusb -t  : %.2fx CPU\n", u / l }'
fi
# The deterministic measure: how many path calls the umockdev preload intercepts (it checks for
# "$UMOCKDEV_DIR/disabled" once per intercepted call, so strace counts them); each costs the preload about five
# extra system calls (a signal-mask lock and that check), so wall time follows this count.
if command -v strace >/dev/null; then
  dir=$(cd "$fixture" && pwd)
  calls() { "$wrap" "$fixture" -- strace -f -e trace=access -o /tmp/scan_bench.$$.s "$@" >/dev/null 2>&1
            grep -c "\"$dir/disabled\"" /tmp/scan_bench.$$.s; }
  uc=$(calls "$scan" --quiet --tree); fc=$(calls "$scan" --quiet); lc=$(calls lsusb -t)
  echo "intercepted path calls : usbsat $uc (Full scan: $fc), lsusb -t $lc"
  awk -v u="$uc" -v l="$lc" 'BEGIN { if (l > 0) printf "ratio usbsat/lsusb -t  : %.2fx calls\n", u / l }'
fi
rm -f /tmp/scan_bench.$$.*
