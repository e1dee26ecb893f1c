#!/usr/bin/env python3
"""usbsat record / --from end to end.

  recording_e2e.py USBSAT roundtrip WITH_FIXTURE SCENARIO_DIR
      Under umockdev: `usbsat record -o X --keep-serials`; then, WITHOUT umockdev (so nothing live can leak in),
      `usbsat --from X <view> --json` must equal the live `usbsat <view> --json` byte for byte (stdout, stderr,
      exit code) for topo, drives, ports, doctor and plan --predict. Then the default recording (serials hidden):
      no serial of the live scan appears in the file, and the replayed topo/drives equal the live ones with each
      serial replaced by its pseudonym ("h:" + 12 hex of FNV-1a 64, topology/recording/serials.hpp).
  recording_e2e.py USBSAT golden RECORDING GOLDEN
      `usbsat --from RECORDING drives --json` equals GOLDEN (a v1 recording must keep loading in later versions).
  recording_e2e.py USBSAT samples DIR
      Every DIR/*.json (the shipped samples) loads: topo, drives --json, ports, doctor run without an error exit.
Exit 77 (skip) when the umockdev preload is missing.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import skip, stop as fail  # noqa: E402  (tests/support/checks.py; each failure here ends the run)

VIEWS = [["topo", "--json"], ["drives", "--json"], ["ports", "--json"], ["doctor", "--json"],
         ["plan", "--predict", "--json"]]


def run(argv, env=None):
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    if "internal error" in p.stderr or p.returncode < 0:
        fail(f"{argv}: crashed ({p.returncode}): {p.stderr[-500:]}")
    return p


def pseudonym(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "h:" + f"{h:016x}"[:12]


def serials(doc, out):
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == "serial" and isinstance(v, str):
                out.add(v)
            else:
                serials(v, out)
    elif isinstance(doc, list):
        for v in doc:
            serials(v, out)
    return out


def hide(doc, bus_ids):
    """The live document as the recording without --keep-serials shows it; bus ids (root hubs) stay."""
    if isinstance(doc, dict):
        return {k: (pseudonym(v) if k == "serial" and isinstance(v, str) and v and v not in bus_ids
                    else hide(v, bus_ids)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [hide(v, bus_ids) for v in doc]
    return doc


def roundtrip(usbsat, with_fixture, scenario):
    name = os.path.basename(scenario.rstrip("/"))
    with tempfile.TemporaryDirectory(prefix="usbsat-rec-") as tmp:
        kept, hidden = os.path.join(tmp, "kept.json"), os.path.join(tmp, "hidden.json")
        live = {}
        for v in VIEWS:
            live[tuple(v)] = run([with_fixture, scenario, "--", usbsat, *v])
            if live[tuple(v)].returncode == 77:
                skip("no umockdev preload")
        for path, extra in ((kept, ["--keep-serials"]), (hidden, [])):
            p = run([with_fixture, scenario, "--", usbsat, "record", "-o", path, *extra])
            if p.returncode not in (0, 4) or not os.path.exists(path):
                fail(f"{name}: record {extra} exited {p.returncode}: {p.stderr[-500:]}")
        # Nothing of the live system may be read now: no preload, this machine's /sys has other devices.
        for v in VIEWS:
            p = run([usbsat, "--from", kept, *v])
            want = live[tuple(v)]
            for what in ("returncode", "stdout", "stderr"):
                if getattr(p, what) != getattr(want, what):
                    fail(f"{name}: `--from {' '.join(v)}` {what} differs from the live run:\n"
                         f"live: {str(getattr(want, what))[:800]}\nfrom: {str(getattr(p, what))[:800]}")
        # Serials hidden: none in the file, the replay shows their pseudonyms.
        text = open(hidden, encoding="utf-8").read()
        bus_ids = {part for path in json.loads(text)["data"]["devices"] for part in path.split("/")}
        found = serials(json.loads(live[("topo", "--json")].stdout), set()) - bus_ids
        for s in found:
            if len(s) >= 4 and s in text:
                fail(f"{name}: serial {s!r} is in the recording made without --keep-serials")
        for v in (["topo", "--json"], ["drives", "--json"]):
            p = run([usbsat, "--from", hidden, *v])
            if json.loads(p.stdout) != hide(json.loads(live[tuple(v)].stdout), bus_ids):
                fail(f"{name}: `--from <hidden> {' '.join(v)}` is not the live output with pseudonymous serials")
        print(f"{name}: {len(VIEWS)} commands identical from the recording ({os.path.getsize(kept)} bytes); "
              f"{len(found)} serials hidden")


def golden(usbsat, recording, golden_path):
    p = run([usbsat, "--from", recording, "drives", "--json"])
    want = open(golden_path, encoding="utf-8").read()
    if p.returncode != 0 or p.stdout != want:
        fail(f"--from {recording} drives --json (exit {p.returncode}) differs from {golden_path}:\n{p.stdout[:1500]}"
             f"\n{p.stderr[-500:]}")
    print("v1 recording matches its golden")


def samples(usbsat, folder):
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    if len(files) < 3:
        fail(f"{folder}: {len(files)} sample recordings, expected at least 3")
    for f in files:
        path = os.path.join(folder, f)
        for v in (["topo"], ["drives", "--json"], ["ports"], ["doctor"]):
            p = run([usbsat, "--from", path, *v])
            if p.returncode not in (0, 4, 10, 11) or not p.stdout:
                fail(f"{f}: {' '.join(v)} exited {p.returncode}: {p.stderr[-500:]}")
        drives = json.loads(run([usbsat, "--from", path, "drives", "--json"]).stdout)
        print(f"{f}: loads ({len(drives.get('drives', []))} drives)")


def main(argv):
    if len(argv) == 4 and argv[1] == "roundtrip":
        roundtrip(argv[0], argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "golden":
        golden(argv[0], argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "samples":
        samples(argv[0], argv[2])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
