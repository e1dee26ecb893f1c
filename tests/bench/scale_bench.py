#!/usr/bin/env python3
"""Benchmark (and, with --limit, the CTest `scale.10k`): usbsat's read-only commands on generated large machines.

    scale_bench.py USBSAT [--sizes 1000,10000] [--routers N] [--router-limit SECONDS] [--repeat N]
                   [--limit SECONDS] [--keep DIR]

For each size, machine_gen.py writes a recording of a machine with that many USB devices (cloned real layouts),
and every command below runs on it with `--from` (output to /dev/null), N times; the median wall time and CPU
time (user + sys, less disturbed by other load) of each are printed, and for two or more sizes the growth from the smallest to the largest (linear: the size ratio;
quadratic: its square). With --limit, every run must end within that many seconds and exit as the command
does on success (doctor: 0, 10 or 11), or the script exits 1: a quadratic path fails it long before the
machine does. With --routers N, a USB4 machine too (machine_gen.py --routers: tb4-hub-chain with N more device
routers behind its dock), every command on it within --router-limit seconds (default 5: the goal of issue 41, whose
cubic path took 76 s for `topo` with 1,000). Standard library only.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import machine_gen  # noqa: E402

# name, argv after `usbsat --from FILE`, exit codes that mean it worked
COMMANDS = [
    ("topo", ["topo"], {0}),
    ("drives", ["drives"], {0}),
    ("ports", ["ports"], {0}),
    ("doctor", ["doctor"], {0, 10, 11}),
    ("plan --predict", ["plan", "--predict"], {0}),
    ("export --prometheus", ["export", "--prometheus"], {0}),
    ("report", ["report", "-o", "{out}/report.html"], {0}),
]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(usbsat, recording, argv, ok_codes, limit, out_dir):
    """(wall seconds, CPU seconds (user + sys), error or None) of one run."""
    argv = [a.replace("{out}", out_dir) for a in argv]
    t0, c0 = time.monotonic(), children_cpu()
    try:
        p = subprocess.run([usbsat, "-q", "--from", recording] + argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, None, "did not finish within %g s" % limit
    took, cpu = time.monotonic() - t0, children_cpu() - c0
    if p.returncode not in ok_codes:
        return took, cpu, "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[-500:])
    return took, cpu, None


def write_recording(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        machine_gen.json.dump(doc, f, separators=(",", ":"), sort_keys=True)


def time_commands(args, recording, size, limit, work, medians, failures):
    """Every command on `recording`, args.repeat times each: medians[(command, size)], failures appended."""
    for name, argv, ok in COMMANDS:
        times, cpus = [], []
        for _ in range(args.repeat):
            took, cpu, err = run_once(args.usbsat, recording, argv, ok, limit, work)
            if err:
                failures.append("%s on %s: %s" % (name, size, err))
                break
            times.append(took)
            cpus.append(cpu)
        if times:
            medians[(name, size)] = statistics.median(times)
            print("  %-20s median wall %7.3f s, CPU %7.3f s  (walls: %s)" %
                  (name, medians[(name, size)], statistics.median(cpus),
                   ", ".join("%.3f" % t for t in times)), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("usbsat")
    ap.add_argument("--sizes", default="1000,10000", help="USB devices per machine, comma separated")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=None, help="fail when one run takes longer (seconds)")
    ap.add_argument("--keep", default=None, help="write the recordings here and keep them")
    ap.add_argument("--routers", type=int, default=0, help="also a USB4 machine with this many more routers")
    ap.add_argument("--router-limit", type=float, default=5.0, help="the limit of each run on the USB4 machine")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    work = args.keep or tempfile.mkdtemp(prefix="usbsat-scale-")
    os.makedirs(work, exist_ok=True)
    medians = {}
    failures = []
    for size in sizes:
        recording = os.path.join(work, "machine-%d.json" % size)
        doc, clones, count = machine_gen.generate(size, machine_gen.SAMPLES)
        write_recording(recording, doc)
        disks = sum(1 for d in doc["data"]["devices"].values() if d.get("devtype") == "disk")
        print("machine %d: %d clones, %d USB devices, %d udev devices, %d disks, %.1f MB" %
              (size, clones, count, len(doc["data"]["devices"]), disks, os.path.getsize(recording) / 1e6))
        time_commands(args, recording, size, args.limit, work, medians, failures)
    if args.routers:
        recording = os.path.join(work, "routers-%d.json" % args.routers)
        doc, made = machine_gen.generate_routers(args.routers)
        write_recording(recording, doc)
        print("USB4 machine: tb4-hub-chain with %d more routers behind its dock, %.1f MB" %
              (made, os.path.getsize(recording) / 1e6))
        limit = min(args.router_limit, args.limit) if args.limit else args.router_limit
        time_commands(args, recording, "%d routers" % args.routers, limit, work, medians, failures)
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        print("growth %d -> %d USB devices (linear: %.1fx, quadratic: %.0fx)" % (lo, hi, hi / lo, (hi / lo) ** 2))
        for name, _, _ in COMMANDS:
            if (name, lo) in medians and (name, hi) in medians and medians[(name, lo)] > 0:
                print("  %-20s %6.1fx" % (name, medians[(name, hi)] / medians[(name, lo)]))
    if not args.keep:
        for f in os.listdir(work):
            os.unlink(os.path.join(work, f))
        os.rmdir(work)
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
