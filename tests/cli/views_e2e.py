#!/usr/bin/env python3
"""End-to-end test of `usbsat topo|drives|ports` on one generated sysfs scenario, under umockdev.

Runs the real binary through tests/fixtures/with-fixture.sh, stdout a pipe, and checks
  1. every view (text and --json) against tests/fixtures/golden/fixture-<scenario>.<view>.{txt,json}
     (UPDATE_GOLDEN=1 rewrites them), with no escape sequence although TERM asks for colour and COLUMNS for
     a narrow width (output to a pipe is never coloured or elided);
  2. `drives --json` and `ports --json` against the generator's independent <scenario>.expected.json.
Exit 77 (skip) when the umockdev preload is missing.

usage: views_e2e.py USBSAT WITH_FIXTURE SCENARIO_DIR EXPECTED_JSON|- GOLDEN_DIR
"""
import json
import os
import subprocess
import sys

# The benchmark scenario: its views are megabytes and its scan is slow under the preload, so only
# `drives --json` and `ports --json` run, checked against expected.json.
NO_GOLDEN = {"large"}

# Keys of the generator's drive records that the drives JSON carries under another name or not at all.
IGNORED_DRIVE_KEYS = {"power_control", "quirk_forced_bot"}

failures = []


def fail(msg):
    failures.append(msg)


# stdout is a pipe here, so the output must be the plain text of the goldens even when everything else asks
# for colour and a narrow width: a colour-capable TERM, no NO_COLOR, a small COLUMNS.
PIPE_ENV = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
PIPE_ENV.update({"TERM": "xterm-256color", "COLUMNS": "40"})


def run(usbsat, with_fixture, scenario_dir, args):
    # The host's /proc/self/mountinfo has nothing to do with the fixture's disks: read no mounts.
    p = subprocess.run([with_fixture, scenario_dir, "--", usbsat, *args, "--mountinfo", ""], capture_output=True,
                       text=True, env=PIPE_ENV)
    if p.returncode == 77:
        print(f"SKIP: {p.stderr.strip()}")
        sys.exit(77)
    if p.returncode not in (0, 4):
        fail(f"usbsat {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    if "no USB host controller" in p.stderr:
        fail(f"usbsat {' '.join(args)} saw no USB controller in the fixture: {p.stderr.strip()}")
    if "\x1b" in p.stdout:
        fail(f"usbsat {' '.join(args)} wrote an escape sequence to a pipe (TERM=xterm-256color, no NO_COLOR)")
    return p.stdout


def check_golden(golden_dir, name, actual):
    path = os.path.join(golden_dir, name)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        with open(path, "w", encoding="utf-8") as f:
            f.write(actual)
        print(f"updated {path}")
        return
    if not os.path.exists(path):
        fail(f"golden file {path} missing; run with UPDATE_GOLDEN=1")
        return
    with open(path, encoding="utf-8") as f:
        expected = f.read()
    if expected != actual:
        exp, act = expected.splitlines(), actual.splitlines()
        line = next((i for i, (a, b) in enumerate(zip(exp, act)) if a != b), min(len(exp), len(act)))
        fail(f"{name} differs from golden at line {line + 1}:\n  expected: "
             f"{exp[line] if line < len(exp) else '<eof>'}\n  actual:   {act[line] if line < len(act) else '<eof>'}")


def normalize_location(loc):
    """The generator writes sysfs' "yes"/"no" for dock/lid; usbsat has booleans."""
    if loc is None:
        return None
    return {k: ({"yes": True, "no": False}.get(v, v) if k in ("dock", "lid") else v) for k, v in loc.items()}


def subset(expected, actual, where):
    """Every key of `expected` must be in `actual` with an equal value (dicts compared recursively)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            fail(f"{where}: expected an object, got {actual!r}")
            return
        for k, v in expected.items():
            if k not in actual:
                fail(f"{where}: key {k!r} missing")
            else:
                subset(v, actual[k], f"{where}.{k}")
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            fail(f"{where}: expected {expected!r}, got {actual!r}")
            return
        for i, (e, a) in enumerate(zip(expected, actual)):
            subset(e, a, f"{where}[{i}]")
    elif expected != actual:
        fail(f"{where}: expected {expected!r}, got {actual!r}")


def check_drives(expected, actual):
    mine = {d["dev"]: d for d in actual["drives"]}
    theirs = {d["dev"]: d for d in expected["drives"]}
    if sorted(mine) != sorted(theirs):
        fail(f"drives: usbsat lists {sorted(mine)}, the scenario has {sorted(theirs)}")
    for dev, exp in theirs.items():
        got = mine.get(dev)
        if got is None:
            continue
        for k, v in exp.items():
            if k in IGNORED_DRIVE_KEYS:
                continue
            if k not in got:
                fail(f"drives.{dev}: key {k!r} missing")
                continue
            subset(v, got[k], f"drives.{dev}.{k}")
        if exp.get("quirk_forced_bot") and not got.get("uas_blocked_reason"):
            fail(f"drives.{dev}: forced to BOT by a quirk, but uas_blocked_reason is null")


def check_ports(expected, actual):
    mine = {c["controller"]["pci"]: c for c in actual["controllers"]}
    for exp in expected.get("controllers", []):
        got = mine.get(exp["pci"])
        if got is None:
            fail(f"ports: controller {exp['pci']} missing")
            continue
        ctrl = got["controller"]
        for k in ("kind", "vendor_id", "device_id"):
            subset(exp[k], ctrl[k], f"ports.{exp['pci']}.{k}")
        subset([h["name"] for h in exp.get("root_hubs", [])], ctrl["root_hubs"], f"ports.{exp['pci']}.root_hubs")
        subset([h["pci"] for h in exp.get("pcie_uplink", [])], [h["pci"] for h in got["pcie_uplink"]],
               f"ports.{exp['pci']}.pcie_uplink")
        roots = [c for c in got["connectors"] if c["on_root_hub"]]
        if len(roots) != len(exp["connectors"]):
            fail(f"ports.{exp['pci']}: {len(roots)} root connectors, the scenario has {len(exp['connectors'])}")
        by_pair = {(c["usb2_port"], c["usb3_port"]): c for c in roots}
        for ec in exp["connectors"]:
            key = (ec.get("usb2"), ec.get("usb3"))
            c = by_pair.get(key)
            where = f"ports.{exp['pci']}.connector{key}"
            if c is None:
                fail(f"{where}: missing")
                continue
            subset(ec["connect_type"], c["connect_type"], f"{where}.connect_type")
            subset(ec["occupied"], c["occupant"] is not None, f"{where}.occupied")
            subset(ec["devices"], c["devices"], f"{where}.devices")
            subset(normalize_location(ec["physical_location"]), c["physical_location"], f"{where}.physical_location")


def main():
    usbsat, with_fixture, scenario_dir, expected_path, golden_dir = sys.argv[1:6]
    scenario = os.path.basename(os.path.normpath(scenario_dir))
    outputs = {}
    for view in ("topo", "drives", "ports"):
        if scenario in NO_GOLDEN:  # the scan under the preload is slow here: only what expected.json checks
            outputs[(view, "json")] = run(usbsat, with_fixture, scenario_dir, [view, "--json"]) if view != "topo" else "{}"
            continue
        outputs[(view, "txt")] = run(usbsat, with_fixture, scenario_dir, [view])
        outputs[(view, "json")] = run(usbsat, with_fixture, scenario_dir, [view, "--json"])
        for fmt in ("txt", "json"):
            check_golden(golden_dir, f"fixture-{scenario}.{view}.{fmt}", outputs[(view, fmt)])
    try:
        if expected_path != "-":  # "-": a real recording, checked against goldens only
            with open(expected_path, encoding="utf-8") as f:
                expected = json.load(f)
            check_drives(expected, json.loads(outputs[("drives", "json")]))
            check_ports(expected, json.loads(outputs[("ports", "json")]))
        json.loads(outputs[("topo", "json")])
    except json.JSONDecodeError as e:
        fail(f"invalid JSON: {e}")
    for f in failures[:40]:
        print(f"FAIL: {f}")
    if len(failures) > 40:
        print(f"... and {len(failures) - 40} more failures")
    if not failures:
        print(f"OK: {scenario}: topo, drives, ports agree with goldens"
              f"{'' if expected_path == '-' else ' and ' + os.path.basename(expected_path)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
