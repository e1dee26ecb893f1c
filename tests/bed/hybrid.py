"""The hybrid bed: a generated sysfs layout (tests/fixtures/sysfsgen.py) whose drives lead to real, capped block
devices of the loop-device test bed (testbed.sh), so the default path of `usbsat saturate` and `usbsat plan`
(groups and modelled capacities from the scanned topology) runs end to end with real I/O.

How: the generator's bed mode (--devname sdc=NAME/sdc) writes the block device's DEVNAME in its sysfs `uevent`
as a path outside the tree and leaves its node out of the tree's dev/; /dev/NAME/sdc is a symlink to the bed's
loop device. umockdev's preload redirects /sys and the tree's own /dev nodes only, so usbsat scans the layout
and opens the bed's devices; it runs inside the bed's cgroup (testbed.sh run), where the caps apply.

    with HybridBed("pcie", "asm1042-card", [BedBus("card", "400M", "300M", ["sdb", "sdc"])]) as bed:
        r = bed.usbsat(USBSAT, "saturate", "--json", "sdb", "sdc")

Names are unique per process (usbsat-hy-<pid>-<case>): two runs at once never share a bed, and beds left by
a killed run (its pid gone) are torn down by the next run. Root only: exit 77 (SKIP) otherwise, also when
umockdev, loop devices or a throttling cgroup are missing.
"""
import dataclasses
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import skip  # noqa: E402  (tests/support/checks.py: one rule for every script)

HERE = os.path.dirname(os.path.abspath(__file__))
TESTBED = os.path.join(HERE, "testbed.sh")
FIXTURES = os.path.join(os.path.dirname(HERE), "fixtures")
SYSFSGEN = os.path.join(FIXTURES, "sysfsgen.py")
WITH_FIXTURE = os.path.join(FIXTURES, "with-fixture.sh")
PREFIX = "usbsat-hy-"
STATE_ROOT = "/run/usbsat-testbed"  # testbed.sh keeps one directory per bed name here
# The generated layout goes to memory (writing thousands of small sysfs files to a busy disk takes seconds).
TMP_ROOT = "/dev/shm" if os.path.isdir("/dev/shm") else None


@dataclasses.dataclass
class BedBus:
    """One emulated bus of the bed: `cap` for all its drives together, `drive_cap` for each ("0": uncapped),
    carrying the layout's block devices `devs` (sdb, sdc, ...)."""
    name: str
    cap: str
    drive_cap: str
    devs: list

    def spec(self):
        return f"bus:{self.name}:{self.cap}:{len(self.devs)}:{self.drive_cap}"


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap_stale():
    """Tear down hybrid beds whose process is gone (a run killed by a timeout): bed, /dev links, layout."""
    leftovers = glob.glob(os.path.join(STATE_ROOT, PREFIX + "*")) + glob.glob("/dev/" + PREFIX + "*")
    leftovers += glob.glob(os.path.join(TMP_ROOT or tempfile.gettempdir(), PREFIX + "*"))
    for state in leftovers:
        name = os.path.basename(state)
        try:
            pid = int(name[len(PREFIX):].split("-", 1)[0])
        except ValueError:
            continue
        if _pid_alive(pid):
            continue
        if not state.startswith(STATE_ROOT):
            shutil.rmtree(state, ignore_errors=True)
        else:
            subprocess.run([TESTBED, "down"], env=dict(os.environ, TESTBED_NAME=name), capture_output=True)


class HybridBed:
    def __init__(self, case, layout, buses):
        if os.geteuid() != 0:
            skip("needs root")
        self.name = f"{PREFIX}{os.getpid()}-{case}"
        self.layout = layout
        self.buses = buses
        self.env = dict(os.environ, TESTBED_NAME=self.name)
        self.devdir = "/dev/" + self.name
        self.tmp = None
        self.up = False
        self.drives = {}  # layout block device -> the bed's loop device

    def __enter__(self):
        # SIGTERM (ctest's timeout, a user) must still tear the bed down: turn it into an exception.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        reap_stale()
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def _build(self):
        self.up = True  # from here on close() runs `down`, which is safe after a partial (interrupted) `up`
        r = subprocess.run([TESTBED, "up", *[b.spec() for b in self.buses]], env=self.env, capture_output=True,
                           text=True)
        if r.returncode == 77:
            self.close()
            skip(r.stderr.strip().removeprefix("testbed: SKIP: "))
        if r.returncode != 0:
            raise RuntimeError(f"testbed up failed: {r.stderr.strip()}")
        loops = {}
        for line in r.stdout.splitlines():
            if line.strip():
                bus, idx, dev = line.split()
                loops[(bus, int(idx))] = dev
        os.makedirs(self.devdir)
        for b in self.buses:
            for i, dev in enumerate(b.devs):
                self.drives[dev] = loops[(b.name, i)]
                os.symlink(loops[(b.name, i)], os.path.join(self.devdir, dev))
        self.tmp = tempfile.mkdtemp(prefix=self.name + "-", dir=TMP_ROOT)
        args = [sys.executable, SYSFSGEN, self.tmp, "--scenario", self.layout]
        for dev in self.drives:
            args += ["--devname", f"{dev}={self.name}/{dev}"]
        subprocess.run(args, check=True)
        self.tree = os.path.join(self.tmp, self.layout)
        with open(self.tree + ".expected.json") as f:
            self.expected = json.load(f)

    def usbsat(self, usbsat, *argv, capped=True):
        """Run usbsat on the layout (umockdev), inside the bed's cgroup unless `capped` is False."""
        cmd = [WITH_FIXTURE, self.tree, "--", usbsat, *argv]
        if capped:
            cmd = [TESTBED, "run", "--", *cmd]
        r = subprocess.run(cmd, env=self.env, capture_output=True, text=True)
        if r.returncode == 77:
            skip(r.stderr.strip())
        return r

    def close(self):
        if self.devdir and os.path.isdir(self.devdir):
            shutil.rmtree(self.devdir, ignore_errors=True)
        if self.up:
            subprocess.run([TESTBED, "down"], env=self.env, check=False)
            self.up = False
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None

    def __exit__(self, *exc):
        self.close()
