#!/usr/bin/env python3
"""Benchmark `usbsat saturate` with phases of fixed length (`--steady off`: 1 s ramp + 5 s, the defaults before
issue 42) against phases that end when the rate has settled (the default now), on the loop-device bed.

    settle_bench.py USBSAT [--pairs N] [--layout card|hub|both]

Layouts (tests/bed/testbed.sh, tests/bed/hybrid.py):
  card  four drives capped at 170 MB/s behind a 400 MB/s card, measured as a user would with
        `saturate --group card=D1,D2,D3,D4@400M` (the run issue 42 was filed on: 37.7 s, tolerance ±7 %);
  hub   the legacy-ehci layout on the hybrid bed: four USB 2.0 sticks (BOT, QD1) capped at 35 MB/s behind a
        hub whose 40 MB/s the bed caps, measured by `saturate` on the scanned topology (no arguments but the
        drives).
Each layout runs N pairs (default 3), the two modes interleaved (fixed first in even pairs, settled first in
odd ones: neither always gets the warmer machine), and prints, per layout, the median wall time of each mode
and their ratio (goal: settled / fixed <= 0.40), the verdicts (goal: identical), the plateau difference
(|settled - fixed| / fixed of the median plateaus, goal <= 2 %), and the tolerance and confidence each mode
reached. Root only (exit 77 otherwise); not a CTest test (its pure parts are: settle_bench_test.py).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bed"))

MODES = ("fixed", "settled")
MODE_ARGS = {"fixed": ["--steady", "off"], "settled": []}
RATIO_GOAL = 0.40
PLATEAU_GOAL = 0.02


def order(pair):
    """The modes of pair `pair` in the order they run: interleaved, alternating which goes first."""
    return MODES if pair % 2 == 0 else tuple(reversed(MODES))


def group_figures(result):
    """(verdict, plateau_mbs, tolerance, confidence) of the first group of a `saturate --json` result."""
    g = result["groups"][0]
    return g["verdict"], g["plateau_mbs"], g["tolerance"], g["confidence"]


def summarise(runs):
    """`runs`: {mode: [(wall_s, verdict, plateau, tolerance, confidence), ...]} -> the printed figures:
    median wall time per mode, their ratio, the verdicts of each mode, whether they are all identical, the
    plateau difference (medians; None without plateaus), and each mode's tolerances and confidences."""
    out = {"wall_s": {}, "verdicts": {}, "tolerance": {}, "confidence": {}}
    plateaus = {}
    for mode in MODES:
        rows = runs.get(mode, [])
        out["wall_s"][mode] = statistics.median(r[0] for r in rows) if rows else None
        out["verdicts"][mode] = sorted({r[1] for r in rows}, key=str)
        ps = [r[2] for r in rows if r[2] is not None]
        plateaus[mode] = statistics.median(ps) if ps else None
        out["tolerance"][mode] = sorted({r[3] for r in rows})
        out["confidence"][mode] = sorted({r[4] for r in rows})
    fixed, settled = out["wall_s"]["fixed"], out["wall_s"]["settled"]
    out["ratio"] = round(settled / fixed, 3) if fixed and settled is not None else None
    v = out["verdicts"]
    out["verdicts_identical"] = len(v["fixed"]) == 1 and v["fixed"] == v["settled"]
    pf, ps = plateaus["fixed"], plateaus["settled"]
    out["plateau_mbs"] = plateaus
    out["plateau_difference"] = round(abs(ps - pf) / pf, 4) if pf and ps is not None else None
    return out


def verdict_line(name, s):
    """One line per layout: the figures and whether each goal was met."""
    ok = (s["ratio"] is not None and s["ratio"] <= RATIO_GOAL, s["verdicts_identical"],
          s["plateau_difference"] is None or s["plateau_difference"] <= PLATEAU_GOAL)
    marks = ["ok" if x else "MISSED" for x in ok]
    return (f"{name}: wall time {s['wall_s']['fixed']:.1f} s fixed, {s['wall_s']['settled']:.1f} s settled, "
            f"ratio {s['ratio']} (goal <= {RATIO_GOAL}: {marks[0]}); verdicts fixed {s['verdicts']['fixed']}, "
            f"settled {s['verdicts']['settled']} ({'identical' if ok[1] else 'DIFFER'}); plateau difference "
            f"{s['plateau_difference']} (goal <= {PLATEAU_GOAL}: {marks[2]}); tolerance fixed "
            f"{s['tolerance']['fixed']} settled {s['tolerance']['settled']}; confidence fixed "
            f"{s['confidence']['fixed']} settled {s['confidence']['settled']}")


def timed(run, args):
    """Run `saturate --json ARGS` through `run` (a bed's runner); (wall seconds, parsed result)."""
    t0 = time.monotonic()
    r = run(args)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        raise RuntimeError(f"usbsat saturate {' '.join(args)} exited {r.returncode}: {r.stderr.strip()[:400]}")
    return wall, json.loads(r.stdout)


def bench(name, run, args, pairs):
    runs = {m: [] for m in MODES}
    for pair in range(pairs):
        for mode in order(pair):
            wall, res = timed(run, ["saturate", "--json", *MODE_ARGS[mode], *args])
            runs[mode].append((round(wall, 2), *group_figures(res)))
            print(f"  {name} pair {pair + 1} {mode}: {runs[mode][-1]}", flush=True)
    s = summarise(runs)
    print(verdict_line(name, s), flush=True)
    print("json: " + json.dumps({"layout": name, **s}), flush=True)
    return s


def card(usbsat, pairs):
    from e2e_test import Bed
    with Bed("bench-card", "bus:card:400M:4:170M") as bed:
        d = bed.drives["card"]
        return bench("card", lambda a: bed.run(usbsat, *a), ["--group", "card=" + ",".join(d) + "@400M"], pairs)


def hub(usbsat, pairs):
    from hybrid import BedBus, HybridBed
    devs = ["sdc", "sdd", "sde", "sdf"]
    with HybridBed("bench-hub", "legacy-ehci", [BedBus("hub", "40M", "35M", devs)]) as bed:
        return bench("hub", lambda a: bed.usbsat(usbsat, *a), devs, pairs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("usbsat")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--layout", choices=["card", "hub", "both"], default="both")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("SKIP: needs root (the loop-device bed)", file=sys.stderr)
        return 77
    usbsat = os.path.abspath(a.usbsat)
    if a.layout in ("card", "both"):
        card(usbsat, a.pairs)
    if a.layout in ("hub", "both"):
        hub(usbsat, a.pairs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
