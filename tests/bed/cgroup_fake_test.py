#!/usr/bin/env python3
"""The test bed's cgroup writing (tests/bed/cgroup.sh) against FAKE cgroup roots: temp directories laid out
like a cgroup-v1 blkio or a cgroup-v2 hierarchy, selected with USBSAT_CGROUP_ROOT. Every file the bed writes
is compared with the exact lines expected.

    cgroup_fake_test.py CASE     CASE: functions | up

functions  the cgroup.sh functions alone (no root, no loop devices): detection of v1 / pure v2 / hybrid v2 /
           nothing usable, enabling `io` in the parent's cgroup.subtree_control, io.max and blkio lines,
           moving a process in, removal; and `testbed.sh` exiting 77 with the reason when nothing is usable.
up         (root + loop devices, else exit 77) a whole `testbed.sh up` / `run` / `down` on a fake v2 root: the
           caps land in io.max on the inner layers' MAJ:MIN (never on a device the engine opens), the process
           of `run` lands in the bed's cgroup.procs.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402  (tests/support/checks.py: one rule for every script)
from checks import check, finish, skip  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "cgroup.sh")
TESTBED = os.path.join(HERE, "testbed.sh")
checks.verbose = True


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    """The file's text; None when it is missing (never equal to an expected text)."""
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


def files(d):
    """Every file under d, relative, sorted (the whole fake tree, to catch writes to unexpected places)."""
    out = []
    for base, _, names in os.walk(d):
        out += [os.path.relpath(os.path.join(base, n), d) for n in names]
    return sorted(out)


def lib(root, script):
    """Run `script` in bash after sourcing cgroup.sh with the fake root; returns (rc, stdout, stderr)."""
    r = subprocess.run(["bash", "-c", f'. "{LIB}"\n{script}'], env=dict(os.environ, USBSAT_CGROUP_ROOT=root),
                       capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def fake_v2(root, controllers="cpuset cpu io memory pids", subtree="cpu memory"):
    write(f"{root}/cgroup.controllers", controllers + "\n")
    write(f"{root}/cgroup.subtree_control", subtree + "\n" if subtree else "")
    write(f"{root}/cgroup.procs", "1\n")


def case_functions():
    # Pure cgroup v2 (Debian 12's default): io enabled in the root's subtree_control, io.max lines per device.
    with tempfile.TemporaryDirectory() as root:
        fake_v2(root)
        rc, out, err = lib(root, """
            cg_detect && echo "$CG_MODE $CG_PARENT" || exit 10
            cg_prepare || exit 11
            cg_create bed && cg_throttle bed 7:0 40000000 && cg_throttle bed 7:3 30000000 || exit 12
            echo 4242 >>"$(cg_procs bed)"
        """)
        check(rc == 0, f"v2: the functions succeed (rc {rc}; {err.strip()})")
        check(out.split() == ["v2", root], f"v2: detected at the root ({out.strip()})")
        check(read(f"{root}/cgroup.subtree_control") == "cpu memory\n+io\n",
              "v2: '+io' written to the parent's cgroup.subtree_control")
        check(read(f"{root}/bed/io.max") == "7:0 rbps=40000000 wbps=40000000\n7:3 rbps=30000000 wbps=30000000\n",
              f"v2: io.max has one rbps/wbps line per device ({read(f'{root}/bed/io.max')!r})")
        check(read(f"{root}/bed/cgroup.procs") == "4242\n", "v2: the process goes to the bed's cgroup.procs")
        check(files(root) == ["bed/cgroup.procs", "bed/io.max", "cgroup.controllers", "cgroup.procs",
                              "cgroup.subtree_control"], f"v2: nothing else written ({files(root)})")

        # Removal: stragglers move to the parent's cgroup.procs; a fake directory still holds its files, so
        # rmdir fails (the kernel removes interface files with the directory) and that is reported.
        rc, _, _ = lib(root, f'cg_remove "{root}/bed"')
        check(read(f"{root}/cgroup.procs") == "1\n4242\n", "v2: cg_remove moves the bed's tasks to the parent")
        check(rc != 0 and os.path.isdir(f"{root}/bed"), "v2: cg_remove reports a directory it could not remove")
        for f in ("io.max", "cgroup.procs"):
            os.unlink(f"{root}/bed/{f}")
        rc, _, _ = lib(root, f'cg_remove "{root}/bed"')
        check(rc == 0 and not os.path.exists(f"{root}/bed"), "v2: cg_remove removes the empty bed cgroup")

    # io already enabled: subtree_control is left alone.
    with tempfile.TemporaryDirectory() as root:
        fake_v2(root, subtree="cpu io memory")
        rc, _, err = lib(root, "cg_detect && cg_prepare")
        check(rc == 0 and read(f"{root}/cgroup.subtree_control") == "cpu io memory\n",
              f"v2: io already in subtree_control, nothing written (rc {rc}; {err.strip()})")

    # The kernel refuses to enable io (a non-root cgroup with processes): a clear reason. A directory in place
    # of the file makes the write fail even for root.
    with tempfile.TemporaryDirectory() as root:
        fake_v2(root)
        os.unlink(f"{root}/cgroup.subtree_control")
        os.mkdir(f"{root}/cgroup.subtree_control")
        rc, out, _ = lib(root, 'cg_detect && { cg_prepare; echo "rc=$? $CG_WHY"; }')
        check(out.startswith("rc=1 cannot enable the io controller") and "leaf cgroup" in out,
              f"v2: refusal to enable io is explained ({out.strip()})")

    # Hybrid (systemd's "unified" mount next to v1 controllers) with io in the v2 part.
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(f"{root}/cpu")
        fake_v2(f"{root}/unified", subtree="")
        rc, out, err = lib(root, """
            cg_detect && echo "$CG_MODE $CG_PARENT" && cg_prepare && cg_create bed && cg_throttle bed 8:16 1000
        """)
        check(rc == 0 and out.split() == ["v2", f"{root}/unified"], f"hybrid: v2 under unified/ ({out.strip()})")
        check(read(f"{root}/unified/cgroup.subtree_control") == "+io\n", "hybrid: io enabled in unified/")
        check(read(f"{root}/unified/bed/io.max") == "8:16 rbps=1000 wbps=1000\n", "hybrid: io.max in unified/bed")

    # cgroup v1 blkio (this project's machines): the two throttle files, "MAJ:MIN BPS" lines, no io.max.
    with tempfile.TemporaryDirectory() as root:
        write(f"{root}/blkio/blkio.throttle.read_bps_device", "")
        write(f"{root}/blkio/cgroup.procs", "1\n")
        fake_v2(f"{root}/unified", controllers="hugetlb")  # as here: io is bound to v1
        rc, out, err = lib(root, """
            cg_detect && echo "$CG_MODE $CG_PARENT" && cg_prepare && cg_create bed &&
            cg_throttle bed 7:0 40000000 && cg_throttle bed 7:3 30000000
        """)
        check(rc == 0 and out.split() == ["v1", f"{root}/blkio"], f"v1: blkio detected ({out.strip()}{err})")
        want = "7:0 40000000\n7:3 30000000\n"
        check(read(f"{root}/blkio/bed/blkio.throttle.read_bps_device") == want, "v1: read_bps_device lines")
        check(read(f"{root}/blkio/bed/blkio.throttle.write_bps_device") == want, "v1: write_bps_device lines")
        check(files(f"{root}/blkio/bed") == ["blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device"],
              f"v1: nothing else written in the bed's cgroup ({files(f'{root}/blkio/bed')})")
        check(read(f"{root}/unified/cgroup.subtree_control") == "cpu memory\n", "v1: the v2 part is left alone")

    # Neither: a v2 hierarchy without io (as this machine's unified/) and no blkio -> not usable, and why.
    with tempfile.TemporaryDirectory() as root:
        fake_v2(f"{root}/unified", controllers="hugetlb")
        rc, out, _ = lib(root, 'cg_detect || echo "why: $CG_WHY"')
        check(out.startswith("why: neither cgroup-v1 blkio") and "io controller" in out,
              f"neither: detection fails with the reason ({out.strip()})")
        r = subprocess.run([TESTBED, "drives"], env=dict(os.environ, USBSAT_CGROUP_ROOT=root,
                                                         TESTBED_NAME="usbsat-fake-none"),
                           capture_output=True, text=True)
        check(r.returncode == 77, f"neither: testbed.sh exits 77 (got {r.returncode})")
        want = "needs root" if os.geteuid() != 0 else "neither cgroup-v1 blkio"
        check(r.stderr.startswith("testbed: SKIP: ") and want in r.stderr and r.stderr.count("\n") == 1,
              f"neither: one line with the reason ({r.stderr.strip()})")


def losetup_back(dev):
    return subprocess.run(["losetup", "-n", "-O", "BACK-FILE", dev], capture_output=True, text=True,
                          check=True).stdout.strip()


def devnum(dev):
    st = os.stat(dev)
    return f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"


def case_up():
    if os.geteuid() != 0:
        skip("needs root")
    if not os.path.exists("/dev/loop-control"):
        skip("no loop devices")
    with tempfile.TemporaryDirectory() as root:
        fake_v2(root)
        env = dict(os.environ, USBSAT_CGROUP_ROOT=root, TESTBED_NAME="usbsat-fake-v2", TESTBED_DRIVE_MB="4")
        subprocess.run([TESTBED, "down"], env=env, capture_output=True)
        r = subprocess.run([TESTBED, "up", "bus:a:40M:2:30M", "bus:b:5M:1", "bus:c:0:1", "solo:x"], env=env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stderr, file=sys.stderr)
        check(r.returncode == 0, f"up on a fake v2 root exits 0 (got {r.returncode})")
        try:
            drives = {}
            for line in r.stdout.splitlines():
                bus, _, dev = line.split()
                drives.setdefault(bus, []).append(dev)
            bus_a = {losetup_back(losetup_back(d)) for d in drives["a"]}
            mids = [losetup_back(d) for d in drives["a"]]
            bus_b = losetup_back(drives["b"][0])
            check(len(bus_a) == 1 and bus_b.startswith("/dev/loop"), f"layers found: a={bus_a} b={bus_b}")
            want = [f"{devnum(bus_a.pop())} rbps=40000000 wbps=40000000"]
            want += [f"{devnum(m)} rbps=30000000 wbps=30000000" for m in mids]
            want += [f"{devnum(bus_b)} rbps=5000000 wbps=5000000"]
            got = read(f"{root}/usbsat-fake-v2/io.max").splitlines()
            check(got == want, f"io.max: the bus and per-drive layers, in order ({got} vs {want})")
            opened = {devnum(d) for ds in drives.values() for d in ds}
            check(not any(line.split()[0] in opened for line in got), "no cap on a device the engine opens")
            check(read(f"{root}/cgroup.subtree_control") == "cpu memory\n+io\n", "io enabled in the parent")

            r = subprocess.run([TESTBED, "run", "--", "sh", "-c", "echo $$"], env=env, capture_output=True, text=True)
            check(r.returncode == 0 and read(f"{root}/usbsat-fake-v2/cgroup.procs") == r.stdout,
                  f"run: the command's own pid ({r.stdout.strip()}) was written to the bed's cgroup.procs")
        finally:
            # The kernel removes a cgroup's interface files with it; on the fake tree the test does.
            for f in ("io.max", "cgroup.procs"):
                if os.path.exists(f"{root}/usbsat-fake-v2/{f}"):
                    os.unlink(f"{root}/usbsat-fake-v2/{f}")
            r = subprocess.run([TESTBED, "down"], env=env, capture_output=True, text=True)
            check(r.returncode == 0, f"down exits 0 (got {r.returncode}; {r.stderr.strip()})")
            check(not os.path.exists(f"{root}/usbsat-fake-v2"), "down removed the bed's cgroup")


CASES = {"functions": case_functions, "up": case_up}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    CASES[sys.argv[1]]()
    sys.exit(finish())
