#!/usr/bin/env python3
"""End-to-end test of `usbsat topo|drives|ports` on one generated sysfs scenario, under umockdev.

Runs the real binary through tests/fixtures/with-fixture.sh, stdout a pipe, and checks
  1. every view (text and --json) against tests/fixtures/golden/fixture-<scenario>.<view>.{txt,json}
     (UPDATE_GOLDEN=1 rewrites them; refused when CI is set, since it makes every golden check pass), with no
     escape sequence although TERM asks for colour and COLUMNS for a narrow width (a pipe is never coloured);
  2. the facts of every view against oracles usbsat does not write: the generator's independent
     <scenario>.expected.json (drives, controllers, connectors, every USB device and interface, both ways:
     nothing missing, nothing extra) and, for every scenario including real recordings, `lsusb -t` on the
     same tree (every bus, device and interface both ways). The text views must name every drive and controller;
  3. `topo --dot`: a digraph naming every drive and controller, which Graphviz's own `dot -Tsvg` lays out with
     exit 0 and no warning (a missing `dot` is a failure under CI, a note elsewhere).
Exit 77 (skip) when the umockdev preload is missing.

usage: views_e2e.py USBSAT WITH_FIXTURE SCENARIO_DIR EXPECTED_JSON|- GOLDEN_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from golden import check_golden as golden_check, running_in_ci  # noqa: E402  (tests/support/golden.py: the one golden rule)

# The benchmark scenario: its views are megabytes and its scan is slow under the preload, so only
# `drives --json` and `ports --json` run, checked against expected.json.
NO_GOLDEN = {"large"}

# Keys of the generator's drive records that the drives JSON carries under another name or not at all; both are
# checked elsewhere (power_control on the topo's USB device, quirk_forced_bot through uas_blocked_reason).
IGNORED_DRIVE_KEYS = {"power_control", "quirk_forced_bot"}

from checks import fail, finish, skip  # noqa: E402  (tests/support/checks.py: one rule for every script)


# stdout is a pipe here, so the output must be the plain text of the goldens even when everything else asks
# for colour and a narrow width: a colour-capable TERM, no NO_COLOR, a small COLUMNS.
PIPE_ENV = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
PIPE_ENV.update({"TERM": "xterm-256color", "COLUMNS": "40"})


def run(usbsat, with_fixture, scenario_dir, args):
    # The host's /proc/self/mountinfo has nothing to do with the fixture's disks: read no mounts.
    p = subprocess.run([with_fixture, scenario_dir, "--", usbsat, *args, "--mountinfo", ""], capture_output=True,
                       text=True, env=PIPE_ENV)
    if p.returncode == 77:
        skip(p.stderr.strip())
    if p.returncode not in (0, 4):
        fail(f"usbsat {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    if "no USB host controller" in p.stderr:
        fail(f"usbsat {' '.join(args)} saw no USB controller in the fixture: {p.stderr.strip()}")
    if "\x1b" in p.stdout:
        fail(f"usbsat {' '.join(args)} wrote an escape sequence to a pipe (TERM=xterm-256color, no NO_COLOR)")
    return p.stdout


def normalize_location(loc):
    """The generator writes sysfs' "yes"/"no" for dock/lid; usbsat has booleans."""
    if loc is None:
        return None
    return {k: ({"yes": True, "no": False}.get(v, v) if k in ("dock", "lid") else v) for k, v in loc.items()}


def subset(expected, actual, where):
    """Every key of `expected` must be in `actual` with an equal value (dicts compared recursively)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            fail(f"{where}: expected an object, got {actual!r}")
            return
        for k, v in expected.items():
            if k not in actual:
                fail(f"{where}: key {k!r} missing")
            else:
                subset(v, actual[k], f"{where}.{k}")
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            fail(f"{where}: expected {expected!r}, got {actual!r}")
            return
        for i, (e, a) in enumerate(zip(expected, actual)):
            subset(e, a, f"{where}[{i}]")
    elif expected != actual:
        fail(f"{where}: expected {expected!r}, got {actual!r}")


def paired(what, mine, theirs):
    """Both ways: names only one side has are failures; yields (name, expected, actual) for the others."""
    if sorted(mine) != sorted(theirs):
        fail(f"{what}: usbsat lacks {sorted(set(theirs) - set(mine))}, has extra {sorted(set(mine) - set(theirs))}")
    for name, exp in theirs.items():
        if name in mine:
            yield name, exp, mine[name]


def check_drives(expected, actual):
    mine = {d["dev"]: d for d in actual["drives"]}
    theirs = {d["dev"]: d for d in expected["drives"]}
    for dev, exp, got in paired("drives", mine, theirs):
        for k, v in exp.items():
            if k in IGNORED_DRIVE_KEYS:
                continue
            if k not in got:
                fail(f"drives.{dev}: key {k!r} missing")
                continue
            subset(v, got[k], f"drives.{dev}.{k}")
        if exp.get("quirk_forced_bot") is not None:
            quirk = "IGNORE_UAS" in (got.get("uas_blocked_reason") or "")
            if quirk != exp["quirk_forced_bot"]:
                fail(f"drives.{dev}: quirk_forced_bot is {exp['quirk_forced_bot']}, "
                     f"uas_blocked_reason is {got.get('uas_blocked_reason')!r}")


def check_ports(expected, actual):
    mine = {c["controller"]["pci"]: c for c in actual["controllers"]}
    extra = sorted(set(mine) - {c["pci"] for c in expected.get("controllers", [])})
    if extra:
        fail(f"ports: usbsat lists controllers {extra} the scenario does not have")
    for exp in expected.get("controllers", []):
        got = mine.get(exp["pci"])
        if got is None:
            fail(f"ports: controller {exp['pci']} missing")
            continue
        ctrl = got["controller"]
        for k in ("kind", "vendor_id", "device_id"):
            subset(exp[k], ctrl[k], f"ports.{exp['pci']}.{k}")
        subset([h["name"] for h in exp.get("root_hubs", [])], ctrl["root_hubs"], f"ports.{exp['pci']}.root_hubs")
        subset(exp.get("pcie_uplink", []), got["pcie_uplink"], f"ports.{exp['pci']}.pcie_uplink")
        subset(exp["link"], ctrl["pcie_link"], f"ports.{exp['pci']}.pcie_link")
        if exp.get("companion_of"):
            ehcis = exp["companion_of"] if isinstance(exp["companion_of"], list) else [exp["companion_of"]]
            if not set(ehcis) <= set(ctrl["companions"]):
                fail(f"ports.{exp['pci']}: companion of {ehcis}, usbsat says {ctrl['companions']}")
        roots = [c for c in got["connectors"] if c["on_root_hub"]]
        if len(roots) != len(exp["connectors"]):
            fail(f"ports.{exp['pci']}: {len(roots)} root connectors, the scenario has {len(exp['connectors'])}")
        by_pair = {(c["usb2_port"], c["usb3_port"]): c for c in roots}
        for ec in exp["connectors"]:
            key = (ec.get("usb2"), ec.get("usb3"))
            c = by_pair.get(key)
            where = f"ports.{exp['pci']}.connector{key}"
            if c is None:
                fail(f"{where}: missing")
                continue
            subset(ec["connect_type"], c["connect_type"], f"{where}.connect_type")
            subset(ec["occupied"], c["occupant"] is not None, f"{where}.occupied")
            subset(ec["devices"], c["devices"], f"{where}.devices")
            subset(normalize_location(ec["physical_location"]), c["physical_location"], f"{where}.physical_location")


USB_KINDS = ("root_hub", "hub", "device")


def usb_nodes(topo):
    """The topo JSON's USB devices by name: the node, its controller, the port above it and the hub of that port."""
    out = {}

    def walk(node, ctrl, port, hub):
        kind = node["kind"]
        if kind == "controller":
            ctrl = node
        if kind in USB_KINDS:
            out[node["id"]] = {"node": node, "controller": ctrl, "port": port, "parent": hub}
        for c in node.get("children", []):
            walk(c, ctrl, node if kind == "port" else (None if kind in USB_KINDS else port),
                 node if kind in USB_KINDS else hub)

    for r in topo["roots"]:
        walk(r, None, None, None)
    return out


def nodes_of(topo, kind):
    """Every node of `kind` in the topo JSON, depth first."""
    out = []

    def walk(node):
        if node["kind"] == kind:
            out.append(node)
        for c in node.get("children", []):
            walk(c)

    for r in topo["roots"]:
        walk(r)
    return out


def check_topo(expected, topo):
    """`topo --json` against expected.json: every controller and USB device, both ways."""
    ctrls = {n["controller"]["pci"]: n for n in nodes_of(topo, "controller")}
    want = {c["pci"]: c for c in expected.get("controllers", [])}
    for pci, exp, got in paired("topo controllers", ctrls, want):
        c = got["controller"]
        for k in ("kind", "vendor_id", "device_id"):
            subset(exp[k], c[k], f"topo.{pci}.{k}")
        subset(exp["link"], c["pcie_link"], f"topo.{pci}.pcie_link")
        subset([h["name"] for h in exp["root_hubs"]], c["root_hubs"], f"topo.{pci}.root_hubs")

    usb = usb_nodes(topo)
    theirs = {d["name"]: d for d in expected.get("usb_devices", [])}
    for name, exp, got in paired("topo USB devices", usb, theirs):
        n, where = got["node"], f"topo.{name}"
        subset(exp["busnum"], n["busnum"], f"{where}.busnum")
        subset(exp["devnum"], n["devnum"], f"{where}.devnum")
        subset(exp["vid_pid"], f"{n['vendor_id']}:{n['product_id']}", f"{where}.vid_pid")
        if float(exp["speed"]) != n["speed_mbps"]:
            fail(f"{where}.speed: expected {exp['speed']} Mb/s, got {n['speed_mbps']}")
        subset(exp["lanes"], n["rx_lanes"] or 1, f"{where}.lanes")
        subset(exp["ports"], n["maxchild"] or 0, f"{where}.ports")
        subset(exp["port"], got["port"]["id"] if got["port"] else None, f"{where}.port")
        subset(exp["parent"], got["parent"]["id"] if got["parent"] else None, f"{where}.parent")
        if n["kind"] == "root_hub" and "driver_hcd" in exp:
            subset(exp["driver_hcd"], got["controller"]["controller"]["driver"], f"{where}.driver_hcd")
        ifs = {i["number"]: i for i in n["children"] if i["kind"] == "interface"}
        drivers = sorted({i["driver"] for i in ifs.values() if i["driver"]})
        subset(sorted(exp["drivers"]), drivers, f"{where}.drivers")
        if "interfaces" not in exp:
            continue
        if sorted(ifs) != sorted(i["number"] for i in exp["interfaces"]):
            fail(f"{where}: interfaces {sorted(ifs)}, the scenario has {[i['number'] for i in exp['interfaces']]}")
        for ei in exp["interfaces"]:
            i = ifs.get(ei["number"])
            if i is None:
                continue
            w = f"{where}:{ei['number']}"
            subset(ei["class"], i["class"], f"{w}.class")
            subset(ei["alts"], [f"{a['class']}/{a['subclass']}/{a['protocol']}" for a in i["alt_settings"]], f"{w}.alts")
            subset(ei["active_alt"], i["alt_setting"], f"{w}.active_alt")
            subset(ei["driver"], i["driver"], f"{w}.driver")
    for d in expected.get("drives", []):   # the drive's USB device carries power/control
        if d.get("usb") and d["port_path"] in usb:
            subset(d["power_control"], usb[d["port_path"]]["node"]["power_control"], f"topo.{d['port_path']}.power_control")
    ports = {p["id"]: p for p in nodes_of(topo, "port")}
    for c in expected.get("controllers", []):   # over-current counts live on the port nodes
        for k in c["connectors"]:
            sides = [ports[p] for p in (k["usb2"], k["usb3"]) if p in ports]
            got = max((p["over_current_count"] or 0 for p in sides), default=None)
            subset(k["over_current_count"], got, f"topo.{k['usb2'] or k['usb3']}.over_current_count")


LSUSB_ROOT = re.compile(r"^/:\s+Bus (\d+)\.Port \d+: Dev (\d+), Class=[^,]*, Driver=([^/,]*)(?:/(\d+)p)?, ([0-9.]+)M(?:/x(\d+))?$")
LSUSB_DEV = re.compile(r"^(\s*)\|__ Port (\d+): Dev (\d+), If (\d+), Class=[^,]*, Driver=([^,]*), ([0-9.]+)M(?:/x(\d+))?$")


def check_lsusb(lsusb_text, topo, scenario_dir):
    """`lsusb -t` on the same tree (usbutils reads sysfs itself) against `topo --json`, both ways: every bus,
    device and interface lsusb prints is in the topo with the same devnum, speed, lanes and driver, and every
    USB device and interface of the topo is printed by lsusb. A tree with USB devices must print something.
    lsusb -t lists what /sys/bus/usb/devices links: what a partial recording has only under /sys/devices is
    counted, not checked."""
    usb = usb_nodes(topo)
    if not lsusb_text.strip():
        if usb:
            fail(f"lsusb -t printed nothing, the topo has {len(usb)} USB devices")
        return
    by_bus_dev = {(u["node"]["busnum"], u["node"]["devnum"]): u for u in usb.values()}
    seen_dev, seen_if = set(), set()
    bus = None
    for line in lsusb_text.splitlines():
        if not line.strip():
            continue
        m = LSUSB_ROOT.match(line)
        if m:
            bus = int(m.group(1))
            u = by_bus_dev.get((bus, int(m.group(2))))
            if u is None or u["node"]["kind"] != "root_hub":
                fail(f"lsusb -t: root hub of bus {bus} is not in the topo")
                continue
            seen_dev.add(u["node"]["id"])
            if float(m.group(5)) != u["node"]["speed_mbps"]:
                fail(f"lsusb -t: bus {bus} at {m.group(5)}M, topo says {u['node']['speed_mbps']}")
            continue
        m = LSUSB_DEV.match(line)
        if not m or bus is None:
            fail(f"lsusb -t: unparsed line {line!r}")
            continue
        u = by_bus_dev.get((bus, int(m.group(3))))
        if u is None:
            fail(f"lsusb -t: bus {bus} device {m.group(3)} is not in the topo ({line.strip()})")
            continue
        n = u["node"]
        seen_dev.add(n["id"])
        seen_if.add((n["id"], int(m.group(4))))
        where = f"lsusb -t {n['id']}"
        if n["port_numbers"][-1:] != [int(m.group(2))]:
            fail(f"{where}: port {m.group(2)}, topo port numbers {n['port_numbers']}")
        if float(m.group(6)) != n["speed_mbps"]:
            fail(f"{where}: {m.group(6)}M, topo says {n['speed_mbps']}")
        if int(m.group(7) or 1) != (n["rx_lanes"] or 1):
            fail(f"{where}: x{m.group(7) or 1} lanes, topo says {n['rx_lanes']}")
        ifs = {i["number"]: i for i in n["children"] if i["kind"] == "interface"}
        i = ifs.get(int(m.group(4)))
        if i is None:
            fail(f"{where}: interface {m.group(4)} is not in the topo")
        elif (i["driver"] or "") != m.group(5).split("/")[0]:
            fail(f"{where}:{m.group(4)}: driver {m.group(5)!r}, topo says {i['driver']!r}")
    linked = set(os.listdir(os.path.join(scenario_dir, "sys", "bus", "usb", "devices")))
    unlisted = 0
    for name, u in usb.items():   # the other direction: everything usbsat shows, lsusb printed
        ifs = [i for i in u["node"]["children"] if i["kind"] == "interface"]
        if name not in linked or (u["node"]["kind"] != "root_hub" and not any(i["id"] in linked for i in ifs)):
            unlisted += 1
            continue
        if name not in seen_dev:
            fail(f"topo shows USB device {name}, lsusb -t does not")
            continue
        if u["node"]["kind"] == "root_hub":
            continue
        for i in ifs:
            if i["id"] not in linked:
                unlisted += 1
            elif (name, i["number"]) not in seen_if:
                fail(f"topo shows interface {i['id']}, lsusb -t does not")
    print(f"lsusb -t: {len(seen_dev)} devices, {len(seen_if)} interfaces agree with topo --json"
          + (f" ({unlisted} devices/interfaces not linked in /sys/bus/usb/devices)" if unlisted else ""))


def check_text(expected, outputs):
    """The text views name every drive and every controller of the scenario."""
    for d in expected.get("drives", []):
        for view in ("drives", "topo"):
            if ("/dev/" + d["dev"]) not in outputs[(view, "txt")] and d["dev"] not in outputs[(view, "txt")]:
                fail(f"{view} text does not name drive {d['dev']}")
    for c in expected.get("controllers", []):
        for view in ("ports", "topo"):
            if c["pci"] not in outputs[(view, "txt")]:
                fail(f"{view} text does not name controller {c['pci']}")


def check_dot(usbsat, with_fixture, scenario_dir, expected):
    """`usbsat topo --dot` is a graph Graphviz lays out, and it names every drive and controller."""
    text = run(usbsat, with_fixture, scenario_dir, ["topo", "--dot"])
    if not text.startswith("digraph "):
        fail(f"topo --dot does not start with a digraph: {text[:60]!r}")
        return
    for d in (expected or {}).get("drives", []):
        if not re.search(rf"\b{re.escape(d['dev'])}\b", text):
            fail(f"topo --dot does not name drive {d['dev']}")
    for c in (expected or {}).get("controllers", []):
        if c["pci"] not in text:
            fail(f"topo --dot does not name controller {c['pci']}")
    dot = shutil.which("dot")
    if not dot:
        if running_in_ci():
            fail("Graphviz's dot is not installed (./bootstrap.sh test installs graphviz)")
        else:
            print("note: no Graphviz dot here: topo --dot was not laid out")
        return
    p = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, text=True)
    if p.returncode != 0 or p.stderr.strip():
        fail(f"dot -Tsvg on topo --dot: exit {p.returncode}: {p.stderr.strip()[:400]}")
    else:
        declared = len(re.findall(r'^\s+"[^"]+" \[', text, re.M))
        drawn = len(re.findall(r'<g id="[^"]*" class="node[ "]', p.stdout))  # ids are node_anchor()s
        if declared == 0 or drawn != declared:
            fail(f"dot -Tsvg drew {drawn} nodes, topo --dot declares {declared}")


def lsusb_t(with_fixture, scenario_dir):
    p = subprocess.run([with_fixture, scenario_dir, "--", "lsusb", "-t"], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"lsusb -t exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def main():
    usbsat, with_fixture, scenario_dir, expected_path, golden_dir = sys.argv[1:6]
    scenario = os.path.basename(os.path.normpath(scenario_dir))
    outputs = {}
    for view in ("topo", "drives", "ports"):
        if scenario in NO_GOLDEN:  # the scan under the preload is slow here: only what expected.json checks
            outputs[(view, "json")] = run(usbsat, with_fixture, scenario_dir, [view, "--json"]) if view != "topo" else "{}"
            continue
        outputs[(view, "txt")] = run(usbsat, with_fixture, scenario_dir, [view])
        outputs[(view, "json")] = run(usbsat, with_fixture, scenario_dir, [view, "--json"])
        for fmt in ("txt", "json"):
            golden_check(os.path.join(golden_dir, f"fixture-{scenario}.{view}.{fmt}"), outputs[(view, fmt)], fail)
    if scenario.startswith(("usb4-", "tb4-")):
        # USB4 machines: the picture's links and tunnels (host router joined to its xHCI, the link with speed x
        # lanes, the USB3 tunnel to where it arrives), as `topo --dot` writes them
        golden_check(os.path.join(golden_dir, f"fixture-{scenario}.topo.dot"),
                     run(usbsat, with_fixture, scenario_dir, ["topo", "--dot"]), fail)
    expected = None
    try:
        topo = json.loads(outputs[("topo", "json")]) if scenario not in NO_GOLDEN else None
        if expected_path != "-":  # "-": a real recording: goldens and lsusb -t
            with open(expected_path, encoding="utf-8") as f:
                expected = json.load(f)
            check_drives(expected, json.loads(outputs[("drives", "json")]))
            check_ports(expected, json.loads(outputs[("ports", "json")]))
            if topo is not None:
                check_topo(expected, topo)
                check_text(expected, outputs)
        if topo is not None:
            check_lsusb(lsusb_t(with_fixture, scenario_dir), topo, scenario_dir)
    except json.JSONDecodeError as e:
        fail(f"invalid JSON: {e}")
    check_dot(usbsat, with_fixture, scenario_dir, expected)
    return finish(f"OK: {scenario}: topo, drives, ports agree with goldens, lsusb -t, topo --dot lays out"
                  f"{'' if expected_path == '-' else ' and ' + os.path.basename(expected_path)}")


if __name__ == "__main__":
    sys.exit(main())
