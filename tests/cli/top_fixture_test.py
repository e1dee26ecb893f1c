#!/usr/bin/env python3
"""`usbsat top` on a fixture whose stat files this test rewrites between two samples (umockdev preload).

    top_fixture_test.py USBSAT WITH_FIXTURE SCENARIO_DIR SCHEMA_DIR

On a copy of the asm1042-card tree (sdb on 4-1, sdc on 4-2, both behind the card's PCIe 2.0 x1 link): the first
sample sees no I/O; then sdb's stat gains N sectors read and M written, and the second sample must show exactly
(N+M)*512 bytes over the interval it reports, on every node whose path carries sdb and nowhere else, with the
capacity the bandwidth model gives (the same figure as `plan --predict`'s link ceiling for sdb) and the
bottleneck mark at >= 90 %. A device whose size drops to 0 between the samples (gone: a detached loop device, an
emptied card reader) is missing from its nodes, not 0.0 MB/s. Also: JSON Lines valid against top-sample.schema.json, plain text without escape
sequences when piped, --interval out of range -> exit 2.
Exit 0 pass, 1 fail, 77 skip (no umockdev preload; python3-jsonschema missing outside CI).
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_e2e  # noqa: E402  (Schemas; skips when jsonschema is missing)
from checks import check, finish  # noqa: E402  (tests/support/checks.py, on the path schema_e2e set)

SDB_STAT = ("sys/devices/pci0000:00/0000:00:1c.4/0000:03:00.0/usb4/4-1/4-1:1.0/host1/target1:0:0/1:0:0:0/"
            "block/sdb/stat")


def bump(path, read_sectors, write_sectors):
    with open(path) as f:
        fields = f.read().split()
    fields[2] = str(int(fields[2]) + read_sectors)
    fields[6] = str(int(fields[6]) + write_sectors)
    with open(path, "w") as f:
        f.write(" ".join(fields) + "\n")


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    usbsat, with_fixture, scenario, schema_dir = argv
    schemas = schema_e2e.Schemas(schema_dir)
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "tree")
        # Only the tree: umockdev leaves its uevent sockets (event6) in a fixture directory that ran under it.
        shutil.copytree(scenario, tree, symlinks=True,
                        ignore=lambda d, names: [n for n in names
                                                 if stat.S_ISSOCK(os.lstat(os.path.join(d, n)).st_mode)])
        u = [with_fixture, tree, "--", usbsat]

        pred = subprocess.run(u + ["plan", "--predict", "--json"], capture_output=True, text=True, timeout=120)
        if pred.returncode == 77:
            print("SKIP: umockdev preload not available")
            return 77
        ceiling = {d["dev"]: d["demand_mbs"] for d in json.loads(pred.stdout)["drives"]}

        p = subprocess.Popen(u + ["top", "--json", "--interval", "1", "--count", "2"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        first = p.stdout.readline()
        # 700 MB read + 100 MB written by sdb during the second interval.
        n, m = 700_000_000 // 512, 100_000_000 // 512
        bump(os.path.join(tree, SDB_STAT), n, m)
        second = p.stdout.readline()
        rest, err = p.communicate(timeout=60)
        check(p.returncode == 0, f"top --count 2 exits 0 (got {p.returncode}): {err.strip()[:300]}")
        check(rest == "", f"exactly 2 lines: extra {rest[:200]!r}")
        for line in (first, second):
            schemas.check("top-sample", line, "top --json")
        a, b = json.loads(first), json.loads(second)
        check(a["sample"] == 1 and b["sample"] == 2, "samples are numbered 1, 2")
        check(all(x["mbs"] == 0 for x in a["nodes"]), f"no I/O in the first interval: {a['nodes']}")
        want = (n + m) * 512 / b["interval_s"] / 1e6
        ids = [x["id"] for x in b["nodes"]]
        check("drive_link:4-1" in ids and "pcie_link:0000:03:00.0" in ids, f"sdb's link and the card's PCIe link: {ids}")
        for x in b["nodes"]:
            if "sdb" in x["devices"]:
                check(abs(x["mbs"] - want) < 1e-6 * want, f"{x['id']}: {x['mbs']} MB/s, want {want}")
                check(abs(x["read_mbs"] - n * 512 / b["interval_s"] / 1e6) < 1e-3, f"{x['id']}: read MB/s")
                if x["capacity_mbs"]:
                    check(abs(x["utilisation"] - x["mbs"] / x["capacity_mbs"]) < 1e-9, f"{x['id']}: utilisation")
                    check(x["bottleneck"] == (x["utilisation"] >= 0.9), f"{x['id']}: bottleneck mark at 90 %")
            else:
                check(x["mbs"] == 0, f"{x['id']} carries no sdb I/O: {x['mbs']}")
            if x["id"] == "drive_link:4-1":
                check(abs(x["capacity_mbs"] - ceiling["sdb"]) < 1e-6,
                      f"sdb's link capacity {x['capacity_mbs']} = plan --predict's link ceiling {ceiling['sdb']}")
                check(x["bottleneck"], "sdb's own link is the bottleneck at 800 MB/s")
        util = [x["utilisation"] for x in b["nodes"] if x["utilisation"] is not None]
        check(util == sorted(util, reverse=True), f"sorted by utilisation: {util}")

        # sdc goes away between the samples the way a detached loop device or an emptied card reader does: its
        # stat file still reads (all zeros would be 0.0 MB/s forever), its size is 0. Its nodes say it is gone.
        p = subprocess.Popen(u + ["top", "--json", "--interval", "1", "--count", "2"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        p.stdout.readline()
        with open(os.path.join(tree, SDB_STAT.replace("4-1", "4-2").replace("host1/target1:0:0/1:0:0:0",
                                                                              "host2/target2:0:0/2:0:0:0")
                               .replace("sdb/stat", "sdc/size")), "w") as f:
            f.write("0\n")
        second = json.loads(p.stdout.readline())
        p.communicate(timeout=60)
        for x in second["nodes"]:
            if "sdc" in x["devices"]:
                check(x["missing"] == ["sdc"], f"{x['id']}: sdc (size 0: gone) is missing, not 0.0 MB/s: {x}")
        t = subprocess.run(u + ["top", "--interval", "0.1", "--count", "2"], capture_output=True, text=True, timeout=60)
        check(t.returncode == 0, f"text top exits 0: {t.stderr[:200]}")
        check("\x1b" not in t.stdout, "piped text has no escape sequences")
        check(t.stdout.count("usbsat top: sample") == 2 and "NODE" in t.stdout, f"two plain frames: {t.stdout[:300]}")
        for bad in ("0", "0.05", "nan", "4000"):
            r = subprocess.run(u + ["top", "--interval", bad, "--count", "1"], capture_output=True, text=True,
                               timeout=60)
            check(r.returncode == 2, f"--interval {bad}: exit 2 (got {r.returncode})")
        r = subprocess.run(u + ["top", "--group", "x=/dev/sdb", "--count", "1"], capture_output=True, text=True, timeout=60)
        check(r.returncode == 2 and "group" in r.stderr, f"a one-device --group is refused: {r.returncode}")
    return finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
