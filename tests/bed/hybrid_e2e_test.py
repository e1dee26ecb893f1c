#!/usr/bin/env python3
"""`usbsat saturate` (default path: groups and modelled capacities from the scanned topology) and
`usbsat plan --predict` end to end on the hybrid bed (hybrid.py): a generated layout whose drives are capped
loop devices. Root only; exit 77 (SKIP) otherwise.

    hybrid_e2e_test.py USBSAT CASE   CASE: layout (the generator's bed mode; no root) | pcie_link | chipset_ports | ehci_hub | pcie_switch | hub_mixed |
                                           unexplained | two_groups | usb4_tunnel | usb4_no_displays | history | calibration

Every case measures with a 1 s ramp + 5 s per phase (the bed is accurate to <0.5% there), asserts the
verdict, the plateau (±5% of the bed's cap) and the bottleneck node and kind from the JSON, and — where the
bed's caps equal the model's capacities — that `plan --predict` (demand: each drive's bed cap) is within
±10% of the measured per-drive and aggregate MB/s of the all-at-once phase. A figure outside ±5% is measured
once more (the machine is shared; see e2e_test.py). Each case prints one `measured:` JSON line for the record.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import e2e_test  # noqa: E402
from e2e_test import check, near  # noqa: E402
from hybrid import TESTBED, WITH_FIXTURE, BedBus, HybridBed, skip  # noqa: E402
from saturate_e2e_test import check_result, phase  # noqa: E402

# Fixed 1 s + 5 s phases (--steady off): the per-drive shares of a saturated link are compared with --predict
# below, and a settled phase ends once the link's total holds (after ~2 s), before drives sharing it have evened
# out their split (CI saw 276/121 MB/s of a 400 MB/s card in a settled phase, 200/200 predicted).
ACCURATE = ["--ramp", "1", "--runtime", "5", "--steady", "off"]
PREDICT_TOL = 0.10
# Per-drive share of a bus at QD1: the throttle releases the bus's bytes in ~100 ms slices with one 128 KiB request
# per drive queued, so how 40 MB/s splits over 4 drives in 5 s is the bed's noise, not usbsat's: fio on the same
# bed (4 jobs, QD1, 128 KiB) split it 9.2-11.2 MB/s idle and 6.7-12.7 next to a compile at nice 19, usbsat
# 7.8-13.2 there. So at QD1 the prediction is held to the aggregate (±10%, the mean drive) and each drive to
# ±50% (none starved); a split beyond ±35% is measured once more.
QD1_SHARE_TOL = 0.50
QD1_RETRY_TOL = 0.35
# Per-drive split of a *saturated* bus at QD32: the model predicts an equal split (max-min fair share; the
# assumption and why: src/README.md, "How a saturated link divides"). On the bed both drives are loop devices
# with the same queue, so how the throttled bus divides between them is the kernel's dispatch order, which follows
# CPU scheduling: idle it splits 400 MB/s 196-204, next to a compile 240.8/159.3 and 219.2/180.8 (CI, twice in a
# row) while the aggregate held at 400. What is stable, and held to ±10%, is the aggregate; each drive is held to
# ±35% of the equal share (neither starved nor taking two thirds), measured once more beyond that.
SATURATED_SPLIT_TOL = 0.35


def mb(cap):
    """'300M' -> 300.0 (MB/s, SI)."""
    return float(cap.rstrip("M"))


def saturate(bed, usbsat, args, accurate):
    """`usbsat saturate --json ARGS` on the bed; once more when accurate(result) is False."""
    def once():
        r = bed.usbsat(usbsat, "saturate", "--json", *ACCURATE, *args)
        if r.returncode != 0:
            print(r.stdout, r.stderr, file=sys.stderr)
        check(r.returncode == 0, f"usbsat saturate {' '.join(args)} exits 0 (got {r.returncode})")
        res = json.loads(r.stdout)
        check_result(res, r.stderr)
        return res
    res = once()
    if not accurate(res):
        print("note  a figure outside ±5%, measuring once more: "
              + json.dumps({g["name"]: {p["n"]: p["per_drive_mbs"] for p in g["phases"]} for g in res["groups"]}))
        res = once()
    return res


def within(v, want, tol=0.05):
    return v is not None and abs(v - want) <= tol * want


def groups_accurate(res, want):
    """want: {group name: (solo MB/s per drive, {n: aggregate MB/s})}."""
    by = {g["name"]: g for g in res["groups"]}
    for name, (solo, together) in want.items():
        g = by.get(name)
        if g is None or any(not within(v, solo) for v in phase(g, 1)["per_drive_mbs"].values()):
            return False
        if any(not within(phase(g, n)["aggregate_mbs"], agg) for n, agg in together.items()):
            return False
    return True


def split_even(res, tol):
    """Every group's all-at-once drives within ±tol of the group's equal share (aggregate / drives)."""
    for g in res["groups"]:
        per = all_at_once(g)
        fair = sum(per.values()) / max(1, len(per))
        if any(not within(v, fair, tol) for v in per.values()):
            return False
    return True


def check_group(g, drives, solo, together):
    check(g["drives"] == drives, f"group {g['name']}: drives {g['drives']} == {drives}")
    check([p["n"] for p in g["phases"]][0] == 1, f"group {g['name']}: each drive alone first")
    check(set(phase(g, 1)["per_drive_mbs"]) == set(drives), f"group {g['name']}: solo phases of its drives only")
    for dev, v in phase(g, 1)["per_drive_mbs"].items():
        near(v, solo, f"{dev} alone (bed drive cap)")
    for n, agg in together.items():
        p = phase(g, n)
        check(set(p["per_drive_mbs"]) <= set(drives), f"group {g['name']}, {n} at once: only its drives")
        near(p["aggregate_mbs"], agg, f"group {g['name']}: aggregate of {n} at once")


def check_saturated(g, cap, kinds, nodes):
    check(g["verdict"] == "saturated", f"group {g['name']}: verdict saturated (got {g['verdict']})")
    check(g["plateau_mbs"] is not None, f"group {g['name']}: a plateau")
    if g["plateau_mbs"] is not None:
        near(g["plateau_mbs"], cap, f"group {g['name']}: plateau (bed cap {cap})")
    b = g["bottleneck"] or {}
    check(b.get("kind") in kinds and b.get("node") in nodes and b.get("capacity_mbs") == cap,
          f"group {g['name']}: bottleneck is the {cap} MB/s {'/'.join(kinds)} of {'/'.join(nodes)}: {b}")


def check_no_contention(g):
    check(g["verdict"] == "no_contention", f"group {g['name']}: verdict no_contention (got {g['verdict']})")
    check(g["plateau_mbs"] is None and g["bottleneck"] is None, f"group {g['name']}: no plateau, no bottleneck")
    for p in g["phases"]:
        if p["n"] >= 2:
            check(p["efficiency"] >= 0.95, f"group {g['name']}, {p['n']} at once: efficiency ≈ 1 ({p['efficiency']})")


def predict_vs_measured(bed, usbsat, devs, demands, measured, per_drive_tol=PREDICT_TOL):
    """`plan --predict DEVS --demand dev=CAP` (no I/O) against measured {dev: MB/s} of the all-at-once phases.
    `per_drive_tol`: one tolerance for every drive, or {dev: tolerance}."""
    args = ["plan", "--predict", "--json", *devs]
    for dev, cap in demands.items():
        args += ["--demand", f"{dev}={cap}"]
    r = bed.usbsat(usbsat, *args, capped=False)
    check(r.returncode == 0, f"usbsat {' '.join(args)} exits 0 (got {r.returncode}; {r.stderr.strip()})")
    pred = json.loads(r.stdout)
    got = {d["dev"]: d["predicted_mbs"] for d in pred["drives"]}
    check(set(got) == set(measured), f"--predict covers the measured drives {sorted(measured)}: {sorted(got)}")
    for dev, m in measured.items():
        p = got.get(dev)
        tol = per_drive_tol[dev] if isinstance(per_drive_tol, dict) else per_drive_tol
        check(within(p, m, tol), f"{dev}: predicted {p} MB/s within ±{tol:.0%} of measured {m:.2f}")
    total = sum(measured.values())
    check(within(pred["aggregate_mbs"], total, PREDICT_TOL),
          f"predicted aggregate {pred['aggregate_mbs']} MB/s within ±10% of measured {total:.2f}")
    return {"predicted": got, "predicted_aggregate": pred["aggregate_mbs"],
            "measured": {d: round(v, 2) for d, v in measured.items()}, "measured_aggregate": round(total, 2)}


def record(case, res, extra=None):
    out = {"case": case, "groups": [
        {"name": g["name"], "verdict": g["verdict"], "plateau_mbs": g["plateau_mbs"],
         "bottleneck": g["bottleneck"] and {k: g["bottleneck"][k] for k in ("node", "kind", "capacity_mbs")},
         "qd": g["qd"], "phases": {p["n"]: p["aggregate_mbs"] if p["n"] > 1 else p["per_drive_mbs"]
                                    for p in g["phases"]}} for g in res["groups"]]}
    out.update(extra or {})
    print("measured: " + json.dumps(out))


def all_at_once(g):
    return phase(g, max(p["n"] for p in g["phases"]))["per_drive_mbs"]


# ---- cases ---------------------------------------------------------------------------------------------------

def case_pcie_link(usbsat):
    # Two UAS SSDs on an ASM1042 card (PCIe 2.0 x1, modelled 400 MB/s): bed bus 400, drives 300.
    with HybridBed("pcie", "asm1042-card", [BedBus("card", "400M", "300M", ["sdb", "sdc"])]) as bed:
        want = {"0000:03:00.0": (300, {2: 400})}
        res = saturate(bed, usbsat, ["sdb", "sdc"],
                       lambda r: groups_accurate(r, want) and split_even(r, SATURATED_SPLIT_TOL))
        check([g["name"] for g in res["groups"]] == ["0000:03:00.0"], "one group: the ASM1042 controller")
        g = res["groups"][0]
        check(g["node"]["kind"] == "controller", f"grouped at the controller: {g['node']}")
        check(g["qd"] == 32 and g["qd_reason"].startswith("UAS"), f"UAS drives: QD32 ({g['qd']}, {g['qd_reason']})")
        check_group(g, ["sdb", "sdc"], 300, {2: 400})
        check_saturated(g, 400.0, ["pcie_link"], ["0000:03:00.0"])
        cmp = predict_vs_measured(bed, usbsat, ["sdb", "sdc"], {"sdb": "300M", "sdc": "300M"}, all_at_once(g),
                                  SATURATED_SPLIT_TOL)
        record("pcie_link", res, {"cap": 400, "predict": cmp})


def case_chipset_ports(usbsat):
    # The same two SSDs moved to chipset root ports (no modelled shared limit): a wide bed bus, drives 300.
    with HybridBed("chipset", "asm1042-chipset", [BedBus("chip", "0", "300M", ["sdb", "sdc"])]) as bed:
        want = {"0000:00:14.0": (300, {2: 600})}
        res = saturate(bed, usbsat, ["sdb", "sdc"], lambda r: groups_accurate(r, want))
        check([g["name"] for g in res["groups"]] == ["0000:00:14.0"], "one group: the chipset controller")
        g = res["groups"][0]
        check_group(g, ["sdb", "sdc"], 300, {2: 600})
        check_no_contention(g)
        cmp = predict_vs_measured(bed, usbsat, ["sdb", "sdc"], {"sdb": "300M", "sdc": "300M"}, all_at_once(g))
        record("chipset_ports", res, {"cap": None, "predict": cmp})


def case_ehci_hub(usbsat):
    # Four USB 2.0 BOT sticks behind hub 2-1.2 on EHCI 00:1d.0 (modelled 40 MB/s): bed bus 40, drives 35.
    devs = ["sdc", "sdd", "sde", "sdf"]
    with HybridBed("ehci", "legacy-ehci", [BedBus("hub", "40M", "35M", devs)]) as bed:
        want = {"2-1.2": (35, {2: 40, 4: 40})}

        def fair(r):  # a split far from equal (seen once: one drive 4.3 MB/s of 40) is measured once more
            g = r["groups"][0] if r["groups"] else None
            return g is not None and all(within(v, 10, QD1_RETRY_TOL) for v in all_at_once(g).values())
        res = saturate(bed, usbsat, devs, lambda r: groups_accurate(r, want) and fair(r))
        check([g["name"] for g in res["groups"]] == ["2-1.2"], f"one group: hub 2-1.2 ({[g['name'] for g in res['groups']]})")
        g = res["groups"][0]
        check(g["qd"] == 1 and g["qd_reason"].startswith("BOT"), f"BOT sticks: QD1 ({g['qd']}, {g['qd_reason']})")
        check([p["n"] for p in g["phases"]] == [1, 2, 4], "phases: alone, 2, 4 at once")
        check_group(g, devs, 35, {2: 40, 4: 40})
        check_saturated(g, 40.0, ["hub_uplink", "usb_bus"], ["2-1.2", "2-1", "usb2"])
        cmp = predict_vs_measured(bed, usbsat, devs, {d: "35M" for d in devs}, all_at_once(g), QD1_SHARE_TOL)
        record("ehci_hub", res, {"cap": 40, "predict": cmp})


def case_pcie_switch(usbsat):
    # Four UAS drives on four controllers behind a PCIe switch (x2 uplink, modelled 800 MB/s): bed bus 800
    # (wide: 4 x 170 = 680 fit), drives 170. The default run (no arguments): these are the layout's drives.
    devs = ["sda", "sdb", "sdc", "sdd"]
    with HybridBed("switch", "pcie-switch-card", [BedBus("sw", "800M", "170M", devs)]) as bed:
        res = saturate(bed, usbsat, [], lambda r: len(r["groups"]) == 1 and groups_accurate(
            r, {r["groups"][0]["name"]: (170, {2: 340, 4: 680})}))
        check(len(res["groups"]) == 1, f"one group ({[g['name'] for g in res['groups']]})")
        g = res["groups"][0]
        check(g["node"]["kind"] == "pci", f"grouped at the PCIe switch: {g['node']}")
        check([p["n"] for p in g["phases"]] == [1, 2, 4], "phases: alone, 2, 4 at once")
        check_group(g, devs, 170, {2: 340, 4: 680})
        check_no_contention(g)
        cmp = predict_vs_measured(bed, usbsat, devs, {d: "170M" for d in devs}, all_at_once(g))
        record("pcie_switch", res, {"cap": 800, "predict": cmp})


def case_hub_mixed(usbsat):
    # A UAS SSD (sda) and a BOT stick (sdb) on one USB3 hub's SuperSpeed half; its 5 Gb/s uplink (modelled
    # 400 MB/s) is the bed's bus cap, drives 300. Mixed protocols: the deeper queue for both (same load).
    with HybridBed("hub", "usb3-hub-mixed", [BedBus("hub", "400M", "300M", ["sda", "sdb"])]) as bed:
        want = {"2-1": (300, {2: 400})}
        res = saturate(bed, usbsat, [], lambda r: groups_accurate(r, want) and split_even(r, SATURATED_SPLIT_TOL))
        check([g["name"] for g in res["groups"]] == ["2-1"], f"one group: hub 2-1 ({[g['name'] for g in res['groups']]})")
        g = res["groups"][0]
        check(g["node"]["kind"] == "hub", f"grouped at the hub: {g['node']}")
        check(g["qd"] == 32 and g["qd_reason"].startswith("mixed BOT"),
              f"UAS + BOT: the deeper queue for both ({g['qd']}, {g['qd_reason']})")
        check_group(g, ["sda", "sdb"], 300, {2: 400})
        check_saturated(g, 400.0, ["hub_uplink"], ["2-1"])
        cmp = predict_vs_measured(bed, usbsat, ["sda", "sdb"], {"sda": "300M", "sdb": "300M"}, all_at_once(g),
                                  SATURATED_SPLIT_TOL)
        record("hub_mixed", res, {"cap": 400, "predict": cmp})


def case_unexplained(usbsat):
    # The ASM1042 layout on a bed whose bus carries only 150 MB/s (drives 120): below every modelled capacity
    # (PCIe 400, drive links 400), so no modelled link explains the plateau: unexplained, at the controller.
    with HybridBed("unexpl", "asm1042-card", [BedBus("card", "150M", "120M", ["sdb", "sdc"])]) as bed:
        want = {"0000:03:00.0": (120, {2: 150})}
        res = saturate(bed, usbsat, ["sdb", "sdc"], lambda r: groups_accurate(r, want))
        g = res["groups"][0]
        check_group(g, ["sdb", "sdc"], 120, {2: 150})
        check(g["verdict"] == "unexplained", f"verdict unexplained (got {g['verdict']})")
        check(g["plateau_mbs"] is not None and within(g["plateau_mbs"], 150),
              f"plateau ≈ 150 (bed cap): {g['plateau_mbs']}")
        # The lowest node both drives hang from: the card's SuperSpeed root hub (their port paths 4-1, 4-2).
        lca = {"usb" + d["port_path"].split("-")[0] for d in bed.expected["drives"] if d["dev"] in ("sdb", "sdc")}
        check(lca == {"usb4"}, f"the layout puts sdb and sdc on root hub usb4: {lca}")
        b = g["bottleneck"] or {}
        check(b.get("kind") == "lowest_common_ancestor" and b.get("capacity_mbs") is None
              and "root hub usb4" in (b.get("node") or ""),
              f"the lowest common node (root hub usb4) named, no modelled link: {b}")
        check(phase(g, 2)["predicted_aggregate_mbs"] is not None and phase(g, 2)["predicted_aggregate_mbs"] > 200,
              f"the model predicted no loss ({phase(g, 2)['predicted_aggregate_mbs']})")
        check(any("the model predicts" in n for n in g["notes"]), f"a note says the model predicted more: {g['notes']}")
        record("unexplained", res, {"cap": 150})


def case_two_groups(usbsat):
    # The default run (no arguments) on asm1042-card plus a chipset SSD: the chipset's sda+sdb (wide bus,
    # drives 150: no contention) and the card's sdc+sdd (bus 400, drives 300: saturated), each judged alone.
    buses = [BedBus("chip", "0", "150M", ["sda", "sdb"]), BedBus("card", "400M", "300M", ["sdc", "sdd"])]
    with HybridBed("groups", "two-groups", buses) as bed:
        want = {"0000:00:14.0": (150, {2: 300}), "0000:03:00.0": (300, {2: 400})}
        res = saturate(bed, usbsat, [], lambda r: groups_accurate(r, want) and split_even(r, SATURATED_SPLIT_TOL))
        check([g["name"] for g in res["groups"]] == ["0000:00:14.0", "0000:03:00.0"],
              f"two groups, chipset then card ({[g['name'] for g in res['groups']]})")
        if len(res["groups"]) != 2:
            return
        chip, card = res["groups"]
        check_group(chip, ["sda", "sdb"], 150, {2: 300})
        check_no_contention(chip)
        check_group(card, ["sdc", "sdd"], 300, {2: 400})
        check_saturated(card, 400.0, ["pcie_link"], ["0000:03:00.0"])
        measured = {**all_at_once(chip), **all_at_once(card)}
        # The chipset drives are not contended (±10%); the card's split a saturated link (±35%, see above:
        # 224.4/175.5 of 400 measured next to a compile, where ±10% failed).
        cmp = predict_vs_measured(bed, usbsat, [], {"sda": "150M", "sdb": "150M", "sdc": "300M", "sdd": "300M"},
                                  measured, {"sda": PREDICT_TOL, "sdb": PREDICT_TOL,
                                             "sdc": SATURATED_SPLIT_TOL, "sdd": SATURATED_SPLIT_TOL})
        record("two_groups", res, {"cap": {"0000:00:14.0": None, "0000:03:00.0": 400}, "predict": cmp})


def drive_paths(bed, usbsat, devs):
    """The paths saturate opens for the layout's drives (its dry run), to name them to --allow-write exactly."""
    r = bed.usbsat(usbsat, "saturate", "--dry-run", "--json", *devs, capped=False)
    check(r.returncode == 0, f"usbsat saturate --dry-run exits 0 (got {r.returncode}; {r.stderr.strip()})")
    paths = {dev: d["path"] for g in json.loads(r.stdout)["groups"] for dev, d in g["drive_paths"].items()}
    return [paths[d] for d in devs if d in paths]


def case_usb4_tunnel(usbsat):
    # usb4-dock-displays: three UAS SSDs on the dock's hub share the USB3 tunnel of the USB4 link 0-1. Two 4K
    # monitors (EDID 3840x2160 at 533.25 MHz, 10 bits per colour) stream host -> dock, which leaves writes (36 -
    # 2 x 15.9975) x 0.8 = 3.204 Gb/s = 400.5 MB/s of the tunnel; reads get its adapter's 1000 MB/s, the dock
    # hub's uplink too. The bed's bus is capped at the write ceiling as the generator computes it (its own
    # arithmetic of topology/README.md's rule, expected.json), drives 300 each: a write saturate measures alone
    # 300, two or three at once the ceiling, and must name the tunnel, with the model's figure within 1 %.
    devs = ["sda", "sdb", "sdc"]
    with HybridBed("usb4", "usb4-dock-displays", [BedBus("tunnel", "400M", "300M", devs)]) as bed:
        link = next(l for l in bed.expected["usb4_links"] if l["router"] == "0-1")
        ceiling = link["usb3_tunnel_write_gbps"] * 125  # Gb/s -> MB/s
        check(link["usb3_tunnel_gbps"] * 125 > 2 * ceiling, f"reads are not held to the displays' share: {link}")
        allow = [a for p in drive_paths(bed, usbsat, devs) for a in ("--allow-write", p)]
        res = saturate(bed, usbsat, ["--pattern", "write", "--write", *allow, *devs],
                       lambda r: len(r["groups"]) == 1 and groups_accurate(
                           r, {r["groups"][0]["name"]: (300, {2: 400, 3: 400})}) and split_even(r, SATURATED_SPLIT_TOL))
        check(len(res["groups"]) == 1, f"one group ({[g['name'] for g in res['groups']]})")
        g = res["groups"][0]
        check_group(g, devs, 300, {2: 400, 3: 400})
        check(g["verdict"] == "saturated", f"group {g['name']}: verdict saturated (got {g['verdict']})")
        near(g["plateau_mbs"] or 0, 400, f"group {g['name']}: plateau (bed cap 400)")
        b = g["bottleneck"] or {}
        check(b.get("kind") == "usb4_tunnel" and b.get("node") == "0-1" and within(b.get("capacity_mbs"), ceiling, 0.01),
              f"group {g['name']}: bottleneck is the USB3 tunnel of 0-1 at the write ceiling {ceiling:.1f} MB/s: {b}")
        named = "the USB3 tunnel of the USB4 link 0-1"
        check(named in g["conclusion"], f"group {g['name']}: the conclusion names {named!r}: {g['conclusion']!r}")
        # The model for writes (plan --predict --pattern write) against what the three drives wrote at once.
        r = bed.usbsat(usbsat, "plan", "--predict", "--pattern", "write", "--json", *devs, capped=False)
        pred = json.loads(r.stdout)
        for d in pred["drives"]:
            check((d["bottleneck"] or {}).get("kind") == "usb4_tunnel", f"{d['dev']}: writes limited by the tunnel: {d}")
        measured = sum(all_at_once(g).values())
        check(within(pred["aggregate_mbs"], measured, PREDICT_TOL),
              f"predicted write aggregate {pred['aggregate_mbs']} within ±10% of measured {measured:.1f}")
        record("usb4_tunnel", res, {"cap": 400, "model_write_ceiling": ceiling,
                                    "predicted_aggregate": pred["aggregate_mbs"]})


def case_usb4_no_displays(usbsat):
    # usb4-dock: no display on the dock. The USB3 tunnel's bulk ceiling is its 10 Gb/s adapter's payload, 1000
    # MB/s, in both directions (the 90 % of tunnel.c is its isochronous allocation, 9 Gb/s, not a ceiling), and
    # the dock hub's 10 Gb/s uplink carries the same 1000: the nearer, the hub, is named, not the tunnel.
    devs = ["sda", "sdb"]
    with HybridBed("usb4nd", "usb4-dock", [BedBus("hub", "1000M", "700M", devs)]) as bed:
        link = next(l for l in bed.expected["usb4_links"] if l["router"] == "0-1")
        check(link["usb3_tunnel_gbps"] == 8 and link["usb3_tunnel_write_gbps"] == 8, f"the tunnel's 8 Gb/s: {link}")
        res = saturate(bed, usbsat, devs, lambda r: len(r["groups"]) == 1 and groups_accurate(
            r, {r["groups"][0]["name"]: (700, {2: 1000})}))
        check(len(res["groups"]) == 1, f"one group ({[g['name'] for g in res['groups']]})")
        g = res["groups"][0]
        check_group(g, devs, 700, {2: 1000})
        check_saturated(g, 1000.0, ["hub_uplink"], ["2-1"])
        check("USB3 tunnel" not in (g["conclusion"] or ""), f"the tunnel is not blamed: {g['conclusion']!r}")
        record("usb4_no_displays", res, {"cap": 1000})


def history_args(bed):
    """--history in the bed's own folder: never the store of whoever runs the test."""
    return ["--history", os.path.join(bed.tmp, "history.json")]


def load_alone_at_once(bed, usbsat, devs):
    """`usbsat load` of each drive alone, as separate processes started together (their drives share a bed
    bus wide enough for both): {dev: MB/s}. Both write the history store at the end: nothing may be lost."""
    procs = {}
    for dev in devs:
        cmd = [TESTBED, "run", "--", WITH_FIXTURE, bed.tree, "--", usbsat, *history_args(bed), "load", "--json",
               *ACCURATE, f"/dev/{bed.name}/{dev}"]
        procs[dev] = subprocess.Popen(cmd, env=bed.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    got = {}
    for dev, p in procs.items():
        out, err = p.communicate(timeout=120)
        check(p.returncode == 0, f"usbsat load {dev} exits 0 (got {p.returncode}: {err.strip()})")
        check("could not remember" not in err, f"load {dev} remembered its measurement: {err.strip()}")
        got[dev] = json.loads(out)["phases"][0]["per_target"][0]["mbs"]
    return got


def case_history(usbsat):
    # Two drives capped at 150 MB/s each behind the ASM1042 card's 400 MB/s: measured alone, remembered, and
    # then plan --predict (no flags) predicts what they measured and the doctor sees no contention.
    with HybridBed("history", "asm1042-card", [BedBus("card", "400M", "150M", ["sdb", "sdc"])]) as bed:
        measured = load_alone_at_once(bed, usbsat, ["sdb", "sdc"])
        for dev, mbs in measured.items():
            check(within(mbs, 150), f"{dev} alone: {mbs:.1f} MB/s within ±5% of its 150 MB/s cap")
        r = bed.usbsat(usbsat, *history_args(bed), "history", "--json", capped=False)
        store = json.loads(r.stdout)
        check(len(store["drives"]) == 2, f"the store remembers both drives (two writers at once): {len(store['drives'])}")
        r = bed.usbsat(usbsat, *history_args(bed), "plan", "--predict", "--json", capped=False)
        check(r.returncode == 0, f"plan --predict exits 0 ({r.stderr.strip()})")
        pred = {d["dev"]: d for d in json.loads(r.stdout)["drives"]}
        for dev, mbs in measured.items():
            d = pred[dev]
            check(d["demand_source"] == "measured", f"{dev}: demand basis measured ({d['demand_source']}: {d['demand_basis']})")
            check(within(d["predicted_mbs"], mbs, PREDICT_TOL),
                  f"{dev}: predicted {d['predicted_mbs']} MB/s within ±10% of measured {mbs:.1f}")
        r = bed.usbsat(usbsat, *history_args(bed), "doctor", "--json", capped=False)
        findings = json.loads(r.stdout)["findings"]
        contention = [f for f in findings if f["id"] == "shared_bandwidth" and f["severity"] != "info"]
        check(not contention, f"the doctor raises no contention finding for the pair: {contention}")
        record("history", {"groups": []}, {"measured": measured,
                                           "predicted": {d: pred[d]["predicted_mbs"] for d in measured}})


def case_calibration(usbsat):
    # The card's bus carries 300 MB/s where the model says 400: saturate finds the plateau, remembers it for the
    # group's shared resource, and plan --predict then uses the measured 300 (labelled measured, model none).
    with HybridBed("calib", "asm1042-card", [BedBus("card", "300M", "0", ["sdb", "sdc"])]) as bed:
        r = bed.usbsat(usbsat, *history_args(bed), "saturate", "--json", *ACCURATE, "sdb", "sdc")
        check(r.returncode == 0, f"saturate exits 0 ({r.stderr.strip()})")
        res = json.loads(r.stdout)
        g = res["groups"][0]
        check(g["plateau_mbs"] is not None and within(g["plateau_mbs"], 300), f"plateau ≈ 300: {g['plateau_mbs']}")
        check(any("calibrated" in n for n in g["notes"]), f"saturate says it calibrated: {g['notes']}")
        r = bed.usbsat(usbsat, *history_args(bed), "plan", "--predict", "--json", "sdb", "sdc", capped=False)
        pred = json.loads(r.stdout)
        for d in pred["drives"]:
            b = d["bottleneck"] or {}
            check(within(b.get("capacity_mbs"), g["plateau_mbs"], 0.02) and "measured" in (b.get("capacity_basis") or ""),
                  f"{d['dev']}: limited by the measured plateau: {b}")
        check(within(pred["aggregate_mbs"], g["plateau_mbs"], PREDICT_TOL),
              f"predicted aggregate {pred['aggregate_mbs']} within ±10% of the plateau {g['plateau_mbs']}")
        record("calibration", res, {"predicted_aggregate": pred["aggregate_mbs"]})


def case_layout(usbsat):
    # No root, no I/O: the generator's bed mode itself. DEVNAME leads outside the tree, the node is left out,
    # and the scanner (under umockdev) reports the drive at that path; other drives are untouched.
    import subprocess
    import tempfile
    from hybrid import SYSFSGEN, WITH_FIXTURE
    with tempfile.TemporaryDirectory() as tmp:
        gen = [sys.executable, SYSFSGEN, tmp, "--scenario", "asm1042-card"]
        r = subprocess.run(gen + ["--devname", "sdb=usbsat-bed-x/sdb"], capture_output=True, text=True)
        check(r.returncode == 0, f"sysfsgen --devname exits 0 ({r.stderr.strip()})")
        tree = os.path.join(tmp, "asm1042-card")
        uevent = open(os.path.join(tree, "sys/class/block/sdb/uevent")).read()
        check("DEVNAME=usbsat-bed-x/sdb\n" in uevent, f"sdb's uevent leads outside the tree: {uevent!r}")
        check(not os.path.exists(os.path.join(tree, "dev/sdb")), "no dev/sdb node in the tree")
        check(os.path.exists(os.path.join(tree, "dev/sdc")), "dev/sdc (not mapped) is still in the tree")
        r = subprocess.run([WITH_FIXTURE, tree, "--", usbsat, "drives", "--json"], capture_output=True, text=True)
        if r.returncode == 77:
            skip(r.stderr.strip())
        nodes = {d["dev"]: d["devnode"] for d in json.loads(r.stdout)["drives"]}
        check(nodes.get("sdb") == "/dev/usbsat-bed-x/sdb" and nodes.get("sdc") == "/dev/sdc",
              f"the scanner opens sdb at /dev/usbsat-bed-x/sdb, sdc at /dev/sdc: {nodes}")
        for bad in ("sdz=x/sdz", "sdb=/abs/sdb", "sdb=../sdb", "sdb"):
            r = subprocess.run(gen + ["--devname", bad], capture_output=True, text=True)
            check(r.returncode == 2, f"--devname {bad}: exit 2 ({r.stderr.strip()})")


CASES = {"layout": case_layout, "history": case_history, "calibration": case_calibration, "pcie_link": case_pcie_link, "chipset_ports": case_chipset_ports, "ehci_hub": case_ehci_hub,
         "pcie_switch": case_pcie_switch, "hub_mixed": case_hub_mixed, "unexplained": case_unexplained,
         "two_groups": case_two_groups, "usb4_tunnel": case_usb4_tunnel, "usb4_no_displays": case_usb4_no_displays}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if os.geteuid() != 0 and sys.argv[2] != "layout":
        skip("needs root")
    CASES[sys.argv[2]](sys.argv[1])
    sys.exit(e2e_test.finish())
