#!/usr/bin/env python3
"""Platform parity: one machine seen by the Linux scanner and by the Windows backend gives the same drives.

    parity_test.py USBSAT WITH_FIXTURE FIXTURE_DIR WINDOWS_RECORDING

Linux: `usbsat drives --json` on the scenario's sysfs tree under umockdev (WITH_FIXTURE FIXTURE_DIR -- ...).
Windows: `usbsat --from WINDOWS_RECORDING drives --json`, the recording of the same machine as Windows shows it
(tests/fixtures/windows/make_fixtures.py spells it from the same descriptors, serials and sizes). USB drives are
paired by VID:PID and serial; every field both platforms can know must be equal (FIELDS, CONNECTOR_FIELDS,
CONTROLLER_FIELDS, PCIE_HOP_FIELDS). Left out, by design:
  dev, devnode, hctl     platform names (sdb / PhysicalDrive1, SCSI host numbers);
  port_path, usb3_port   Windows numbers a root hub's SuperSpeed ports by xHCI port (19), Linux from 1 on the
                         USB3 root hub (3); the connector (USB2 port + peer) is the same and is compared;
  driver                 uas / UASPStor, usb-storage / USBSTOR (the protocol they mean is compared);
  queue_depth, nr_requests, max_sectors_kb, max_hw_sectors_kb   Linux block-layer settings;
  mountpoints            /media/... vs E:\\;
  names of controllers, vendors and PCIe hops   pci.ids vs the Windows driver's description.
Exit 0 when equal; 1 with every difference listed. Exit 77 when umockdev's preload is missing (with-fixture.sh).
"""
import json
import subprocess
import sys

FIELDS = ["usb", "transport", "speed_mbps", "capable_mbps", "capable_source", "protocol", "uas_capable",
          "uas_blocked_reason", "vid_pid", "usb_name", "vendor", "model", "serial", "size_bytes", "rotational",
          "removable"]
CONNECTOR_FIELDS = ["id", "label", "hub", "on_root_hub", "port", "usb2_port", "speed", "max_speed_mbps",
                    "connect_type"]
CONTROLLER_FIELDS = ["pci", "kind", "vendor_id", "device_id", "pcie_link", "root_hubs", "companions"]
PCIE_HOP_FIELDS = ["pci", "speed_gts", "width", "max_speed_gts", "max_width"]


def drives(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode == 77:
        print(r.stderr, end="")
        sys.exit(77)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)["drives"]


def comparable(d):
    """The fields of drive d both platforms can know, nested objects reduced to theirs."""
    out = {k: d.get(k) for k in FIELDS}
    c = d.get("connector")
    out["connector"] = c and {k: c.get(k) for k in CONNECTOR_FIELDS}
    h = d.get("controller")
    out["controller"] = h and {k: h.get(k) for k in CONTROLLER_FIELDS}
    out["pcie_uplink"] = [{k: hop.get(k) for k in PCIE_HOP_FIELDS} for hop in d.get("pcie_uplink") or []]
    out["hub_chain"] = len(d.get("hub_chain") or [])  # hub ids carry the port numbers (see port_path)
    return out


def key(d):
    return (d.get("vid_pid"), d.get("serial"))


def main():
    usbsat, with_fixture, fixture_dir, windows_recording = sys.argv[1:5]
    linux = [d for d in drives([with_fixture, fixture_dir, "--", usbsat, "drives", "--json"]) if d["usb"]]
    windows = [d for d in drives([usbsat, "--from", windows_recording, "drives", "--json"]) if d["usb"]]
    failures = []
    lk, wk = {key(d): d for d in linux}, {key(d): d for d in windows}
    if len(lk) != len(linux) or len(wk) != len(windows):
        failures.append("two USB drives share VID:PID and serial: cannot pair them")
    if set(lk) != set(wk):
        failures.append(f"USB drives differ: Linux {sorted(map(str, lk))}, Windows {sorted(map(str, wk))}")
    if not lk:
        failures.append("no USB drives on the Linux side: nothing compared")
    compared = 0
    for k in sorted(set(lk) & set(wk), key=str):
        a, b = comparable(lk[k]), comparable(wk[k])
        name = f"{lk[k]['dev']} / {wk[k]['dev']} ({k[0]})"
        for field in a:
            compared += 1
            if a[field] != b[field]:
                failures.append(f"{name}: {field}: Linux {json.dumps(a[field])} != Windows {json.dumps(b[field])}")
        if not failures:
            print(f"ok    {name}: {len(a)} fields equal")
    # The grouping the planner and saturate start from: which USB drives share a controller.
    def groups(ds):
        g = {}
        for d in ds:
            g.setdefault((d.get("controller") or {}).get("pci"), set()).add(key(d))
        return g
    if groups(linux) != groups(windows):
        failures.append(f"drives per controller differ: Linux {groups(linux)}, Windows {groups(windows)}")
    for f in failures:
        print("FAIL  " + f)
    print(f"{compared} field comparisons over {len(set(lk) & set(wk))} USB drives, {len(failures)} difference(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
