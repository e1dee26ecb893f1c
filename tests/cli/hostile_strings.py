#!/usr/bin/env python3
"""recording.hostile_strings: hostile bytes in every string a recording gives the scanner never reach stdout.

Linux recordings: every string the scanner reads. Windows recordings: every string of the snapshot (below).

usage: hostile_strings.py USBSAT RECORDING...

The attributes are not listed here: they are every question the scanner itself asked when the recording was
made (the recording keeps each attribute, link, listing, uevent property, driver and hwdb answer), so an
attribute a later scanner reads is covered as soon as a recording holds it. Three variants per recording:

  all      every text attribute's value gets HOSTILE appended (numbers turn into garbage: the diagnostics
           path), every uevent property, driver and hwdb value too
  text     the same, but attributes whose value is a number, id or link value keep it, so the tree, the
           drives, the plan and the report are as rich as the original and every shown string carries it
  names    a block device's and a PCI bridge's names (syspath components, so keys, listings and links
           alike) carry HOSTILE: names the model takes from paths

A Windows recording (platform "windows") gets two variants of its own: `all`, every string of the snapshot
but the descriptors (hex bytes, parsed, never shown) with the payload appended, so instance IDs, locations and
services turn into garbage consistently; `text`, only the names the views show (descriptions, manufacturers,
string descriptors, disk vendor/product/revision/serial, file systems). JSON strings are UTF-8, so a Windows
recording carries the payload's valid part (ESC, C1, bidi, DEL); the invalid bytes are covered by windows_test
("hostile bytes in every string of a recording"), which poisons the snapshot itself.

Then every command's text output (topo, topo --all, drives, ports, doctor, plan --predict, plan --drives 1,
export --prometheus, report -o -, topo --dot, topo --json) must be valid UTF-8 with no C0 control but newline
and tab, no DEL, no C1 control (U+0080..U+009F) and no bidi formatting character — on stdout and on stderr
(the diagnostics). And the escaped form of the payload must appear somewhere, so the check is not vacuous.
"""
import base64
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

# Title-setting OSC, clear screen, a C1 CSI, right-to-left override, a bidi isolate, RLM, Arabic letter mark,
# DEL, invalid UTF-8, backspace and carriage return.
HOSTILE = (b"\x1b]0;pwned\x07\x1b[2J\xc2\x9b" b"31m\xe2\x80\xae\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c\x7f\xff\xfe\x08\r")
# What the sanitiser makes of the start of it: proof the payload was shown, escaped.
SHOWN = "\\x1b]0;pwned\\x07"
# The same payload for names: path components cannot hold '/' or NUL; these bytes are all allowed in a name.
NAME_SUFFIX = HOSTILE

BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}
# A value that is a number, an id, a PCIe link value or a power: the scanner parses it, never shows it raw.
NUMERIC = re.compile(r"^\s*(0x)?[0-9a-fA-F.:]*\s*(GT/s( PCIe)?|mA)?\s*$")

COMMANDS = [
    ["topo"], ["topo", "--all"], ["drives"], ["ports"], ["doctor"], ["plan", "--predict"],
    ["plan", "--drives", "1"], ["export", "--prometheus"], ["report", "-o", "-"], ["topo", "--dot"],
    ["topo", "--json"],
]


def text_value(v):
    """Decode a recording text value: a JSON string or {"base64": ...}."""
    if isinstance(v, dict) and "base64" in v:
        return base64.b64decode(v["base64"])
    return v.encode()


def hostile_value(v):
    return {"base64": base64.b64encode(text_value(v) + HOSTILE).decode()}


def poison_values(data, only_text):
    for answers in data["attributes"].values():
        for name, v in answers.items():
            if v is None:
                continue
            if only_text and NUMERIC.match(text_value(v).decode("utf-8", "replace")):
                continue
            answers[name] = hostile_value(v)
    for dev in data["devices"].values():
        if not dev:
            continue
        if dev.get("driver"):
            dev["driver"] = hostile_value(dev["driver"])
        for k, v in list(dev.get("properties", {}).items()):
            if not (only_text and NUMERIC.match(v)):
                dev["properties"][k] = hostile_value(v)
    for entries in data["hwdb"].values():
        for e in entries:
            e[1] = hostile_value(e[1])


def rename_everywhere(node, old, new):
    """Replace path component `old` by `new` in every key and string of the document, sysnames included (a
    consistent rename)."""
    pattern = re.compile(r"(?:(?<=/)|^)" + re.escape(old) + r"(?=/|$)")

    def fix(s):
        return pattern.sub(new, s) if isinstance(s, str) else s
    if isinstance(node, dict):
        return {fix(k): rename_everywhere(v, old, new) for k, v in node.items()}
    if isinstance(node, list):
        return [rename_everywhere(x, old, new) for x in node]
    return fix(node)


def poison_names(doc):
    """Rename the first block device and the first PCI bridge: JSON strings must be UTF-8, so the names get the
    payload's valid-UTF-8 part (ESC, C1, bidi, DEL); invalid bytes in names are covered by the value variants."""
    data = doc["data"]
    blocks = [p for p in data["enumerate"].get("block", [])]
    payload = HOSTILE.decode("utf-8", "ignore")
    renamed = []
    for path in blocks[:1]:
        renamed.append(path.rsplit("/", 1)[1])
    bridges = sorted({m.group(1) for p in data["devices"] for m in [re.search(r"/(0000:00:1c\.\d)/", p)] if m})
    renamed += bridges[:1]
    for name in renamed:
        doc["data"] = rename_everywhere(doc["data"], name, name + payload)
    return renamed


WINDOWS_NAMES = {"description", "manufacturer", "product", "serial", "vendor", "revision", "filesystem"}


def poison_windows(node, only_names, key=None):
    """The payload's valid UTF-8 part appended to every string under `node` (a Windows snapshot) but the
    descriptors; with `only_names`, to the shown names only."""
    if isinstance(node, dict):
        return {k: v if k.endswith("_descriptor") else poison_windows(v, only_names, k) for k, v in node.items()}
    if isinstance(node, list):
        return [poison_windows(x, only_names, key) for x in node]
    if isinstance(node, str) and (not only_names or key in WINDOWS_NAMES):
        return node + HOSTILE.decode("utf-8", "ignore")
    return node


def variants(original):
    """(variant name, poisoned document) for one recording."""
    if original.get("platform") == "windows":
        for variant in ("all", "text"):
            doc = copy.deepcopy(original)
            doc["data"] = poison_windows(doc["data"], variant == "text")
            yield variant, doc
        return
    if original.get("platform") != "linux":
        return
    for variant in ("all", "text", "names"):
        doc = copy.deepcopy(original)
        if variant == "names":
            if not poison_names(doc):
                continue
            poison_values(doc["data"], True)  # so the payload also shows (the names alone may not)
        else:
            poison_values(doc["data"], variant == "text")
        yield variant, doc


def bad_chars(text):
    """The first offending character of decoded output, as a description; None when clean."""
    for i, c in enumerate(text):
        o = ord(c)
        if (o < 0x20 and c not in "\n\t") or o == 0x7F or 0x80 <= o <= 0x9F or o in BIDI:
            return f"U+{o:04X} at {i}: ...{text[max(0, i - 40):i]!r}"
    return None


def check_stream(label, data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"{label}: invalid UTF-8 ({e})"], ""
    bad = bad_chars(text)
    return ([f"{label}: raw control/bidi character {bad}"] if bad else []), text


def run_variant(usbsat, path, label):
    failures, shown = [], False
    for argv in COMMANDS:
        cmd = [usbsat, "--no-color", "--from", path] + argv
        p = subprocess.run(cmd, capture_output=True, timeout=120)
        what = f"{label}: usbsat {' '.join(argv)}"
        if p.returncode not in (0, 4, 10, 11):  # findings and warnings are fine; a crash or usage error is not
            failures.append(f"{what}: exit {p.returncode}: {p.stderr.decode('utf-8', 'replace')[-400:]}")
        for stream, data in (("stdout", p.stdout), ("stderr", p.stderr)):
            f, text = check_stream(f"{what} ({stream})", data)
            failures += f
            shown |= SHOWN in text or SHOWN.replace("\\", "\\\\") in text
    if not shown:
        failures.append(f"{label}: the escaped payload {SHOWN!r} appears in no output: nothing was tested")
    return failures


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    usbsat, recordings = sys.argv[1], sys.argv[2:]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for rec in recordings:
            with open(rec, encoding="utf-8") as f:
                original = json.load(f)
            base = os.path.basename(rec)
            for variant, doc in variants(original):
                path = os.path.join(tmp, f"{variant}-{base}")
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(doc, f)
                failures += run_variant(usbsat, path, f"{base}/{variant}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(recordings)} recording(s), {len(COMMANDS)} commands x 2-3 variants: "
          f"{'ok' if not failures else f'{len(failures)} failure(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
