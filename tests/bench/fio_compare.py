#!/usr/bin/env python3
"""Benchmark `usbsat load` against fio (ioengine=io_uring, direct=1) on identical jobs, in one run.

    fio_compare.py USBSAT [--runtime S] [--ramp S] [--repeat N] [--max-repeat M] [--tolerance F]
                   [--job NAME] [--devices 1|4] [--like-for-like] [--guest-halt-poll-ns NS]
                   [--place-cpus TOOLS,WORKERS]

Devices: loop devices (--direct-io=on) over files in a private tmpfs, from tests/bed/testbed.sh (`solo`
drives, no throttling). Jobs: 4 KiB randread QD1 and QD32, 128 KiB sequential read QD1 and QD8, on one
device and on 4 devices at once. Prints IOPS, MB/s (10^6 B/s) and CPU time per I/O for both tools and the
ratios usbsat/fio (goal: IOPS and MB/s ≥ 1.0, CPU per I/O ≤ 1.0). Each tool runs --repeat N times (default
3, at least 3), interleaved (usbsat, fio, fio, usbsat, ...: neither tool always goes first), and the median run
of each counts: on a shared machine a best-of hides how often a tool is disturbed, a median does not.

Signal or noise: the runs are taken in interleaved pairs (one usbsat run, one fio run), and each pair gives one
IOPS ratio. Every row prints the min-median-max of those ratios and the number of pairs. After --repeat
pairs a row goes on (one more pair at a time, up to --max-repeat, default 9) while its median ratio is not
within +-5 % (--tolerance): the half-width of the ratios' interquartile range, over the median. A row that
stops wider says so ("unsettled") instead of standing for a single figure.
fio runs with its own defaults (FIO_OPTIONS aside), usbsat with its own (workers left to the scheduler, as fio's
jobs); --like-for-like gives fio what usbsat's engine chooses by default (registered target and buffers), runs
its jobs as threads of one process as usbsat's workers are (fio --thread), and keeps each job of both tools on one
CPU (fio's cpus_allowed_policy=split, usbsat's --pin-cpus), so the engines are compared and not their defaults.
Threads matter with the scheduler's autogroups: fio's job processes each start a session of their own, and a
session is one scheduling group, so four fio jobs weigh four times as much against the loop devices' kernel
workers as usbsat's four workers in one process (tests/bench/README.md, "Issue 25, ninth step").
How an idle CPU waits decides the queue-depth-1 rows on a virtual machine: the header names the cpuidle driver
and, in a KVM guest with the haltpoll driver, guest_halt_poll_ns, how long an idle vCPU polls before it halts.
With 0 every wake-up of an idle vCPU is a halt and a VM exit (about 19 µs on the Firecracker VM of
tests/bench/README.md, "Issue 25, ninth step"). --guest-halt-poll-ns sets it for the run and puts the old value
back afterwards (the kernel's default is 200000: Documentation/virt/guest-halt-polling.rst).
Where the scheduler puts the loop devices' kernel workers decides the queue-depth-1 rows too: a loop device's I/O
runs in an unbound workqueue worker, and on the tool's CPU it costs no wake-up of another CPU, on the other CPU
it costs two (tests/bench/README.md, "Issue 25, eleventh step"). --place-cpus T,W fixes that for the run: both
tools on CPU T (their affinity), the unbound workqueue workers on CPU W (/sys/devices/virtual/workqueue/cpumask,
put back afterwards); T,T compares what each tool costs with no cross-CPU wake-ups, T,W with two for every I/O.
Root only; not a CTest test.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTBED = os.path.join(HERE, "..", "bed", "testbed.sh")

# What fio runs with besides the job's own pattern, size, depth and times (no fixedbufs, registerfiles, hipri or
# sqthread_poll: fio's defaults, which tests/bench/README.md lists).
FIO_OPTIONS = ["--ioengine=io_uring", "--direct=1", "--time_based", "--randrepeat=0", "--norandommap"]


HALT_POLL = "/sys/module/haltpoll/parameters/guest_halt_poll_ns"
CPUIDLE_DRIVER = "/sys/devices/system/cpu/cpuidle/current_driver"
WQ_CPUMASK = "/sys/devices/virtual/workqueue/cpumask"
WQ_CPUMASK_REQUESTED = "/sys/devices/virtual/workqueue/cpumask_requested"  # what was asked for (Linux 6.8+)


def read_setting(path):
    """One line of sysfs, or None where the file is not there (no cpuidle, not a KVM guest)."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def write_setting(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def idle_description(halt_poll_before):
    """The header's account of how an idle CPU waits: the cpuidle driver, and the halt polling of a KVM guest
    (its value before this run when --guest-halt-poll-ns changed it)."""
    driver = read_setting(CPUIDLE_DRIVER) or "none"
    poll = read_setting(HALT_POLL)
    if poll is None:
        return f"cpuidle driver {driver}"
    changed = f", set for this run (was {halt_poll_before})" if halt_poll_before is not None else ""
    return f"cpuidle driver {driver}, guest_halt_poll_ns {poll}{changed}"


def parse_place(text):
    """--place-cpus "T,W": the tools' CPU and the unbound workqueue workers' CPU, each one this script may run on."""
    try:
        tools, workers = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not two CPU numbers, T,W") from None
    online = os.sched_getaffinity(0)
    for cpu in (tools, workers):
        if cpu not in online:
            raise argparse.ArgumentTypeError(f"CPU {cpu} is not one this script may run on ({sorted(online)})")
    return tools, workers


def place_description(place, wq_before):
    """The header's account of where the tools and the loop devices' workers run."""
    if place is None:
        return "tools and the loop devices' workers where the scheduler puts them"
    return (f"tools on CPU {place[0]}, unbound workqueue workers (the loop devices' I/O) on CPU {place[1]} "
            f"(workqueue cpumask set for this run, was {wq_before})")


def cpumask_text(cpu):
    """The sysfs bitmap of one CPU: hex, in 32-bit words separated by commas (the kernel's bitmap_parse)."""
    digits = format(1 << cpu, "x")
    digits = digits.zfill((len(digits) + 7) // 8 * 8)
    return ",".join(digits[i:i + 8] for i in range(0, len(digits), 8))


def like_for_like_options(place):
    """With --like-for-like fio also runs with what usbsat's uring engine chooses by default, the target and the
    buffers registered with the ring, its jobs are threads of one process, as usbsat's workers, and each job is kept
    on one CPU, the allowed CPUs in turn, as usbsat's workers are with --pin-cpus (load/README.md, "One CPU per
    worker")."""
    allowed = [place[0]] if place is not None else sorted(os.sched_getaffinity(0))
    cpus = ",".join(str(c) for c in allowed)
    return ["--registerfiles", "--fixedbufs", "--thread", f"--cpus_allowed={cpus}", "--cpus_allowed_policy=split"]

JOBS = [("4k randread qd1", "randread", "4k", 1), ("4k randread qd32", "randread", "4k", 32),
        ("128k read qd1", "read", "128k", 1), ("128k read qd8", "read", "128k", 8)]


def run_tool(args, **popen_args):
    """One run of a tool, its stdout when it exits 0. Interrupted (SIGTERM, Ctrl-C), the tool is asked to stop
    with SIGTERM and waited for, not killed: fio stops the job processes it forked (each in a session of its own,
    out of reach of the terminal's Ctrl-C) only when it is asked, and a killed fio left its job reading a bed
    device after the bed went down."""
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen_args) as p:
        try:
            out, err = p.communicate()
        except BaseException:
            p.terminate()
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
            raise
    if p.returncode != 0:
        raise subprocess.CalledProcessError(p.returncode, args, out, err)
    return out


def run_usbsat(usbsat, devs, pattern, bs, qd, runtime, ramp, extra=()):
    # A session of its own, as fio gives each job (its job processes call setsid()): with the scheduler's
    # autogroups (/proc/sys/kernel/sched_autogroup_enabled) a session is one scheduling group, so without this
    # usbsat shares its CPU share with everything else in the caller's session (a build, this script) while
    # fio's job gets a whole share to itself; on a busy machine that alone made usbsat 10-100x slower at QD1.
    out = run_tool([usbsat, "load", "--json", *extra, "--pattern", pattern, "--bs", bs, "--qd", str(qd),
                    "--runtime", str(runtime), "--ramp", str(ramp), *devs], start_new_session=True)
    ph = json.loads(out)["phases"][0]
    ios = sum(t["ios"] for t in ph["per_target"])
    cpu = sum(t["cpu"]["user_s"] + t["cpu"]["sys_s"] for t in ph["per_target"])
    return {"iops": ph["aggregate"]["iops"], "mbs": ph["aggregate"]["mbs"], "cpu_us_per_io": cpu / ios * 1e6}


def run_fio(devs, pattern, bs, qd, runtime, ramp, extra=()):
    args = ["fio", "--output-format=json", *FIO_OPTIONS, *extra, f"--rw={pattern}", f"--bs={bs}", f"--iodepth={qd}",
            f"--runtime={runtime}", f"--ramp_time={ramp}"]
    for i, d in enumerate(devs):
        args += [f"--name=j{i}", f"--filename={d}"]
    jobs = json.loads(run_tool(args))["jobs"]
    iops = sum(j["read"]["iops"] for j in jobs)
    mbs = sum(j["read"]["bw_bytes"] for j in jobs) / 1e6
    ios = sum(j["read"]["total_ios"] for j in jobs)
    cpu = sum((j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] / 1e3 for j in jobs)
    return {"iops": iops, "mbs": mbs, "cpu_us_per_io": cpu / ios * 1e6}


def load_average():
    """The 1-minute load average: how busy the machine was around a row (2 CPUs: above 2, the tools and the
    loop devices' kernel threads wait for a CPU, and the IOPS of both tools swing by several times)."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def median_run(runs):
    """The per-field median of the runs (IOPS, MB/s and CPU per I/O each)."""
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def spread(ratios):
    """How far the median ratio can be trusted: half the interquartile range of the pair ratios over their
    median (0.05 = +-5 %). Inclusive quartiles: with 3 pairs they lie halfway between the median and the
    extremes, so one disturbed pair of three widens the spread by half its distance."""
    q = statistics.quantiles(ratios, n=4, method="inclusive")
    return (q[2] - q[0]) / 2 / statistics.median(ratios)


def run_row(a, devs, pattern, bs, qd):
    """Interleaved pairs (usbsat first in even pairs, fio first in odd ones) until the IOPS ratio settles
    (spread within the tolerance) or --max-repeat pairs ran. Returns both tools' runs and the pair ratios."""
    us_runs, fio_runs, ratios = [], [], []
    while len(ratios) < a.max_repeat:
        i = len(ratios)
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for tool in order:
            if tool == 0:
                us_runs.append(run_usbsat(a.usbsat, devs, pattern, bs, qd, a.runtime, a.ramp, a.usbsat_extra))
            else:
                fio_runs.append(run_fio(devs, pattern, bs, qd, a.runtime, a.ramp, a.fio_extra))
        ratios.append(us_runs[-1]["iops"] / fio_runs[-1]["iops"])
        if len(ratios) >= a.repeat and spread(ratios) <= a.tolerance:
            break
    return us_runs, fio_runs, ratios


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("usbsat")
    ap.add_argument("--runtime", type=float, default=5)
    ap.add_argument("--ramp", type=float, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="interleaved runs per tool and job, median counts (>= 3)")
    ap.add_argument("--job", choices=[j[0] for j in JOBS], help="only this job (e.g. '4k randread qd1')")
    ap.add_argument("--devices", type=int, choices=(1, 4), help="only this many devices at once")
    ap.add_argument("--max-repeat", type=int, default=9,
                    help="keep adding interleaved pairs up to this many while the ratio's spread is wider than "
                         "--tolerance (default 9)")
    ap.add_argument("--tolerance", type=float, default=0.05,
                    help="spread of the median IOPS ratio that counts as settled (default 0.05: +-5 %%)")
    ap.add_argument("--like-for-like", action="store_true",
                    help="fio also registers the target and its buffers and runs its jobs as threads of one process, "
                         "as usbsat does, and both keep each job on one CPU (usbsat --pin-cpus); without it, each "
                         "tool runs with its own defaults")
    ap.add_argument("--guest-halt-poll-ns", type=int, metavar="NS",
                    help="in a KVM guest with the haltpoll cpuidle driver, let an idle vCPU poll this long before it "
                         "halts, for this run only (the old value is put back)")
    ap.add_argument("--place-cpus", type=parse_place, metavar="T,W",
                    help="run both tools on CPU T and the kernel's unbound workqueue workers, which do the loop "
                         "devices' I/O, on CPU W, for this run only (the old workqueue cpumask is put back): T,T "
                         "with no cross-CPU wake-ups, T,W with two on every I/O")
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # through the finally below: the settings go back
    a.fio_extra = like_for_like_options(a.place_cpus) if a.like_for_like else []
    a.usbsat_extra = ["--pin-cpus"] if a.like_for_like else []
    if a.repeat < 3:
        ap.error("--repeat must be at least 3 (the median of fewer runs is not robust)")
    a.max_repeat = max(a.max_repeat, a.repeat)
    if os.geteuid() != 0:
        print("SKIP: needs root", file=sys.stderr)
        return 77
    if a.guest_halt_poll_ns is not None and read_setting(HALT_POLL) is None:
        print(f"--guest-halt-poll-ns: {HALT_POLL} is not there (not a KVM guest with the haltpoll cpuidle driver)",
              file=sys.stderr)
        return 2
    if a.place_cpus is not None and read_setting(WQ_CPUMASK) is None:
        print(f"--place-cpus: {WQ_CPUMASK} is not there", file=sys.stderr)
        return 2
    env = dict(os.environ, TESTBED_NAME="usbsat-bench", TESTBED_DRIVE_MB="512")
    subprocess.run([TESTBED, "down"], env=env, stderr=subprocess.DEVNULL)
    halt_poll_before = None
    wq_before = None
    try:  # from the bed's set-up on: a stop while it comes up takes it down too
        up = subprocess.run([TESTBED, "up", "solo:b0", "solo:b1", "solo:b2", "solo:b3"], env=env,
                            capture_output=True, text=True)
        if up.returncode != 0:
            print(up.stderr, file=sys.stderr)
            return up.returncode
        devs = [line.split()[2] for line in up.stdout.split("\n") if line.strip()]
        if a.guest_halt_poll_ns is not None:
            halt_poll_before = read_setting(HALT_POLL)  # there: checked before the bed came up
            write_setting(HALT_POLL, a.guest_halt_poll_ns)
        if a.place_cpus is not None:
            wq_before = read_setting(WQ_CPUMASK_REQUESTED) or read_setting(WQ_CPUMASK)
            write_setting(WQ_CPUMASK, cpumask_text(a.place_cpus[1]))
            os.sched_setaffinity(0, {a.place_cpus[0]})  # inherited by every tool run from here on
        fio_version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
        print(f"usbsat: {' '.join(['load', '--json', *a.usbsat_extra])} (engine uring; its ring flags and registrations: "
              f"load/README.md); "
              f"{fio_version}: {' '.join(FIO_OPTIONS + a.fio_extra)} (its defaults otherwise); {a.runtime:g} s runs after "
              f"{a.ramp:g} s ramp")
        print(f"idle: {idle_description(halt_poll_before)}")
        print(f"placement: {place_description(a.place_cpus, wq_before)}")
        print(f"{'job':<22}{'devices':>8} | {'usbsat IOPS':>12} {'fio IOPS':>12} {'ratio':>6} | "
              f"{'usbsat MB/s':>11} {'fio MB/s':>9} {'ratio':>6} | {'usbsat µs/IO':>12} {'fio µs/IO':>10} "
              f"{'ratio':>6} | IOPS ratio per pair: min-median-max (pairs, spread)")
        unsettled = 0
        for ndev in (1, 4):
            if a.devices and ndev != a.devices:
                continue
            for name, pattern, bs, qd in JOBS:
                if a.job and name != a.job:
                    continue
                load_before = load_average()
                us_runs, fio_runs, ratios = run_row(a, devs[:ndev], pattern, bs, qd)
                load = sorted((load_before, load_average()))
                u, f = median_run(us_runs), median_run(fio_runs)
                sp = spread(ratios)
                verdict = "" if sp <= a.tolerance else "  unsettled: wider than the tolerance, not one figure"
                unsettled += sp > a.tolerance
                print(f"{name:<22}{ndev:>8} | {u['iops']:>12.0f} {f['iops']:>12.0f} {u['iops'] / f['iops']:>6.2f} | "
                      f"{u['mbs']:>11.1f} {f['mbs']:>9.1f} {u['mbs'] / f['mbs']:>6.2f} | "
                      f"{u['cpu_us_per_io']:>12.2f} {f['cpu_us_per_io']:>10.2f} "
                      f"{u['cpu_us_per_io'] / f['cpu_us_per_io']:>6.2f} | "
                      f"{min(ratios):.2f}-{statistics.median(ratios):.2f}-{max(ratios):.2f} "
                      f"({len(ratios)}, ±{sp * 100:.0f} %), load {load[0]:.1f}-{load[1]:.1f}{verdict}", flush=True)
                if len(ratios) > 3:  # the runs behind the medians
                    print(f"  IOPS of each run: usbsat {sorted(round(r['iops']) for r in us_runs)}, "
                          f"fio {sorted(round(r['iops']) for r in fio_runs)}", flush=True)
        if unsettled:
            print(f"{unsettled} row(s) unsettled: their spread stayed wider than ±{a.tolerance * 100:.0f} % after "
                  f"{a.max_repeat} pairs (a busy machine); rerun them when it is quiet.")
    finally:
        if halt_poll_before is not None:
            write_setting(HALT_POLL, halt_poll_before)
        if wq_before is not None:
            write_setting(WQ_CPUMASK, wq_before)
        subprocess.run([TESTBED, "down"], env=env, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
