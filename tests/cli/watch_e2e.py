#!/usr/bin/env python3
"""`usbsat watch` end to end: a USB drive plugged into a umockdev testbed at run time, then removed.

    watch_e2e.py HARNESS USBSAT SCHEMA_DIR FIXTURE_DIR json|text

HARNESS (tests/cli/watch_uevent_harness.cpp, linked to libumockdev) copies the generated `workstation` tree into
a testbed, unplugs the USB3 stick sdc (1-7, in the USB2-only connector usb1-port7), starts `usbsat watch` under
the umockdev preload, plugs the stick back in with umockdev_testbed_uevent("add") and removes it ("remove"),
then sends SIGINT. The verdicts must arrive within a second, say what the fixture says about sdc, validate
against report/schemas/watch-event.schema.json (json) and the watch must exit 0 on SIGINT. On the
`tb4-hub-chain` fixture the drive is the JMicron SSD sdc on the Thunderbolt 4 hub (2-1.4.2), and the verdict
must name the USB3 tunnel it landed on: the hub router's link 0-301, via the dock's 0-1, up to 8 Gb/s.
Exit 0 pass, 1 fail, 77 skip (no umockdev preload; python3-jsonschema missing outside CI).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_e2e  # noqa: E402  (Schemas; skips when jsonschema is missing)
from checks import check, fail, finish  # noqa: E402  (tests/support/checks.py, on the path schema_e2e set)

USB_DEVICE = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-7"
TB4_DEVICE = "/sys/devices/pci0000:00/0000:00:0d.0/usb2/2-1/2-1.4/2-1.4.2"
TB4_TUNNEL = "USB3 tunnel of the USB4 link 0-301 (OWC Thunderbolt Hub) via 0-1, up to 8 Gb/s"


def sections(out):
    """{'ADD': (ms, [lines]), 'REMOVE': ..., 'EXIT': code} from the harness's output."""
    res, cur = {}, None
    for line in out.splitlines():
        head = line.split(" ")
        if head[0] in ("ADD", "REMOVE") and len(head) == 2:
            cur = head[0]
            res[cur] = (int(head[1]), [])
        elif head[0] == "EXIT" and len(head) == 2:
            res["EXIT"] = int(head[1])
            cur = None
        elif cur and line:
            res[cur][1].append(line)
    return res


def check_tunnel(mode, add, schema_dir):
    """tb4-hub-chain: sdc landed in the hub router's USB3 tunnel, which rides the dock's link."""
    if mode == "json":
        check(len(add) == 1, f"one JSON line for the add: {len(add)}")
        schema_e2e.Schemas(schema_dir).check("watch-event", add[0], "watch --json")
        a = json.loads(add[0])
        t = a.get("usb4_tunnel") or {}
        check(a["dev"] == "sdc" and t.get("router") == "0-301", f"sdc in the tunnel of 0-301: {a['dev']} {t}")
        check(t.get("path") == ["0-1", "0-301"], f"the tunnel's path: {t.get('path')}")
        check(t.get("usb3_tunnel_gbps") == 8, f"up to 8 Gb/s: {t.get('usb3_tunnel_gbps')}")
    else:
        check(add and add[0].startswith("+ sdc ("), f"text headline '+ sdc (...': {add[:1]}")
        check(any(l.strip().startswith("arrived in the " + TB4_TUNNEL) for l in add),
              f"text: the tunnel line: {add}")


def main(argv):
    if len(argv) != 5 or argv[4] not in ("json", "text"):
        print(__doc__, file=sys.stderr)
        return 2
    harness, usbsat, schema_dir, fixture, mode = argv
    tb4 = os.path.basename(os.path.normpath(fixture)) == "tb4-hub-chain"
    cmd = [harness, fixture, TB4_DEVICE if tb4 else USB_DEVICE, "--", usbsat, "watch"] + (["--json"] if mode == "json" else [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    print(p.stdout)
    if p.returncode == 77:
        print(p.stdout.strip())
        return 77
    check(p.returncode == 0, f"harness exited {p.returncode}: {p.stderr.strip()[:400]}")
    s = sections(p.stdout)
    check("READY" in p.stdout, "usbsat watch said it is waiting")
    for what in ("ADD", "REMOVE"):
        if what not in s:
            fail(f"no {what} section")
            continue
        ms, lines = s[what]
        check(0 <= ms < 1000, f"{what}: the verdict arrived within a second (took {ms} ms)")
    check(s.get("EXIT") == 0, f"SIGINT: usbsat watch exits 0 (got {s.get('EXIT')})")
    if "ADD" in s and "REMOVE" in s and tb4:
        check_tunnel(mode, s["ADD"][1], schema_dir)
    elif "ADD" in s and "REMOVE" in s:
        add, remove = s["ADD"][1], s["REMOVE"][1]
        if mode == "json":
            schemas = schema_e2e.Schemas(schema_dir)
            check(len(add) == 1 and len(remove) == 1, f"one JSON line per event: {len(add)} and {len(remove)}")
            for line in add + remove:
                schemas.check("watch-event", line, "watch --json")
            a, r = json.loads(add[0]), json.loads(remove[0])
            check(a["action"] == "add" and a["dev"] == "sdc", f"add of sdc: {a['action']} {a['dev']}")
            check(a["connector"] and a["connector"]["id"] == "usb1-port7", "sdc is in usb1-port7")
            check(a["side"] == "USB2" and a["speed_mbps"] == 480 and a["capable_mbps"] == 5000,
                  f"USB2 side at 480 of 5000: {a['side']} {a['speed_mbps']} {a['capable_mbps']}")
            check(a["protocol"] == "bot", f"protocol bot: {a['protocol']}")
            check(any(f["id"] == "speed_below_capability" for f in a["findings"]),
                  "the doctor's speed_below_capability finding for sdc")
            check(a["move"] is not None and a["move"]["then_mbs"] > a["move"]["now_mbs"],
                  f"a faster free connector is proposed: {a['move']}")
            check(any(sh["kind"] == "controller" and sh["node"] == "0000:00:14.0" for sh in a["sharing"]),
                  f"sdc shares the chipset controller: {a['sharing']}")
            check(r["action"] == "remove" and r["dev"] == "sdc" and r["connector"]["id"] == "usb1-port7",
                  f"removal of sdc from usb1-port7: {r['action']} {r['dev']}")
        else:
            check(add and add[0].startswith("+ sdc ("), f"text headline '+ sdc (...': {add[:1]}")
            check(any(l.strip().startswith("connector: usb1-port7") for l in add), "text: the connector line")
            check(any(l.strip().startswith("move it to ") for l in add), "text: the move advice")
            check(any("PROBLEM speed_below_capability" in l for l in add), "text: the doctor's finding")
            check(remove and remove[0].startswith("- sdc (") and "usb1-port7" in remove[0],
                  f"text removal line: {remove[:1]}")
    return finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
