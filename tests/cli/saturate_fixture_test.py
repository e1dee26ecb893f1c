#!/usr/bin/env python3
"""`usbsat saturate --dry-run` on generated sysfs fixtures under umockdev: grouping and phase plan, no I/O.

    saturate_fixture_test.py USBSAT WITH_FIXTURE FIXTURES_DIR

Exit 77 when the umockdev preload is missing.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402  (tests/support/checks.py: one rule for every script)
from checks import check, finish, skip  # noqa: E402

checks.verbose = True


def run(with_fixture, fixture, *argv):
    r = subprocess.run([with_fixture, fixture, "--", *argv], capture_output=True, text=True)
    if r.returncode == 77:
        skip(r.stderr.strip())
    return r


def main(usbsat, with_fixture, fixtures):
    # ASM1042 card: two UAS SSDs on the card share controller 03:00.0 (and its PCIe link and root port: the
    # same drives, one group); the chipset's lone drive is in no group.
    r = run(with_fixture, os.path.join(fixtures, "asm1042-card"), usbsat, "saturate", "--dry-run", "--json")
    check(r.returncode == 0, f"asm1042-card: exit 0 (got {r.returncode}; {r.stderr.strip()})")
    plan = json.loads(r.stdout)
    check(plan["dry_run"] is True, "dry_run: true")
    groups = plan["groups"]
    check(len(groups) == 1, f"one group ({[g['name'] for g in groups]})")
    g = groups[0]
    check(g["node"]["kind"] == "controller" and g["node"]["id"] == "0000:03:00.0",
          f"the group is the ASM1042 controller: {g['node']}")
    check(len(g["drives"]) == 2, f"two drives: {g['drives']}")
    check(set(g["same_drives_as"]) >= {"0000:00:1c.4"}, f"the root port sees the same drives: {g['same_drives_as']}")
    check(g["qd_reason"].startswith("UAS"), f"UAS drives get the deep queue: {g['qd_reason']}")
    check([p["n"] for p in g["phases"]] == [1, 1, 2], f"phases: each alone, then both: {g['phases']}")
    check(all(g["drive_paths"][d]["path"] == "/dev/" + d for d in g["drives"]), "device paths")
    check(all(g["drive_paths"][d]["where"].startswith("port ") for d in g["drives"]), "drive locations")

    # Text form of the same plan.
    r = run(with_fixture, os.path.join(fixtures, "asm1042-card"), usbsat, "saturate", "--dry-run")
    check(r.returncode == 0 and "Group 0000:03:00.0" in r.stdout and "2 at once" in r.stdout,
          "text dry run names the group and the 2-at-once phase")

    # PCIe switch card: four drives on four controllers behind one switch uplink: 1, 2, 4 at once.
    r = run(with_fixture, os.path.join(fixtures, "pcie-switch-card"), usbsat, "saturate", "--dry-run", "--json")
    check(r.returncode == 0, f"pcie-switch-card: exit 0 (got {r.returncode})")
    groups = json.loads(r.stdout)["groups"]
    check(len(groups) == 1 and len(groups[0]["drives"]) == 4, "one group of four drives")
    check(groups and [p["n"] for p in groups[0]["phases"]][-2:] == [2, 4], "then 2 and 4 at once")
    check(groups and groups[0]["node"]["kind"] == "pci", f"grouped at the PCIe switch: {groups[0]['node']}")

    # Restricting to named drives that share nothing: nothing to measure, exit 0.
    one = groups[0]["drives"][0] if groups else "sdb"
    r = run(with_fixture, os.path.join(fixtures, "pcie-switch-card"), usbsat, "saturate", "--dry-run", one)
    check(r.returncode == 0 and "nothing to measure" in r.stderr, f"one drive: nothing to measure ({r.stderr.strip()})")
    # A device that is not a USB drive: usage error pointing at --group.
    r = run(with_fixture, os.path.join(fixtures, "pcie-switch-card"), usbsat, "saturate", "--dry-run", "/dev/nvme9n1")
    check(r.returncode == 2 and "--group" in r.stderr, f"non-USB device: exit 2 with a --group hint ({r.returncode})")

    # No USB drives at all: say so, explain --group, exit 0; JSON has no groups.
    with tempfile.TemporaryDirectory() as empty:
        for d in ("sys/bus/usb/devices", "sys/bus/pci/devices", "sys/class/block", "sys/devices"):
            os.makedirs(os.path.join(empty, d))
        r = run(with_fixture, empty, usbsat, "saturate", "--json")
        check(r.returncode == 0, f"no USB drives: exit 0 (got {r.returncode}; {r.stderr.strip()})")
        check("nothing to measure" in r.stderr and "--group" in r.stderr, "message says how to use --group")
        check(r.returncode != 0 or json.loads(r.stdout)["groups"] == [], "JSON: no groups")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:])
    sys.exit(finish())
