#!/usr/bin/env python3
"""A real scrape, end to end: usbsat export -> Debian's prometheus-node-exporter -> Debian's prometheus + the rules.

  fleet_e2e.py USBSAT WITH_FIXTURE FIXTURES_DIR RULES RECORDING
    1. `usbsat export --prometheus -o TMP/textfile/usbsat.prom` on the workstation fixture under umockdev;
    2. prometheus-node-exporter on a free 127.0.0.1 port reads TMP/textfile (textfile collector only);
       prometheus on another free 127.0.0.1 port scrapes it every 1 s and evaluates a test copy of the shipped
       rules every 1 s, with every `for:` set to 0s (so an alert fires at the first evaluation instead of after
       10 minutes; the expressions are the shipped ones);
    3. /api/v1/query: every USB drive of the export arrived with its labels and values (all five per-drive
       metrics), the doctor's findings, node_textfile_mtime_seconds of usbsat.prom; /api/v1/alerts:
       UsbsatDriveBelowCapableSpeed (sdc), UsbsatUasInactive (sdd) and UsbsatDoctorProblems fire, and no other;
    4. sde unplugged (RECORDING, the same machine's recording, with sde's USB device removed) and exported again
       with `--from`: sde's series go stale while the others stay, and UsbsatDriveDisappeared fires for sde.
Both servers are always stopped; every wait is bounded (the whole test takes well under 60 s).
Exit 77 (skip) only when prometheus, prometheus-node-exporter or the umockdev preload is absent.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import fail, failures, finish, main_with, skip  # noqa: E402  (tests/support/checks.py: one rule for every script)

DEADLINE = time.monotonic() + 50  # every wait below ends by then (a first timeout leaves the rest none)
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$")
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
UNPLUGGED = "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-2"  # sde, the SanDisk Extreme on usb2-port2
SHORT_FOR = re.compile(r"^(\s*)for: \S+$", re.M)


def ok(msg):
    print(f"ok: {msg}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def samples(text):
    """{(name, frozenset(labels)): value} of a textfile-format document."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, labels, value = SAMPLE.match(line).groups()
            out[(name, frozenset(LABEL.findall(labels or "")))] = float(value)
    return out


def api(port, path, **params):
    url = f"http://127.0.0.1:{port}{path}?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=5) as r:
        doc = json.load(r)
    if doc.get("status") != "success":
        raise RuntimeError(f"{url}: {doc}")
    return doc["data"]


def wait_for(what, probe, interval=0.25):
    """probe() until it returns a true value or the deadline passes; its last value either way."""
    last = None
    while time.monotonic() < DEADLINE:
        try:
            last = probe()
        except (OSError, RuntimeError, ValueError):
            last = None
        if last:
            return last
        time.sleep(interval)
    fail(f"timed out waiting for {what}")
    return last


def query(port, expr):
    """{frozenset(labels without __name__): value}"""
    return {frozenset((k, v) for k, v in r["metric"].items() if k != "__name__"): float(r["value"][1])
            for r in api(port, "/api/v1/query", query=expr)["result"]}


def firing(port):
    """{(alertname, dev or instance)} of the firing alerts."""
    return {(a["labels"]["alertname"], a["labels"].get("dev", a["labels"].get("instance")))
            for a in api(port, "/api/v1/alerts")["alerts"] if a["state"] == "firing"}


def export(cmd, out):
    p = subprocess.run(cmd + ["export", "--prometheus", "-o", out], capture_output=True, text=True)
    if p.returncode == 77:
        skip(p.stderr.strip())
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} export exited {p.returncode}: {p.stderr.strip()}")
    with open(out) as f:
        return samples(f.read())


def unplug(recording, usb_syspath):
    """The recording with one USB device and everything below it removed, as if it had been unplugged."""
    d = recording["data"]

    def gone(p):
        return p == usb_syspath or p.startswith(usb_syspath + "/")

    for section in ("attributes", "binary_attributes", "devices", "files", "links", "lists"):
        for k in [k for k in d[section] if gone(k)]:
            del d[section][k]
    for k, v in d["links"].items():
        d["links"][k] = {n: t for n, t in v.items() if not gone(t)}
    parent, name = usb_syspath.rsplit("/", 1)
    if parent in d["lists"]:
        d["lists"][parent][""] = [e for e in d["lists"][parent][""] if e != name]
    for sub, paths in d["enumerate"].items():
        d["enumerate"][sub] = [p for p in paths if not gone(p)]
    return recording


def check_arrived(port, exported, instance, what):
    """Every exported usbsat sample is in Prometheus with the same labels (plus instance, job) and value."""
    missing = 0
    for (name, labels), value in exported.items():
        if name.startswith("usbsat_scan_duration"):
            continue
        want = dict(labels, instance=instance, job="fleet")
        sel = ",".join(f'{k}="{v}"' for k, v in sorted(want.items()))
        got = query(port, f"{name}{{{sel}}}")
        if list(got.values()) != [value]:
            fail(f"{what}: {name}{{{sel}}}: want {value}, Prometheus has {got}")
            missing += 1
    return missing == 0


def main(usbsat, with_fixture, fixtures_dir, rules, recording):
    servers = {"prometheus": shutil.which("prometheus"),
               "node_exporter": shutil.which("prometheus-node-exporter")}
    for name, path in servers.items():
        if not path:
            skip(f"{name} not found (Debian: prometheus, prometheus-node-exporter)")
    procs = []
    with tempfile.TemporaryDirectory() as tmp:
        textdir = os.path.join(tmp, "textfile")
        os.mkdir(textdir)
        prom_file = os.path.join(textdir, "usbsat.prom")
        # 1. the export, on the fixture under umockdev
        first = export([with_fixture, os.path.join(fixtures_dir, "workstation"), "--", usbsat], prom_file)
        drives = sorted({dict(l)["dev"] for (n, l) in first if n == "usbsat_drive_link_speed_bytes_per_second"})
        if drives != ["sdb", "sdc", "sdd", "sde"]:
            fail(f"the workstation export's drives: {drives}")
        try:
            # 2. node_exporter and prometheus on free loopback ports
            ne_port, prom_port = free_port(), free_port()
            procs.append(subprocess.Popen(
                [servers["node_exporter"], f"--web.listen-address=127.0.0.1:{ne_port}",
                 "--collector.disable-defaults", "--collector.textfile",
                 f"--collector.textfile.directory={textdir}"],
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "node_exporter.log"), "w")))
            with open(rules) as f:
                shipped = f.read()
            test_rules = os.path.join(tmp, "usbsat-rules.yml")
            with open(test_rules, "w") as f:
                f.write(SHORT_FOR.sub(r"\1for: 0s", shipped))
            if SHORT_FOR.search(shipped) is None:
                fail("the shipped rules have no `for:` to shorten (did the file change?)")
            config = os.path.join(tmp, "prometheus.yml")
            with open(config, "w") as f:
                f.write(f"global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                        f"rule_files:\n  - {test_rules}\n"
                        f"scrape_configs:\n  - job_name: fleet\n    static_configs:\n"
                        f"      - targets: ['127.0.0.1:{ne_port}']\n")
            procs.append(subprocess.Popen(
                [servers["prometheus"], f"--config.file={config}", f"--storage.tsdb.path={tmp}/tsdb",
                 f"--web.listen-address=127.0.0.1:{prom_port}"],
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "prometheus.log"), "w")))
            instance = f"127.0.0.1:{ne_port}"

            # 3. every drive arrived; the expected alerts fire
            if not wait_for("the first scrape with usbsat metrics",
                            lambda: query(prom_port, 'usbsat_scan_errors{job="fleet"}')):
                return 1
            if check_arrived(prom_port, first, instance, "first export"):
                ok(f"all {len(first) - 1} usbsat samples of the export (drives {', '.join(drives)}) arrived with "
                   "their labels and values")
            mtime = query(prom_port, 'node_textfile_mtime_seconds{file=~"(.*/)?usbsat\\\\.prom"}')
            if len(mtime) != 1 or abs(next(iter(mtime.values())) - os.stat(prom_file).st_mtime) > 1:
                fail(f"node_textfile_mtime_seconds of usbsat.prom: {mtime} (the file's mtime: "
                     f"{os.stat(prom_file).st_mtime})")
            else:
                ok("node_textfile_mtime_seconds of usbsat.prom (what UsbsatExportStale watches) is the file's mtime")
            want = {("UsbsatDriveBelowCapableSpeed", "sdc"), ("UsbsatUasInactive", "sdd"),
                    ("UsbsatDoctorProblems", instance)}
            wait_for("the alerts of the first export", lambda: want <= firing(prom_port))
            got = firing(prom_port)
            if got == want:
                ok(f"firing: {sorted(got)}")
            else:
                fail(f"firing alerts: want exactly {sorted(want)}, got {sorted(got)}")

            # 4. sde unplugged: its series go stale, UsbsatDriveDisappeared fires
            with open(recording) as f:
                rec = unplug(json.load(f), UNPLUGGED)
            edited = os.path.join(tmp, "workstation-sde-unplugged.json")
            with open(edited, "w") as f:
                json.dump(rec, f)
            second = export([usbsat, "--from", edited], prom_file)
            left = sorted({dict(l)["dev"] for (n, l) in second if n == "usbsat_drive_link_speed_bytes_per_second"})
            if left != ["sdb", "sdc", "sdd"]:
                fail(f"the export with sde unplugged lists {left}")
            gone = wait_for("sde's series to go stale",
                            lambda: not query(prom_port, 'usbsat_drive_link_speed_bytes_per_second{dev="sde"}'))
            if gone:
                ok("sde's series went stale after the re-export without it")
            if check_arrived(prom_port, second, instance, "re-export"):
                ok("the other drives' series are still there, unchanged")
            want_gone = ("UsbsatDriveDisappeared", "sde")
            got = wait_for("UsbsatDriveDisappeared for sde", lambda: want_gone in firing(prom_port))
            if got:
                ok("UsbsatDriveDisappeared fires for sde")
            stray = {a for a in firing(prom_port) if a[0] == "UsbsatDriveDisappeared" and a != want_gone}
            if stray:
                fail(f"UsbsatDriveDisappeared fires for drives still there: {sorted(stray)}")
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
            if failures:
                for log in ("node_exporter.log", "prometheus.log"):
                    path = os.path.join(tmp, log)
                    if os.path.exists(path):
                        with open(path) as f:
                            print(f"--- {log} (last lines)\n" + "".join(f.readlines()[-15:]))
    return finish()


if __name__ == "__main__":
    main_with(main, 5, __doc__)
