# usbsat test bed: the cgroup side (sourced by testbed.sh and by cgroup_fake_test.py; bash).
#
# Two hierarchies can throttle a block device:
#   v1  ROOT/blkio, files blkio.throttle.{read,write}_bps_device, one "MAJ:MIN BPS" line per device and file
#   v2  ROOT (pure unified) or ROOT/unified (hybrid) when its cgroup.controllers lists `io`; the file io.max,
#       one "MAJ:MIN rbps=BPS wbps=BPS" line per device. The `io` controller must be enabled in the parent's
#       cgroup.subtree_control, and (no-internal-process rule) only a leaf may hold processes: the bed's
#       cgroup is a leaf directly under the hierarchy's root, which is exempt from that rule.
# ROOT is USBSAT_CGROUP_ROOT (default /sys/fs/cgroup), so the tests can point it at a fake tree of files.
#
# Every write appends (>>): on cgroupfs that is the same single write as '>', and on a fake tree it keeps
# each line written, for the test to compare.

CG_ROOT=${USBSAT_CGROUP_ROOT:-/sys/fs/cgroup}
CG_MODE=       # v1 | v2, set by cg_detect
CG_PARENT=     # the hierarchy's root directory the bed's cgroup is made in
CG_WHY=        # why cg_detect found nothing usable

# cg_detect: set CG_MODE and CG_PARENT; return 1 with CG_WHY set when neither hierarchy can throttle.
# v1 blkio wins when both exist (a controller is bound to one hierarchy only, so `io` is then not in v2).
cg_detect() {
  if [ -e "$CG_ROOT/blkio/blkio.throttle.read_bps_device" ]; then
    CG_MODE=v1 CG_PARENT=$CG_ROOT/blkio
    return 0
  fi
  local d
  for d in "$CG_ROOT" "$CG_ROOT/unified"; do
    if [ -e "$d/cgroup.controllers" ] && grep -qw io "$d/cgroup.controllers"; then
      CG_MODE=v2 CG_PARENT=$d
      return 0
    fi
  done
  CG_WHY="neither cgroup-v1 blkio ($CG_ROOT/blkio/blkio.throttle.read_bps_device) nor a cgroup-v2 hierarchy"
  CG_WHY+=" with the io controller ($CG_ROOT/cgroup.controllers or $CG_ROOT/unified/cgroup.controllers)"
  return 1
}

# cg_prepare: make the io controller available to the bed's cgroup (v2: enable it in the parent's
# cgroup.subtree_control when it is not yet). Return 1 with CG_WHY set when the kernel refuses.
cg_prepare() {
  [ "$CG_MODE" = v2 ] || return 0
  grep -qw io "$CG_PARENT/cgroup.subtree_control" 2>/dev/null && return 0
  if ! echo +io >>"$CG_PARENT/cgroup.subtree_control" 2>/dev/null; then
    CG_WHY="cannot enable the io controller in $CG_PARENT/cgroup.subtree_control (a non-root cgroup holding"
    CG_WHY+=" processes cannot delegate controllers: move them to a leaf cgroup first)"
    return 1
  fi
}

# cg_dir NAME: the bed's cgroup directory.
cg_dir() { echo "$CG_PARENT/$1"; }

# cg_create NAME: make the bed's cgroup (a leaf).
cg_create() { mkdir "$(cg_dir "$1")"; }

# cg_throttle NAME MAJ:MIN BPS: cap reads and writes of device MAJ:MIN at BPS bytes/s for the bed's tasks.
cg_throttle() {
  local dir; dir=$(cg_dir "$1")
  case $CG_MODE in
    v1)
      echo "$2 $3" >>"$dir/blkio.throttle.read_bps_device"
      echo "$2 $3" >>"$dir/blkio.throttle.write_bps_device" ;;
    v2) echo "$2 rbps=$3 wbps=$3" >>"$dir/io.max" ;;
    *) return 1 ;;
  esac
}

# cg_procs NAME: the file a pid is written to to move that process into the bed's cgroup.
cg_procs() { echo "$(cg_dir "$1")/cgroup.procs"; }

# cg_remove DIR: move the tasks left in the cgroup DIR to its parent (the hierarchy's root), remove DIR.
cg_remove() {
  local dir=$1 pid
  [ -e "$dir" ] || return 0
  if [ -e "$dir/cgroup.procs" ]; then
    while read -r pid; do
      echo "$pid" >>"${dir%/*}/cgroup.procs" 2>/dev/null || true
    done <"$dir/cgroup.procs"
  fi
  rmdir "$dir" 2>/dev/null
}
