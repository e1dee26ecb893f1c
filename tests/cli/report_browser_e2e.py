#!/usr/bin/env python3
"""`usbsat report` pages opened in a real browser (headless Chromium), one launch per page.

    report_browser_e2e.py USBSAT WITH_FIXTURE SCENARIO_DIR EXPECTED_JSON OUT_DIR [REPORT ARGS...]

Generates the page of one fixture scenario under umockdev (with REPORT ARGS, e.g. --saturate RESULT.json),
checks it offline (no external URL anywhere: no src/href/url()/@import to http(s) or //, no <script src>),
then loads it in Chromium with the network pointed at nowhere (--proxy-server to a closed port,
--host-resolver-rules mapping every name to NOTFOUND), dumping the DOM and taking a screenshot in the same
launch, and checks:
  - no console message and no JavaScript error was logged (--enable-logging=stderr --v=0);
  - every drive and every controller of EXPECTED_JSON appears in the page text;
  - the SVG picture has exactly one node per drive, names every controller and every USB device (root hubs,
    hubs, devices: a node or a row of one) except those of controllers with no drive, which the summary node
    names by controller and bus, and has no node but PCIe hops, controllers, USB4 routers, hubs, devices,
    drives and that summary;
  - on a machine with USB4 links (EXPECTED_JSON usb4_links): for each link whose USB3 tunnel carries drives, the
    picture draws the link from its upstream router to its router labelled with speed x lanes, the USB3 tunnel
    from its router to where it arrives (a hub or drive node), and the host router joined to its xHCI;
  - findings and nodes link both ways: every link in the picture to a finding and from a finding to the
    picture lands on an element of the page;
  - at a 1366x900 window (page_geometry.py, measured in the browser with getBoundingClientRect()): every drive
    node lies inside the window horizontally without scrolling and its text renders at least 9 CSS px tall;
    every chart's text stays inside its chart and no two chart labels overlap;
  - with --saturate: one bar chart per group of the result, each with its verdict;
  - the screenshot is not blank (more than one colour; PNG decoded with zlib only).
The page and its screenshot stay in OUT_DIR (<scenario>.html, <scenario>.png). Exit 0 pass, 1 fail,
77 skip (no chromium, no umockdev preload).
"""
import html
import json
import os
import re
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import page_geometry  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import fail, finish, skip  # noqa: E402  (tests/support/checks.py: one rule for every script)


find_chromium = page_geometry.find_chromium  # one home; the bed test calls it through this module too


EXTERNAL = [
    re.compile(r"""\b(?:src|href|xlink:href|action|poster|data)\s*=\s*["']?\s*(?:https?:|//|ftp:)""", re.I),
    re.compile(r"""url\(\s*["']?\s*(?:https?:|//)""", re.I),
    re.compile(r"@import", re.I),
    re.compile(r"<script[^>]*\bsrc\s*=", re.I),
    re.compile(r"<link\b", re.I),
]


def external_refs(page):
    hits = []
    for rx in EXTERNAL:
        hits += [m.group(0) for m in rx.finditer(page)]
    return hits


def png_colours(path, limit=2):
    """Distinct pixel values of an 8-bit RGB/RGBA PNG (stops counting at `limit`)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype})")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        ftype, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                cur[i] = (cur[i] + a) & 0xFF
            elif ftype == 2:
                cur[i] = (cur[i] + b) & 0xFF
            elif ftype == 3:
                cur[i] = (cur[i] + ((a + b) >> 1)) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        for x in range(0, stride, bpp * 7):  # a sample of pixels is plenty
            seen.add(bytes(cur[x:x + bpp]))
            if len(seen) >= limit:
                return seen
        prev = cur
    return seen


def svg_node_titles(dom):
    """The <title> of every Graphviz node group in the picture, in order."""
    return [html.unescape(t) for t in re.findall(r'<g id="[^"]*" class="node[^"]*">\s*<title>([^<]*)</title>', dom)]


def svg_edges(dom):
    """(title "from->to", the label's text) of every Graphviz edge in the picture."""
    out = []
    for body in re.findall(r'<g id="[^"]*" class="edge[^"]*">(.*?)</g>', dom, re.S):
        title = re.search(r"<title>([^<]*)</title>", body)
        text = " ".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", body))
        out.append((html.unescape(title.group(1)) if title else "", text))
    return out


def check_usb4_picture(dom, expected):
    """Each USB4 link with drives in its USB3 tunnel: link, tunnel and the host router's join drawn."""
    edges = svg_edges(dom)

    def ends(title):
        a, _, b = title.partition("->")
        return a, b
    pairs = [(ends(t), text) for t, text in edges]

    def at(end, name):  # an edge end is a node id, or "id:port" when it leaves from a row of the node
        return end == name or end.startswith(name + ":")
    for link in expected.get("usb4_links", []):
        if link.get("usb3_tunnel_gbps") is None or not link.get("drives"):
            continue
        router, up = link["router"], (link["path"][-2] if len(link["path"]) > 1 else "0-0")
        lanes = f"{link['lane_gbps']} Gb/s x {link['lanes']} lane"
        if not any(at(a, up) and at(b, router) and lanes in text for (a, b), text in pairs):
            fail(f"the picture has no link {up} -> {router} labelled {lanes!r}: {pairs}")
        if not any(at(a, router) and "USB3 tunnel" in text for (a, b), text in pairs):
            fail(f"the picture has no USB3 tunnel from {router} to where it arrives: {pairs}")
    hosts = {"0-0"}  # the host router of the generated thunderbolt domain
    if any(l.get("usb3_tunnel_gbps") is not None and l.get("drives") for l in expected.get("usb4_links", [])):
        xhcis = {c["pci"] for c in expected["controllers"]}
        for h in hosts:
            if not any(at(a, h) and any(at(b, x) for x in xhcis) for (a, b), _ in pairs):
                fail(f"the host router {h} is not joined to an xHCI in the picture: {pairs}")


def page_text(dom):
    dom = re.sub(r"<style.*?</style>", " ", dom, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", dom))


def main():
    if len(sys.argv) < 6:
        print(__doc__)
        return 2
    usbsat, with_fixture, scenario_dir, expected_json, out_dir = sys.argv[1:6]
    extra = sys.argv[6:]
    chromium = find_chromium()
    if not chromium:
        skip("chromium is not installed (Debian: chromium, bootstrap.sh TEST_DEPS)")
    scenario = os.path.basename(os.path.normpath(scenario_dir))
    os.makedirs(out_dir, exist_ok=True)
    page_path = os.path.abspath(os.path.join(out_dir, f"{scenario}.html"))
    png_path = os.path.abspath(os.path.join(out_dir, f"{scenario}.png"))
    for p in (page_path, png_path):
        if os.path.exists(p):
            os.remove(p)

    # 1. The page, under umockdev, reproducible (fixed time and host).
    t0 = time.monotonic()
    r = subprocess.run([with_fixture, scenario_dir, "--", usbsat, "report", "--mountinfo", "", "-o", page_path,
                        "--time", "2026-01-01 00:00:00 UTC", "--hostname", f"fixture-{scenario}", *extra],
                       capture_output=True, text=True, timeout=120)
    if r.returncode == 77:
        skip(r.stderr.strip())
    if r.returncode not in (0, 4):
        fail(f"usbsat report exited {r.returncode}: {r.stderr.strip()[:500]}")
        return 1
    generated = time.monotonic() - t0
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    for hit in external_refs(page):
        fail(f"the page refers to something outside itself: {hit!r}")

    # 2. One browser launch: DOM and screenshot, network pointed at nowhere.
    t0 = time.monotonic()
    b = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--no-first-run", "--disable-extensions", "--enable-logging=stderr", "--v=0",
                        "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
                        "--window-size=1400,1000", f"--screenshot={png_path}", "--dump-dom",
                        "file://" + page_path], capture_output=True, text=True, timeout=120)
    browsed = time.monotonic() - t0
    dom = b.stdout
    if b.returncode != 0 or "</html>" not in dom:
        fail(f"chromium exited {b.returncode} without a DOM: {b.stderr.strip()[-800:]}")
        return 1
    console = [l for l in b.stderr.splitlines()
               if "CONSOLE" in l or "Uncaught" in l or "Refused to" in l or "net::ERR" in l]
    for l in console:
        fail(f"browser console: {l.strip()[:300]}")

    # 3. Everything the fixture declares is on the page; one picture node per scanned device.
    with open(expected_json, encoding="utf-8") as f:
        expected = json.load(f)
    text = page_text(dom)
    words = set(re.findall(r"[\w:.\-]+", text))
    devices = []
    for c in expected["controllers"]:
        devices.append(c["pci"])
        devices += [hop["pci"] for hop in c["pcie_uplink"]]
    devices += [u["name"] for u in expected["usb_devices"]]  # root hubs, hubs and devices
    devices += [d["dev"] for d in expected["drives"]]
    devices += expected.get("routers", [])  # USB4/Thunderbolt routers, on machines with a thunderbolt bus
    # displays whose DisplayPort tunnels ride a USB4 link (DRM connectors), drawn on the dock's router
    devices += [c for link in expected.get("usb4_links", []) for c in link.get("displayport_tunnels", [])]
    devices = list(dict.fromkeys(devices))  # PCIe hops shared by two controllers once
    for name in [c["pci"] for c in expected["controllers"]] + [d["dev"] for d in expected["drives"]]:
        if name not in words:
            fail(f"{name} does not appear in the page text")
    titles = svg_node_titles(dom)
    if not titles:
        fail("the page has no picture (no Graphviz node in an inline SVG)")
    svg = dom[dom.find("<svg"):dom.find("</svg>")]
    picture_words = set(re.findall(r"[\w:.\-]+", html.unescape(" ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg)))))
    drive_nodes = [html.unescape(t) for t in
                   re.findall(r'<g id="[^"]*" class="node drive">\s*<title>([^<]*)</title>', dom)]
    for d in expected["drives"]:
        if drive_nodes.count(d["dev"]) != 1:
            fail(f"drive {d['dev']}: {drive_nodes.count(d['dev'])} drive nodes in the picture, expected exactly 1")
    with_drive = {d["controller"]["pci"] for d in expected["drives"] if d.get("controller")}
    root_of = {}
    parents = {u["name"]: u.get("parent") for u in expected["usb_devices"]}
    for u in expected["usb_devices"]:
        n = u["name"]
        while parents.get(n):
            n = parents[n]
        root_of[u["name"]] = n
    controller_of = {rh["name"]: c["pci"] for c in expected["controllers"] for rh in c.get("root_hubs", [])}
    for c in expected["controllers"]:
        if c["pci"] not in picture_words:
            fail(f"controller {c['pci']} is not named in the picture")
    for u in expected["usb_devices"]:
        summarised = controller_of.get(root_of[u["name"]]) not in with_drive
        if u["name"] not in picture_words and not (summarised and u["parent"] is not None):
            fail(f"USB device {u['name']} is not named in the picture")
    bdf = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
    others = [t for t in titles if t != "controllers:no-drive" and t not in set(devices) and not bdf.match(t)]
    if others:
        fail(f"{len(others)} picture nodes that are no scanned device: {sorted(others)[:10]}")
    ids = set(re.findall(r'\sid="([^"]+)"', dom))
    for target in set(re.findall(r'href="#([^"]+)"', dom)):
        if target not in ids:
            fail(f"a link to #{target} lands nowhere on the page")
    check_usb4_picture(dom, expected)
    findings_in_picture = set(re.findall(r'xlink:href="#(finding-\d+)"', svg))
    pictured = re.findall(r'id="(finding-\d+)"[^>]*>(?:(?!</div>).)*?href="#node-', dom, re.S)
    if findings_in_picture != set(pictured):
        fail(f"findings linked from the picture {sorted(findings_in_picture)} are not those linking to it "
             f"{sorted(pictured)}")

    # 4. The drives in view and the charts' text, measured in the browser at a laptop's window.
    geo = page_geometry.measure(chromium, page_path)
    in_view, drives_drawn, problems = page_geometry.drives_in_view(geo)
    for p in problems + page_geometry.chart_problems(geo):
        fail(f"at {page_geometry.WINDOW[0]}x{page_geometry.WINDOW[1]}: {p}")

    # 5. The saturate result, when given: one chart and one verdict per group.
    if "--saturate" in extra:
        with open(extra[extra.index("--saturate") + 1], encoding="utf-8") as f:
            sat = json.load(f)
        charts = len(re.findall(r'<svg class="chart bars"', dom))
        if charts != len(sat["groups"]):
            fail(f"{charts} saturate charts for {len(sat['groups'])} groups")
        for g in sat["groups"]:
            if g.get("conclusion") and html.escape(g["conclusion"], quote=False) not in dom:
                fail(f"group {g['name']}: its verdict sentence is not on the page")

    # 6. A screenshot that shows something.
    if not os.path.exists(png_path):
        fail("chromium wrote no screenshot")
    else:
        try:
            if len(png_colours(png_path)) < 2:
                fail(f"{png_path} is a single colour (blank page)")
        except (ValueError, zlib.error) as e:
            fail(f"{png_path}: {e}")

    print(f"{scenario}: page {len(page)} bytes generated in {generated:.2f} s, chromium {browsed:.2f} s, "
          f"{len(titles)} picture nodes, {len(devices)} devices, {in_view} of {drives_drawn} drives in view at "
          f"{page_geometry.WINDOW[0]}x{page_geometry.WINDOW[1]}; screenshot {png_path}")
    return finish("PASS")


if __name__ == "__main__":
    sys.exit(main())
