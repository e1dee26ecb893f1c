#!/usr/bin/env python3
"""`usbsat top --group` on the loop-device test bed while `usbsat load` runs (root only; exit 77 = SKIP).

    top_e2e_test.py USBSAT

Four drives on one 40 MB/s bus (testbed.sh `bus:a:40M:4`), all four loaded at once by `usbsat load`; meanwhile
`usbsat top --group bus=<the four>@40M --count 3 --json` must show the group at 40 MB/s ± 10 % and >= 90 %
utilisation, marked as the bottleneck, in every sample, with each drive's bytes from /sys/block/*/stat.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from e2e_test import Bed, check, finish, skip  # noqa: E402


def measure(bed, usbsat, d):
    load = bed.popen(usbsat, "load", "--bs", "64k", "--qd", "16", "--ramp", "1", "--runtime", "7",
                     "--concurrency", "4", *d)
    try:
        time.sleep(2)  # the load is up and the shared throttle settled
        group = f"bus={','.join(d)}@40M"
        r = subprocess.run([usbsat, "top", "--group", group, "--count", "3", "--json"], capture_output=True,
                           text=True, timeout=60)
        screen = subprocess.run([usbsat, "top", "--group", group, "--count", "1"], capture_output=True, text=True,
                                timeout=60)
    finally:
        out, err = load.communicate(timeout=120)
    check(load.returncode == 0, f"usbsat load exits 0 (got {load.returncode}): {err[-300:]}")
    check(r.returncode == 0, f"usbsat top exits 0 (got {r.returncode}): {r.stderr[-300:]}")
    print(screen.stdout)
    return [json.loads(line) for line in r.stdout.splitlines()]


def rates(samples):
    return [next(n for n in s["nodes"] if n["id"] == "group:bus") for s in samples]


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    usbsat = argv[0]
    if os.geteuid() != 0:
        skip("needs root (loop devices and cgroup caps)")
    with Bed("top", "bus:a:40M:4") as bed:
        d = bed.drives["a"]
        samples = measure(bed, usbsat, d)
        check(len(samples) == 3, f"3 samples (got {len(samples)})")
        got = rates(samples)
        if not all(abs(g["mbs"] - 40) <= 4 for g in got):
            # a loaded 2-core machine can starve the loop workers for a moment (see e2e_test.py): one re-run
            print("note  a sample outside 40 ± 10 %, measuring once more: " + str([g["mbs"] for g in got]))
            got = rates(measure(bed, usbsat, d))
        for i, g in enumerate(got, 1):
            print(f"sample {i}: {g['mbs']:.1f} MB/s, utilisation {g['utilisation']:.2f}")
            check(g["devices"] == [x[len('/dev/'):] for x in d], f"the group's devices: {g['devices']}")
            check(abs(g["mbs"] - 40) <= 4, f"sample {i}: the bus at 40 ± 10 % MB/s (got {g['mbs']:.1f})")
            check(g["utilisation"] >= 0.9 and g["bottleneck"], f"sample {i}: >= 90 % and the bottleneck")
            check(g["capacity_mbs"] == 40, f"sample {i}: capacity 40 (got {g['capacity_mbs']})")
    return finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
