#!/usr/bin/env python3
"""Generate a large machine as a usbsat recording (the `--from` JSON format) by cloning real layouts.

    machine_gen.py OUT.json [--usb-devices N] [--samples DIR]      default N: 10000
    machine_gen.py OUT.json --routers N                             a USB4 machine with N more routers

Each clone is one of the generated sample recordings (workstation, asm1042-card, tb-dock: chipset and add-in
xHCI controllers, PCIe switch chains, hub pairs, UAS and Bulk-Only drives, SATA and NVMe disks), taken in turn,
renamed so that nothing collides with the clones before it: its own PCI domain (0001, 0002, ...), USB bus
numbers, SCSI hosts, ATA ports, NVMe controllers, sd names (sda ... sdzz, sdaaa), device numbers and disk
sequence numbers. Clones are added until the machine has N USB devices (root hubs, hubs and devices: what
`lsusb` lists; interfaces, ports and disks come on top).

With --routers N, the machine is instead tb4-hub-chain.json (`usbsat record` of the generated tb4-hub-chain tree:
a USB4 host router, a dock router 0-1 and a hub router 0-301 with drives behind both) with N more device routers
in a tree below the dock (up to 1,000: 250 on the dock's free downstream ports, three below each of those), each
one a copy of the hub router: every link behind a device router is the chained case of
topology/capacity/usb4_tunnels.cpp. Standard library only.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "topology", "recording", "samples")
BASES = ["workstation.json", "asm1042-card.json", "tb-dock.json"]
TB_BASE = os.path.join(HERE, "tb4-hub-chain.json")


def sd_name(index):
    """The kernel's name of the index-th SCSI disk: sda..sdz, sdaa..sdzz, sdaaa..."""
    letters = ""
    index += 1
    while index > 0:
        index, r = divmod(index - 1, 26)
        letters = chr(ord("a") + r) + letters
    return "sd" + letters


class Counters:
    """Running totals: the next free number of each kind of kernel name."""

    def __init__(self):
        self.domain = 0
        self.bus = 1
        self.host = 0
        self.ata = 1
        self.nvme = 0
        self.sd = 0
        self.diskseq = 0


class Fresh(dict):
    """Old number -> new number, each new one taken from `counters.<kind>` the first time it is asked for."""

    def __init__(self, counters, kind):
        super().__init__()
        self.counters, self.kind = counters, kind

    def __missing__(self, old):
        new = getattr(self.counters, self.kind)
        setattr(self.counters, self.kind, new + 1)
        self[old] = new
        return new


class Renamer:
    """Renames one clone's kernel names to fresh ones, taking numbers from `Counters` as they are met."""

    def __init__(self, counters):
        counters.domain += 1
        self.domain = "%04x" % counters.domain
        self.bus = Fresh(counters, "bus")
        self.host = Fresh(counters, "host")
        self.ata = Fresh(counters, "ata")
        self.nvme = Fresh(counters, "nvme")
        self.sd_index = Fresh(counters, "sd")
        self.diskseq = counters.diskseq
        counters.diskseq += 100

    def sd(self, old):
        return sd_name(self.sd_index[old])

    def name(self, s):
        """Every kernel name in `s` (a path, sysname, devnode or link target) renamed."""
        s = re.sub(r"\bpci0000:", "pci%s:" % self.domain, s)
        s = re.sub(r"(?<![0-9a-f:])0000:(?=[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])", self.domain + ":", s)
        s = re.sub(r"(?<![A-Za-z])usb(\d+)", lambda m: "usb%d" % self.bus[int(m.group(1))], s)
        s = re.sub(r"(?<![\w.:+-])(\d+)-(?=\d)", lambda m: "%d-" % self.bus[int(m.group(1))], s)
        s = re.sub(r"\bhost(\d+)\b", lambda m: "host%d" % self.host[int(m.group(1))], s)
        s = re.sub(r"\btarget(\d+):", lambda m: "target%d:" % self.host[int(m.group(1))], s)
        s = re.sub(r"(?<![\w:])(\d+)(?=:\d+:\d+:\d+\b)", lambda m: str(self.host[int(m.group(1))]), s)
        s = re.sub(r"\bata(\d+)\b", lambda m: "ata%d" % self.ata[int(m.group(1))], s)
        s = re.sub(r"\bnvme(\d+)", lambda m: "nvme%d" % self.nvme[int(m.group(1))], s)
        s = re.sub(r"\b(sd[a-z]+)(?=\d*\b)", lambda m: self.sd(m.group(1)), s)
        s = re.sub(r"\bbus/usb/(\d+)/", lambda m: "bus/usb/%03d/" % self.bus[int(m.group(1))], s)
        return s

    def properties(self, props):
        out = {}
        for k, v in props.items():
            if k == "BUSNUM":
                v = "%03d" % self.bus[int(v)]
            elif k == "DISKSEQ":
                v = str(self.diskseq + int(v))
            elif k == "MINOR" and props.get("MAJOR") == "8":
                v = str(int(self.sd_minor(props)))
            elif k == "DEVNAME":
                v = self.name(v)
            out[k] = v
        if "MAJOR" in out and out["MAJOR"] == "8":
            out["MAJOR"] = "65"  # one major for every clone's sd disks; the minor says which
        return out

    def sd_minor(self, props):
        """A unique minor for an sd disk or partition: 16 per disk, as the kernel counts them."""
        name = props.get("DEVNAME", "")
        m = re.match(r"(sd[a-z]+)(\d*)$", name)
        if not m:
            return props["MINOR"]
        return self.sd_index[m.group(1)] * 16 + int(m.group(2) or 0)


def clone(data, r):
    """One sample's data section with every kernel name renamed by `r`."""
    out = {}
    for section in ("attributes", "binary_attributes", "links", "lists"):
        out[section] = {r.name(path): ({k: (r.name(v) if isinstance(v, str) else
                                            [r.name(x) for x in v] if isinstance(v, list) else v)
                                        for k, v in value.items()} if section in ("links", "lists") else
                                       {k: (r.name(v) if k == "serial" and isinstance(v, str) else v)
                                        for k, v in value.items()})
                        for path, value in data.get(section, {}).items()}
    devices = {}
    for path, d in data["devices"].items():
        d = dict(d)
        for k in ("devnode", "parent", "sysname"):
            if isinstance(d.get(k), str):
                d[k] = r.name(d[k])
        d["properties"] = r.properties(d.get("properties", {}))
        devices[r.name(path)] = d
    out["devices"] = devices
    out["enumerate"] = {sub: [r.name(p) for p in paths] for sub, paths in data["enumerate"].items()}
    out["files"] = dict(data.get("files", {}))
    out["hwdb"] = data.get("hwdb", {})
    out["read_problems"] = list(data.get("read_problems", []))
    return out


def usb_devices(data):
    return sum(1 for d in data["devices"].values() if d.get("devtype") == "usb_device")


def generate(target, samples_dir):
    bases = [json.load(open(os.path.join(samples_dir, b), encoding="utf-8")) for b in BASES]
    counters = Counters()
    machine = {k: {} for k in ("attributes", "binary_attributes", "devices", "enumerate", "files", "hwdb",
                               "links", "lists")}
    machine["read_problems"] = []
    count = 0
    i = 0
    while count < target:
        base = bases[i % len(bases)]["data"]
        part = clone(base, Renamer(counters))
        for section in ("attributes", "binary_attributes", "devices", "files", "hwdb", "links", "lists"):
            machine[section].update(part[section])
        for sub, paths in part["enumerate"].items():
            machine["enumerate"].setdefault(sub, []).extend(paths)
        machine["read_problems"].extend(part["read_problems"])
        count += usb_devices(base)
        i += 1
    head = dict(bases[0])
    head["host"] = "h:5ca1e0000000"
    head["data"] = machine
    return head, i, count


def add_router(data, template, parent, route):
    """A copy of router `template` below `parent` at `route` (the kernel's name: 0-<route in hex>)."""
    name = "0-%x" % route
    path = parent + "/" + name
    data["devices"][path] = dict(data["devices"][template], parent=parent, sysname=name)
    data["attributes"][path] = dict(data["attributes"][template])
    data["lists"][path] = {"": sorted(e for e in data["lists"][template][""] if not e.startswith("usb4_port"))}
    data["enumerate"]["thunderbolt"].append(path)
    data["lists"][parent][""] = sorted(data["lists"][parent][""] + [name])
    return path


def generate_routers(n, base=TB_BASE):
    """tb4-hub-chain with `n` (at most 1,000) more device routers below its dock router 0-1."""
    doc = json.load(open(base, encoding="utf-8"))
    data = doc["data"]
    hub = next(p for p in data["devices"] if p.endswith("/0-301"))
    dock = os.path.dirname(hub)
    made = 0
    for k in range(4, 254):  # the dock's downstream ports: routes 0xkk01 (port 3 is the hub router's)
        if made == n:
            break
        mid = add_router(data, hub, dock, (k << 8) | 0x01)
        made += 1
        for j in range(1, 4):  # three below each: routes 0xjkk01
            if made == n:
                break
            add_router(data, hub, mid, (j << 16) | (k << 8) | 0x01)
            made += 1
    if made < n:
        raise SystemExit("at most %d routers fit below the dock" % made)
    doc["host"] = "h:5ca1e0000004"
    return doc, made


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--usb-devices", type=int, default=10000)
    ap.add_argument("--samples", default=SAMPLES)
    ap.add_argument("--routers", type=int, default=None)
    args = ap.parse_args()
    if args.routers is not None:
        doc, made = generate_routers(args.routers)
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=None, separators=(",", ":"), sort_keys=True)
        print("%s: tb4-hub-chain with %d more routers" % (args.out, made), file=sys.stderr)
        return
    doc, clones, count = generate(args.usb_devices, args.samples)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"), sort_keys=True)
    disks = sum(1 for d in doc["data"]["devices"].values() if d.get("devtype") == "disk")
    print("%s: %d clones, %d USB devices, %d udev devices, %d disks" %
          (args.out, clones, count, len(doc["data"]["devices"]), disks), file=sys.stderr)


if __name__ == "__main__":
    main()
