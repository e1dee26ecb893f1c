#!/usr/bin/env python3
"""End-to-end test of `usbsat plan` on one generated sysfs scenario, under umockdev.

Runs the real binary through tests/fixtures/with-fixture.sh:
  1. `plan --predict --json`: exactly one entry per USB drive of <scenario>.expected.json whose medium is present
     (size > 0 in the fixture's own sysfs), the documented keys, predicted <= demand, the aggregate equal to the
     max-flow bound (on a tree they agree);
  2. `plan --drives N --json` for N = 1, 2: N placements on distinct connectors that are free in the scenario
     (no device of expected.json sits on either of their ports), each on a controller of the scenario with a
     predicted rate, min <= every rate; identical output when run twice;
  3. `plan DEV... --json` on the scenario's USB drives: every drive placed, moves counted consistently;
  4. the text forms run and mention every drive.
Exit 77 (skip) when the umockdev preload is missing.

usage: plan_e2e.py USBSAT WITH_FIXTURE SCENARIO_DIR EXPECTED_JSON
"""
import json
import os
import subprocess
import sys

failures = []


def fail(msg):
    failures.append(msg)


def run(usbsat, with_fixture, scenario_dir, args, ok=(0,)):
    p = subprocess.run([with_fixture, scenario_dir, "--", usbsat, *args], capture_output=True, text=True)
    if p.returncode == 77:
        print(f"SKIP: {p.stderr.strip()}")
        sys.exit(77)
    if p.returncode not in ok:
        fail(f"usbsat {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    if "no USB host controller" in p.stderr:
        fail(f"usbsat {' '.join(args)} saw no USB controller in the fixture")
    return p.stdout


def has_medium(scenario_dir, dev):
    """The fixture tree's own sysfs size (512-byte sectors), read without usbsat: 0 is an empty card slot."""
    try:
        with open(os.path.join(scenario_dir, "sys", "class", "block", dev, "size"), encoding="ascii") as f:
            return int(f.read().strip() or 0) > 0
    except (OSError, ValueError) as e:
        fail(f"cannot read the fixture's size of {dev}: {e}")
        return True


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    usbsat, with_fixture, scenario_dir, expected_path = argv[1:]
    with open(expected_path, encoding="utf-8") as f:
        expected = json.load(f)
    usb_drives = sorted(d["dev"] for d in expected.get("drives", []) if d.get("usb"))
    with_medium = sorted(d for d in usb_drives if has_medium(scenario_dir, d))
    # Ports with a device on them, from the generator's device list (not from usbsat's occupant field).
    occupied_ports = {d["port"] for d in expected.get("usb_devices", []) if d.get("port")}
    controllers = {c["pci"] for c in expected.get("controllers", [])}

    # 1. --predict
    pred = json.loads(run(usbsat, with_fixture, scenario_dir, ["plan", "--predict", "--json"]))
    devs = sorted(d["dev"] for d in pred["drives"])
    # Every USB drive, except card-reader slots without a medium (size 0), which --predict leaves out.
    if devs != with_medium:
        fail(f"--predict drives {devs}, the scenario's USB drives with a medium are {with_medium}")
    for d in pred["drives"]:
        for k in ("dev", "demand_mbs", "predicted_mbs", "bottleneck"):
            if k not in d:
                fail(f"--predict entry lacks {k}: {d}")
        if d["predicted_mbs"] > d["demand_mbs"] + 0.05:
            fail(f"{d['dev']}: predicted {d['predicted_mbs']} above demand {d['demand_mbs']}")
        b = d["bottleneck"]
        if b is not None and not {"node", "kind", "capacity_mbs"} <= b.keys():
            fail(f"{d['dev']}: bottleneck lacks keys: {b}")
    if abs(pred["aggregate_mbs"] - pred["max_flow_mbs"]) > 0.2:
        fail(f"aggregate {pred['aggregate_mbs']} != max-flow bound {pred['max_flow_mbs']}")

    # 2. --drives N
    for n in (1, 2):
        args = ["plan", "--drives", str(n), "--json"]
        out = run(usbsat, with_fixture, scenario_dir, args, ok=(0, 4))
        if out != run(usbsat, with_fixture, scenario_dir, args, ok=(0, 4)):
            fail(f"plan --drives {n} --json differs between two runs")
        plan = json.loads(out)
        if plan["mode"] != "new":
            fail(f"mode {plan['mode']}")
        if plan["search"]["usable_connectors"] < n:
            if plan["placements"]:
                fail("placements without enough connectors")
            continue
        ps = plan["placements"]
        if len(ps) != n:
            fail(f"--drives {n}: {len(ps)} placements")
            continue
        ids = [p["connector"]["id"] for p in ps]
        if len(set(ids)) != n:
            fail(f"--drives {n}: connectors not distinct: {ids}")
        for p in ps:
            if p["connector"]["occupant"] is not None:
                fail(f"--drives {n}: {p['connector']['id']} is occupied by {p['connector']['occupant']}")
            busy = {p["connector"]["usb2_port"], p["connector"]["usb3_port"]} & occupied_ports
            if busy:
                fail(f"--drives {n}: {p['connector']['id']} is not free in the scenario: a device sits on {sorted(busy)}")
            if p["controller"]["pci"] not in controllers:
                fail(f"--drives {n}: controller {p['controller']['pci']!r} is not one of the scenario's {sorted(controllers)}")
            if p["predicted_mbs"] + 0.05 < plan["min_mbs"]:
                fail(f"--drives {n}: {p['drive']} below the reported minimum")
        if abs(sum(p["predicted_mbs"] for p in ps) - plan["total_mbs"]) > 0.5:
            fail(f"--drives {n}: total {plan['total_mbs']} != sum of the placements")

    # 3. re-place the scenario's USB drives
    if usb_drives:
        plan = json.loads(run(usbsat, with_fixture, scenario_dir, ["plan", *usb_drives[:4], "--json"]))
        placed = [p["drive"] for p in plan["placements"]]
        if sorted(placed) != sorted(usb_drives[:4]) and not plan["diagnostics"]:
            fail(f"re-place placed {placed}, asked {usb_drives[:4]}")
        if plan["moves"] != sum(1 for p in plan["placements"] if p["moved"]):
            fail("moves does not match the moved placements")
        if plan["current"] is None:
            fail("re-place without the current prediction")
        elif plan["min_mbs"] + 0.05 < min(d["predicted_mbs"] for d in plan["current"]["drives"]):
            fail(f"the plan's minimum {plan['min_mbs']} is below the current placement's")

    # 4. text forms
    text = run(usbsat, with_fixture, scenario_dir, ["plan", "--predict"])
    for d in devs:
        if d not in text:
            fail(f"--predict text does not mention {d}")
    text = run(usbsat, with_fixture, scenario_dir, ["plan", "--drives", "2"], ok=(0, 4))
    if "Plan: 2 new drives" not in text:
        fail("plan --drives 2 text lacks its header")

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
