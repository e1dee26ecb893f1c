#!/usr/bin/env python3
"""End-to-end test of `usbsat plan` on one generated sysfs scenario, under umockdev.

Runs the real binary through tests/fixtures/with-fixture.sh:
  1. `plan --predict --json`: exactly one entry per USB drive of <scenario>.expected.json whose medium is present
     (size > 0 in the fixture's own sysfs), the documented keys, predicted <= demand, the aggregate equal to the
     max-flow bound (on a tree they agree); the drives of each USB4 link no more than its USB3 tunnel together,
     and a full tunnel named as a bottleneck;
  2. `plan --drives N --json` for N = 1, 2: N placements on distinct connectors that are free in the scenario
     (no device of expected.json sits on either of their ports), each on a controller of the scenario with a
     predicted rate, min <= every rate; identical output when run twice;
  3. `plan DEV... --json` (and with --demand 170M) on the scenario's USB drives: every drive placed, moves
     counted consistently, a move only for a predicted gain;
  4. bad --demand values (out of range, repeated, naming no drive or an unknown one) exit 2 with a message;
  5. the text forms run and mention every drive;
  6. a scenario that rebuilds a published setup (expected.json `published`, topology/capacity/published.hpp): each such
     drive alone (`plan --predict DEV`) is predicted within 15 % of the published figure, and the source is
     named in the JSON (demand basis, bottleneck or `published`) and the text, which is compared with the
     golden fixture-<scenario>.predict.txt (UPDATE_GOLDEN=1 rewrites it).
Exit 77 (skip) when the umockdev preload is missing.

usage: plan_e2e.py USBSAT WITH_FIXTURE SCENARIO_DIR EXPECTED_JSON [GOLDEN_DIR]
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from golden import check_golden as golden_check  # noqa: E402  (tests/support/golden.py: the one golden rule)

from checks import fail, finish, skip  # noqa: E402  (tests/support/checks.py: one rule for every script)


def run(usbsat, with_fixture, scenario_dir, args, ok=(0,)):
    p = subprocess.run([with_fixture, scenario_dir, "--", usbsat, *args], capture_output=True, text=True)
    if p.returncode == 77:
        skip(p.stderr.strip())
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


def check_usb4_tunnels(expected, pred):
    """The USB3 tunnel of each USB4 link of the scenario (expected.json's usb4_links) bounds what its drives are
    predicted together; when it is full, it is the bottleneck named for at least one of them (kind usb4_tunnel,
    node = the link's device router), or a link of the same capacity nearer the drives is (the dock hub's uplink
    ties with a tunnel whose adapter runs at the hub's rate: the nearer one is named)."""
    by_dev = {d["dev"]: d for d in pred["drives"]}
    for link in expected.get("usb4_links", []):
        if link.get("usb3_tunnel_gbps") is None:
            continue
        cap = link["usb3_tunnel_gbps"] * 125.0  # Gb/s -> MB/s
        # the drives whose innermost tunnel this is (a drive behind a second hop rides its own link's tunnel)
        inner = {d for other in expected["usb4_links"] if other is not link for d in other.get("drives", [])
                 if link["router"] in other.get("path", [])}
        drives = [by_dev[d] for d in link.get("drives", []) if d in by_dev and d not in inner]
        if not drives:
            continue
        together = sum(d["predicted_mbs"] for d in drives)
        if together > cap + 0.5:
            fail(f"USB4 link {link['router']}: its drives are predicted {together:.1f} MB/s together, above its "
                 f"USB3 tunnel's {cap:.1f} MB/s")
        # Full (a narrower link of the path, e.g. the dock hub's uplink, may leave it short of full instead).
        if sum(d["demand_mbs"] for d in drives) > cap + 0.5 and abs(together - cap) <= 0.5:
            named = [d["dev"] for d in drives if d["bottleneck"] and (
                (d["bottleneck"]["kind"] == "usb4_tunnel" and d["bottleneck"]["node"] == link["router"])
                or (d["bottleneck"]["kind"] == "hub_uplink" and abs(d["bottleneck"]["capacity_mbs"] - cap) <= 0.5))]
            if not named:
                fail(f"USB4 link {link['router']}: its full USB3 tunnel is no drive's bottleneck: "
                     f"{[(d['dev'], d['bottleneck']) for d in drives]}")


PUBLISHED_TOLERANCE = 0.15


def check_published(usbsat, with_fixture, scenario_dir, expected, golden_dir):
    """Each drive of a published setup, alone, against the published figure; the source named; the text golden."""
    texts = []
    for p in expected.get("published", []):
        dev = p["dev"]
        pred = json.loads(run(usbsat, with_fixture, scenario_dir, ["plan", "--predict", dev, "--json"]))
        d = next((x for x in pred["drives"] if x["dev"] == dev), None)
        if d is None:
            fail(f"plan --predict {dev}: no prediction for {dev}")
            continue
        err = (d["predicted_mbs"] - p["mbs"]) / p["mbs"]
        print(f"{dev} ({p['protocol']}): predicted {d['predicted_mbs']} MB/s, published {p['mbs']} MB/s "
              f"({err:+.1%}, {p['source']})")
        if abs(err) > PUBLISHED_TOLERANCE:
            fail(f"{dev}: predicted {d['predicted_mbs']} MB/s, {err:+.1%} from the published {p['mbs']} MB/s")
        said = [d.get("demand_basis") or "", d.get("published") or "",
                (d.get("bottleneck") or {}).get("capacity_basis") or ""]
        if not any(p["source"] in x and "published" in x for x in said):
            fail(f"{dev}: the source {p['source']!r} is not named as published in {said}")
        text = run(usbsat, with_fixture, scenario_dir, ["plan", "--predict", dev])
        if p["source"] not in text:
            fail(f"plan --predict {dev} (text) does not name {p['source']!r}")
        texts.append(f"$ usbsat plan --predict {dev}\n{text}")
    if texts and golden_dir:
        golden_check(os.path.join(golden_dir, f"fixture-{expected['scenario']}.predict.txt"), "\n".join(texts), fail)


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    usbsat, with_fixture, scenario_dir, expected_path = argv[1:5]
    golden_dir = argv[5] if len(argv) == 6 else None
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
    check_usb4_tunnels(expected, pred)
    check_published(usbsat, with_fixture, scenario_dir, expected, golden_dir)

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

    # 3. re-place the scenario's USB drives (link-ceiling demands, and 170 MB/s each: with a given demand the
    #    drives often already get it where they are, and then nothing may move)
    for demand in ([], ["--demand", "170M"]):
        if not usb_drives:
            break
        args = ["plan", *usb_drives[:4], *demand, "--json"]
        plan = json.loads(run(usbsat, with_fixture, scenario_dir, args))
        placed = [p["drive"] for p in plan["placements"]]
        if sorted(placed) != sorted(usb_drives[:4]) and not plan["diagnostics"]:
            fail(f"re-place placed {placed}, asked {usb_drives[:4]}")
        if plan["moves"] != sum(1 for p in plan["placements"] if p["moved"]):
            fail(f"{args}: moves does not match the moved placements")
        if plan["current"] is None:
            fail("re-place without the current prediction")
        elif plan["min_mbs"] + 0.05 < min(d["predicted_mbs"] for d in plan["current"]["drives"]):
            fail(f"the plan's minimum {plan['min_mbs']} is below the current placement's")
        elif plan["moves"] > 0:
            # A move must buy something the model predicts: a faster slowest drive or a higher total.
            now_min = min(d["predicted_mbs"] for d in plan["current"]["drives"])
            if plan["min_mbs"] <= now_min + 0.05 and plan["total_mbs"] <= plan["current"]["aggregate_mbs"] + 0.05:
                fail(f"{args}: {plan['moves']} move(s) for no predicted gain: {plan['min_mbs']}/{plan['total_mbs']} MB/s "
                     f"now {now_min}/{plan['current']['aggregate_mbs']}")
        if plan.get("already_optimal") and plan["moves"] != 0:
            fail("already_optimal with moves")
        if "already_optimal" not in plan or "headroom" not in plan:
            fail("plan JSON lacks already_optimal or headroom")

    # 4. bad --demand values: a usage error (exit 2) with a message, never ignored or clamped
    some = usb_drives[:2]
    bad = [
        (["--drives", "1", "--demand", "0.0000001"], "out of range"),
        (["--drives", "1", "--demand", "1e30"], "out of range"),
        (["--drives", "1", "--demand", "0"], "bad --demand '0'"),
        (["--drives", "1", "--demand", "400M", "--demand", "300M"], "the common demand is already"),
        (["--drives", "1", "--demand", "=170M"], "names no drive"),
        (["--drives", "1", "--demand", "nosuchdisk=170M"], "nosuchdisk is not one of the drives"),
        (["--predict", "--demand", "nosuchdisk=170M"], "--demand for nosuchdisk"),
    ]
    if some:
        bad += [
            ([*some, "--demand", "nosuchdisk=170M"], "nosuchdisk is not one of the drives asked about"),
            ([*some, "--demand", f"{some[0]}=170M", "--demand", f"/dev/{some[0]}=200M"], "already has a demand"),
        ]
    for args, message in bad:
        p = subprocess.run([with_fixture, scenario_dir, "--", usbsat, "plan", *args], capture_output=True, text=True)
        if p.returncode != 2 or message not in p.stderr:
            fail(f"plan {' '.join(args)}: exit {p.returncode} (want 2), stderr {p.stderr.strip()!r} lacks {message!r}")

    # 5. text forms
    text = run(usbsat, with_fixture, scenario_dir, ["plan", "--predict"])
    for d in devs:
        if d not in text:
            fail(f"--predict text does not mention {d}")
    text = run(usbsat, with_fixture, scenario_dir, ["plan", "--drives", "2"], ok=(0, 4))
    if "Plan: 2 new drives" not in text:
        fail("plan --drives 2 text lacks its header")

    return finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
