#!/usr/bin/env python3
"""usbsat remembers what drives did (topology/history, src/cli/history_file.hpp), end to end with the real binary:

  1. a store naming a drive of a shipped recording: `plan --predict` gives it the measured demand and says when and
     where; `doctor` names the basis; `history` lists it; every document validates against its schema;
  2. bad stores, one row each (corrupt, truncated, newer version, hostile text, a directory): one line on stderr,
     the answer still printed (exit 0), the file left byte for byte; `history forget all` starts anew;
  3. `history forget DEV` forgets one drive; `--history off` remembers nothing;
  4. under umockdev (skipped without it): `record` carries the measurements of the recorded drives, and
     `--from` that recording predicts with them, whatever store the reader has.

usage: history_e2e.py USBSAT SCHEMA_DIR SAMPLE_RECORDING [WITH_FIXTURE SCENARIO_DIR]
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import table_test  # noqa: E402

rows = []


def run(usbsat, *args, env=None):
    p = subprocess.run([usbsat, *args], capture_output=True, text=True, env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout, p.stderr


def validate(schema_dir, name, doc):
    try:
        import jsonschema
    except ImportError:
        return "no jsonschema"
    with open(os.path.join(schema_dir, f"{name}.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    store = {}
    for n in os.listdir(schema_dir):
        if n.endswith(".schema.json"):
            with open(os.path.join(schema_dir, n), encoding="utf-8") as f:
                s = json.load(f)
            store[s["$id"]] = s
    resolver = jsonschema.RefResolver(schema["$id"], schema, store=store)
    try:
        jsonschema.Draft202012Validator(schema, resolver=resolver).validate(doc)
        return "valid"
    except jsonschema.ValidationError as e:
        return f"invalid: {e.message}"


def connector_of(drive):
    """The port the drive's USB device is plugged into (`drives --json` names its connector's two sides)."""
    c = drive["connector"] or {}
    return (c.get("usb3_port") if drive["speed_mbps"] >= 5000 else c.get("usb2_port")) or ""


def pseudonym(serial):
    """A serial as recordings hide it (topology/recording/serials.hpp): "h:" and 12 hex digits of FNV-1a 64."""
    if serial.startswith("h:") and len(serial) == 14:
        return serial
    h = 0xcbf29ce484222325
    for b in serial.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "h:" + f"{h:016x}"[:12]


def store_for(drive, mbs, date="2026-12-05T10:00:00Z"):
    """A store with one measurement alone of `drive` (a `drives --json` entry) where it is plugged now."""
    serial = pseudonym(drive["serial"] or "")
    key = f"{drive['vid_pid']}:{serial}:{drive['size_bytes']}"
    m = {"date": date, "version": "0.1.0", "command": "load", "pattern": "read", "block_size": 131072,
         "queue_depth": 1, "group": [], "mbs": mbs, "iops": mbs * 1e6 / 131072, "device": drive["dev"],
         "connector": connector_of(drive), "rate": {5000: "USB 3.2 Gen 1", 10000: "USB 3.2 Gen 2",
                                                         480: "USB 2.0"}[drive["speed_mbps"]],
         "protocol": drive["protocol"], "controller": drive["controller"]["pci"]}
    return {"format": "usbsat-history", "version": 1,
            "drives": [{"key": key, "vid_pid": drive["vid_pid"], "serial": serial,
                        "size_bytes": drive["size_bytes"], "model": drive["model"] or "", "measurements": [m]}],
            "resources": []}


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def measured_plan(usbsat, schema_dir, sample, tmp):
    _, out, _ = run(usbsat, "--history", "off", "--from", sample, "drives", "--json")
    sde = next(d for d in json.loads(out)["drives"] if d["dev"] == "sde")
    h = os.path.join(tmp, "history.json")
    write(h, store_for(sde, 612.5))
    rc, out, err = run(usbsat, "--history", h, "--from", sample, "plan", "--predict", "--json")
    pred = {d["dev"]: d for d in json.loads(out)["drives"]}
    rows.append(("plan --predict exit", rc, 0))
    rows.append(("sde demand source", pred["sde"]["demand_source"], "measured"))
    rows.append(("sde demand", pred["sde"]["demand_mbs"], 612.5))
    rows.append(("sde basis says when and where",
                 pred["sde"]["demand_basis"] == "measured 2026-12-05 (load read 128k QD1; usb2-port2, USB 3.2 Gen 2 UAS)", True))
    rows.append(("plan --predict schema", validate(schema_dir, "plan-predict", json.loads(out)), "valid"))
    rows.append(("other drives: not measured", pred["sdb"]["demand_source"], "link_ceiling"))
    rows.append(("the 500 GB rotational disk on BOT: estimated", pred["sdd"]["demand_source"], "estimated"))
    rc, out, err = run(usbsat, "--history", h, "history", "--json")
    doc = json.loads(out)
    rows.append(("history --json schema", validate(schema_dir, "history", doc), "valid"))
    rows.append(("history lists the drive", [d["model"] for d in doc["drives"]], [sde["model"] or ""]))
    rc, out, err = run(usbsat, "--history", h, "history")
    rows.append(("history text names the job", "load read 128k QD1" in out and "612.5" in out, True))
    rc, out, err = run(usbsat, "--history", h, "history", "forget", "nosuchdrive")
    rows.append(("forget an unknown drive: exit 2", rc, 2))
    key = json.loads(read(h))["drives"][0]["key"]
    rc, out, err = run(usbsat, "--history", h, "history", "forget", key[:12])
    rows.append(("forget by key prefix", (rc, len(json.loads(read(h))["drives"])), (0, 0)))
    rc, out, err = run(usbsat, "--history", "off", "history")
    rows.append(("history off", (rc, "the history is off (--history off)" in out), (0, True)))


def bad_stores(usbsat, sample, tmp):
    h = os.path.join(tmp, "bad.json")
    table = [
        ("corrupt", "{\"format\": \"usbsat-history\", \"vers", "not valid JSON"),
        ("a newer version", json.dumps({"format": "usbsat-history", "version": 9, "drives": [], "resources": []}),
         "version 9; this usbsat reads version 1"),
        ("another format", json.dumps({"format": "usbsat-recording", "version": 1}), "not a usbsat history"),
        ("hostile text", json.dumps({"format": "usbsat-history", "version": 1, "resources": [],
                                     "drives": [{"key": "\u001b]0;x\u0007"}]}), "a control character"),
        ("a key that lies", json.dumps({"format": "usbsat-history", "version": 1, "resources": [],
                                        "drives": [{"key": "k", "vid_pid": "1:2", "serial": "", "size_bytes": 1,
                                                    "model": "", "measurements": []}]}), "does not match"),
    ]
    for what, text, said in table:
        write(h, text)
        rc, out, err = run(usbsat, "--history", h, "--from", sample, "plan", "--predict")
        rows.append((f"{what}: plan still answers", (rc, "aggregate" in out), (0, True)))
        rows.append((f"{what}: one line says why", err.count("the history in") == 1 and said in err, True))
        rows.append((f"{what}: no raw escape on stderr", "\x1b" in err, False))
        rc, out, err = run(usbsat, "--history", h, "history", "forget", "sdb")
        rows.append((f"{what}: forget refuses to rewrite it", (rc != 0, read(h) == text), (True, True)))
    rc, _, _ = run(usbsat, "--history", h, "history", "forget", "all")
    rows.append(("forget all starts anew", (rc, json.loads(read(h))["drives"]), (0, [])))
    os.remove(h)
    os.mkdir(h)
    rc, out, err = run(usbsat, "--history", h, "--from", sample, "doctor")
    rows.append(("a directory: doctor still answers", rc in (0, 10, 11) and "not a regular file" in err, True))


def record_carries(usbsat, with_fixture, scenario, tmp):
    def fx(*args, env=None):
        p = subprocess.run([with_fixture, scenario, "--", usbsat, *args], capture_output=True, text=True,
                           env=dict(os.environ, **(env or {})))
        if p.returncode == 77:
            return None
        return p
    p = fx("--history", "off", "drives", "--json")
    if p is None:
        print("note: no umockdev preload: the record/--from rows are skipped")
        return
    usb = [d for d in json.loads(p.stdout)["drives"] if d["usb"] and d["vid_pid"] and d["size_bytes"]]
    h = os.path.join(tmp, "rec-history.json")
    write(h, store_for(usb[0], 123.4))
    rec = os.path.join(tmp, "rec.json")
    p = fx("--history", h, "record", "-o", rec)
    rows.append(("record exit", p.returncode, 0))
    with open(rec, encoding="utf-8") as f:
        carried = json.load(f).get("history", {})
    rows.append(("the recording carries the drive", len(carried.get("drives", [])), 1))
    other = os.path.join(tmp, "other.json")
    write(other, {"format": "usbsat-history", "version": 1, "drives": [], "resources": []})
    rc, out, err = run(usbsat, "--from", rec, "plan", "--predict", "--json", env={"USBSAT_HISTORY": other})
    pred = {d["dev"]: d for d in json.loads(out)["drives"]}
    rows.append(("--from predicts with the recorded measurement",
                 (pred[usb[0]["dev"]]["demand_source"], pred[usb[0]["dev"]]["demand_mbs"]), ("measured", 123.4)))


def main():
    usbsat, schema_dir, sample = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="usbsat-history-") as tmp:
        measured_plan(usbsat, schema_dir, sample, tmp)
        bad_stores(usbsat, sample, tmp)
        if len(sys.argv) > 5:
            record_carries(usbsat, sys.argv[4], sys.argv[5], tmp)
    return table_test.report(rows)


if __name__ == "__main__":
    sys.exit(main())
