#!/bin/bash
# usbsat test bed: real block devices with known, shared bandwidth caps (root only).
#
#   testbed.sh up SPEC...      build the bed; prints one line per drive: "BUS INDEX DEVICE"
#   testbed.sh drives [BUS]    print the drive devices again (same format)
#   testbed.sh run -- CMD...   run CMD inside the bed's cgroup (throttles apply only to its tasks)
#   testbed.sh fail DEVICE     make a `solo` drive fail mid-run (its backing file shrinks to 0 and the
#                              loop device's capacity follows: further I/O ends at offset 0)
#   testbed.sh cap DEVICE BPS  change a capped bus drive's own cap to BPS bytes/s, also mid-run (a drive
#                              whose rate drifts: tests of the settle rule)
#   testbed.sh down            tear everything down (also safe after a partial `up`)
#
# SPEC:
#   bus:NAME:BPS:N[:DRIVE_BPS]  N drives sharing one emulated bus capped at BPS bytes/s (SI suffixes: 40M =
#                               40*10^6; 0 = uncapped), each optionally capped at DRIVE_BPS
#   solo:NAME                   one uncapped drive over its own file (fault tests, benchmarks)
#
# Environment: TESTBED_NAME (default usbsat-tb; one bed per name), TESTBED_DRIVE_MB (default 64),
# USBSAT_CGROUP_ROOT (default /sys/fs/cgroup; tests point it at a fake tree, see cgroup.sh).
# Caps: cgroup-v1 blkio throttles, else cgroup-v2 io.max (see cgroup.sh). Exit code 77 when not root, when
# loop devices are unavailable, or when neither cgroup hierarchy can throttle (CTest SKIP, with the reason).
#
# Layout of a bus (caps always sit on an inner layer, never on the device the engine opens, because
# io_uring I/O that needs a bio split on a throttled device can be charged twice):
#
#   tmpfs file ── loop B (bus, --direct-io, throttled to BPS in the cgroup)
#                   ├─ [loop M_i over a slice of B (--offset/--sizelimit), throttled to DRIVE_BPS]
#                   └─ loop D_i (the drive the engine opens; over M_i, or directly over the slice of B)
#
# Known pitfalls: throttling applies only to tasks in the cgroup (use `run`); buffered writes escape v1
# throttles (use O_DIRECT); the first ~100 ms overshoot the cap 1.4-1.8x, so ramp ≥ 1 s and measure ≥ 5 s
# over one common window; a bus is shared by bytes in flight, so give every drive of a bus the same load.
set -euo pipefail

NAME=${TESTBED_NAME:-usbsat-tb}
DRIVE_MB=${TESTBED_DRIVE_MB:-64}
STATE=/run/usbsat-testbed/$NAME
# shellcheck source=cgroup.sh
. "$(dirname "${BASH_SOURCE[0]}")/cgroup.sh"

die() { echo "testbed: $*" >&2; exit 1; }
skip() { echo "testbed: SKIP: $*" >&2; exit 77; }

require_env() {
  [ "$(id -u)" = 0 ] || skip "needs root"
  cg_detect || skip "$CG_WHY"
  CGROUP=$(cg_dir "$NAME")
  command -v losetup >/dev/null || skip "no losetup"
  [ -e /dev/loop-control ] || skip "no loop devices"
}

record() { echo "$*" >>"$STATE/resources"; }  # torn down in reverse order

devnum() { local d; d=$(stat -Lc '%t:%T' "$1"); echo "$((16#${d%:*})):$((16#${d#*:}))"; }

throttle() {  # throttle DEVICE BPS
  local dev=$1 bps=$2 n
  [ "$bps" = 0 ] && return 0
  n=$(devnum "$dev")
  cg_throttle "$NAME" "$n" "$bps"
}

new_loop() {  # new_loop BACKING [losetup options...] -> prints the device
  local backing=$1; shift
  local dev
  dev=$(losetup --direct-io=on -f --show "$@" "$backing")
  record "loop $dev"
  echo "$dev"
}

fill() {  # fill FILE MB: non-zero pseudo-random data (zero pages would flatter some layers)
  dd if=/dev/urandom of="$1" bs=1M count="$2" status=none
}

cmd_up() {
  [ $# -gt 0 ] || die "up needs at least one SPEC"
  [ ! -e "$STATE" ] || die "bed '$NAME' exists; run 'testbed.sh down' first"
  cg_prepare || skip "$CG_WHY"
  local total=0 spec
  for spec in "$@"; do
    IFS=: read -r kind _ _ n _ <<<"$spec"
    case $kind in
      bus) total=$((total + ${n:-0} * DRIVE_MB)) ;;
      solo) total=$((total + DRIVE_MB)) ;;
      *) die "bad SPEC '$spec'" ;;
    esac
  done
  mkdir -p "$STATE"
  : >"$STATE/resources"
  : >"$STATE/drives"
  trap 'echo "testbed: up failed, tearing down" >&2; cmd_down >/dev/null 2>&1 || true' ERR
  mkdir -p "$STATE/tmpfs"
  mount -t tmpfs -o "size=$((total + 16))m,mode=700" "usbsat-testbed-$NAME" "$STATE/tmpfs"
  record "mount $STATE/tmpfs"
  cg_create "$NAME"
  record "cgroup $CGROUP"

  for spec in "$@"; do
    local kind bus bps n dbps
    IFS=: read -r kind bus bps n dbps <<<"$spec"
    if [ "$kind" = solo ]; then
      local f="$STATE/tmpfs/solo-$bus.img"
      fill "$f" "$DRIVE_MB"
      local d; d=$(new_loop "$f")
      echo "$bus 0 $d $f" >>"$STATE/drives"
      continue
    fi
    [ -n "$bus" ] && [ -n "$n" ] && [ "$n" -gt 0 ] || die "bad SPEC '$spec'"
    bps=$(numfmt --from=si "${bps:-0}")
    dbps=$(numfmt --from=si "${dbps:-0}")
    local f="$STATE/tmpfs/bus-$bus.img"
    fill "$f" $((n * DRIVE_MB))
    local b; b=$(new_loop "$f")
    throttle "$b" "$bps"
    local i
    for ((i = 0; i < n; i++)); do
      local slice=(--offset $((i * DRIVE_MB * 1048576)) --sizelimit $((DRIVE_MB * 1048576)))
      local d
      if [ "$dbps" != 0 ]; then
        local m; m=$(new_loop "$b" "${slice[@]}")
        throttle "$m" "$dbps"
        d=$(new_loop "$m")
      else
        local m=-
        d=$(new_loop "$b" "${slice[@]}")
      fi
      echo "$bus $i $d - $m" >>"$STATE/drives"
    done
  done
  sync
  echo 3 >/proc/sys/vm/drop_caches
  trap - ERR
  cmd_drives
}

cmd_drives() {
  [ -e "$STATE/drives" ] || die "no bed '$NAME'"
  if [ $# -gt 0 ]; then awk -v b="$1" '$1 == b {print $1, $2, $3}' "$STATE/drives"
  else awk '{print $1, $2, $3}' "$STATE/drives"; fi
}

cmd_run() {
  [ "${1:-}" = -- ] && shift
  [ $# -gt 0 ] || die "run needs a command"
  [ -d "$CGROUP" ] || die "no bed '$NAME'"
  exec sh -c 'echo $$ >>"$0" && exec "$@"' "$(cg_procs "$NAME")" "$@"
}

cmd_fail() {
  local dev=$1 file
  file=$(awk -v d="$dev" '$3 == d {print $4}' "$STATE/drives")
  [ -n "$file" ] && [ "$file" != - ] || die "$dev is not a solo drive of bed '$NAME'"
  truncate -s 0 "$file"
  losetup -c "$dev"
}

cmd_cap() {
  local dev=$1 bps layer
  bps=$(numfmt --from=si "$2")
  layer=$(awk -v d="$dev" '$3 == d {print $5}' "$STATE/drives")
  [ -n "$layer" ] && [ "$layer" != - ] || die "$dev is not a capped bus drive of bed '$NAME'"
  throttle "$layer" "$bps"
}

cmd_down() {
  [ -e "$STATE/resources" ] || { rm -rf "$STATE"; return 0; }
  local kind what rc=0
  while read -r kind what; do
    case $kind in
      loop) for _ in 1 2 3 4 5; do losetup -d "$what" 2>/dev/null && break; sleep 0.2; done ;;
      cgroup) cg_remove "$what" || rc=1 ;;  # stragglers move to the parent first
      mount) umount "$what" 2>/dev/null || umount -l "$what" || rc=1 ;;
    esac
  done < <(tac "$STATE/resources")
  rm -rf "$STATE"
  return $rc
}

require_env
cmd=${1:-}
shift || true
case $cmd in
  up) cmd_up "$@" ;;
  drives) cmd_drives "$@" ;;
  run) cmd_run "$@" ;;
  fail) cmd_fail "$@" ;;
  cap) cmd_cap "$@" ;;
  down) cmd_down ;;
  *) sed -n '2,28p' "$0" >&2; exit 2 ;;
esac
