#!/usr/bin/env python3
"""usbsat on bad input, table-driven (tests/bad_input/cases.table; the format is described at its top).

    run.py USBSAT TABLE [NAME...]     run the named rows (all rows without names)
    run.py --list TABLE               print the row names

Exit 0 when every row passed, 1 when one failed, 77 (CTest SKIP) when every row asked for was skipped (root
rows without root, min_mem_gb rows on small machines). Each row runs in a fresh temp dir with its own fixtures.
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bed"))
from e2e_test import sha  # noqa: E402  (one sha256 of a file or device for every test that checks bytes)

DEFAULT_TIMEOUT = 30.0

# Generated sysfs trees (tests/fixtures, target `fixtures`) and the umockdev preload that redirects /sys to one.
FIXTURES_DIR = os.environ.get("USBSAT_FIXTURES_DIR", "")
PRELOAD = "libumockdev-preload.so.0"
# The shipped sample recordings (topology/recording/samples), and the device of workstation.json whose product
# {HUGE_PRODUCT} makes 4 MiB long (the USB3 stick, sdc).
SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "topology", "recording", "samples")
HUGE_PRODUCT_DEVICE = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-7"
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "golden")
# In the workstation tree: the USB3 stick in a USB2-only connector (sdc; doctor: speed_below_capability).
STICK = "sys/devices/pci0000:00/0000:00:14.0/usb1/1-7"


def _write(path, data):
    if os.path.islink(path) or os.path.exists(path):
        os.unlink(path)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def _block_dir(root, name):
    return os.path.realpath(os.path.join(root, "sys/block", name))


def _replace_with_fifo(path):
    os.unlink(path)
    os.mkfifo(path)


def _replace_with_link(path, target):
    """`path` (a file, a link or nothing yet) becomes a symlink to `target`."""
    if os.path.lexists(path):
        os.unlink(path)
    os.symlink(target, path)


def _move_device(root, src, dst):
    """Move directory `src` to `dst` inside the tree, keeping every symlink (in it or pointing into it) right."""
    links = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            if os.path.islink(p):
                links.append((p, os.path.normpath(os.path.join(d, os.readlink(p)))))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    os.rename(src, dst)

    def moved(p):
        return dst + p[len(src):] if p == src or p.startswith(src + "/") else p
    for link, target in links:
        new_link, new_target = moved(link), moved(target)
        if new_target.startswith(root):  # only links within the tree are relative; /dev/zero-like stay
            os.unlink(new_link)
            os.symlink(os.path.relpath(new_target, os.path.dirname(new_link)), new_link)


def _nvme_multipath(root):
    """Put nvme0n1 where native NVMe multipath puts it: below the subsystem, not the controller, which the
    subsystem links as its path controller."""
    disk = _block_dir(root, "nvme0n1")
    ctrl = os.path.dirname(os.path.dirname(disk))  # .../nvme/nvme0 (the disk was .../nvme0/block/nvme0n1)
    subsys = os.path.join(root, "sys/devices/virtual/nvme-subsystem/nvme-subsys0")
    _move_device(root, disk, os.path.join(subsys, "nvme0n1"))
    os.symlink(os.path.relpath(ctrl, subsys), os.path.join(subsys, "nvme0"))
    for attr in ("model", "serial"):
        if os.path.exists(os.path.join(ctrl, attr)):
            shutil.copy(os.path.join(ctrl, attr), os.path.join(subsys, attr))


# One bad tree per class of bad sysfs data (issue 9 classes 4, 5, 6, 9, 10, 13), applied to a copy of the tree.
SYSFS_MUTATIONS = {
    "none": lambda root: None,
    "product_esc": lambda root: _write(os.path.join(root, STICK, "product"), b"Evil\x1b]0;pwned\x07Stick\n"),
    "product_invalid_utf8": lambda root: _write(os.path.join(root, STICK, "product"), b"Stick \xff\xfe\xc3(\n"),
    "product_fifo": lambda root: _replace_with_fifo(os.path.join(root, STICK, "product")),
    "descriptors_dev_zero": lambda root: _replace_with_link(os.path.join(root, STICK, "descriptors"), "/dev/zero"),
    "bos_dev_zero": lambda root: _replace_with_link(os.path.join(root, STICK, "bos_descriptors"), "/dev/zero"),
    "speed_inf": lambda root: _write(os.path.join(root, STICK, "speed"), "inf\n"),
    "speed_empty": lambda root: _write(os.path.join(root, STICK, "speed"), "\n"),
    "speed_garbage": lambda root: _write(os.path.join(root, STICK, "speed"), "fast\n"),
    "size_wraps": lambda root: _write(os.path.join(_block_dir(root, "sdc"), "size"), "18446744073709551615\n"),
    "queue_depth_max": lambda root: _write(os.path.join(_block_dir(root, "sdc"), "device/queue_depth"),
                                           "4294967295\n"),
    "nvme_multipath": _nvme_multipath,
}


def _stick_port(root):
    return os.path.realpath(os.path.join(root, STICK, "port"))


# In the asm1042-card tree: the ASM1042 card behind a PCIe x1 link.
ASM1042 = "sys/devices/pci0000:00/0000:00:1c.4/0000:03:00.0"
XHCI = "sys/devices/pci0000:00/0000:00:14.0"


def _remove(*paths):
    for p in paths:
        os.unlink(p)


def _remove_peers(root):
    """Every `peer` link of the tree gone: the data no longer says which USB2 port has a USB3 side."""
    for d, dirs, files in os.walk(root):
        if "peer" in files or "peer" in dirs:
            os.unlink(os.path.join(d, "peer"))


def _drop_uevent_keys(path, *keys):
    with open(path) as f:
        lines = [line for line in f if line.split("=", 1)[0] not in keys]
    _write(path, "".join(lines))


def _pci_ids_missing(root):
    """The ids gone from both places the scanner reads them: the uevent's PCI_ID/PCI_CLASS and the attributes."""
    _remove(os.path.join(root, XHCI, "vendor"), os.path.join(root, XHCI, "class"))
    _drop_uevent_keys(os.path.join(root, XHCI, "uevent"), "PCI_ID", "PCI_CLASS")


SYSFS_MUTATIONS.update({
    "pci_ids_missing": _pci_ids_missing,
    # Only the attributes gone: the uevent still names the controller.
    "pci_id_attributes_missing": lambda root: _remove(os.path.join(root, XHCI, "vendor"),
                                                      os.path.join(root, XHCI, "class")),
    "maxchild_4294967295": lambda root: _write(os.path.join(root, XHCI, "usb1/maxchild"), "4294967295\n"),
    "maxchild_99999999999": lambda root: _write(os.path.join(root, XHCI, "usb1/maxchild"), "99999999999\n"),
    "maxchild_minus_1": lambda root: _write(os.path.join(root, XHCI, "usb1/maxchild"), "-1\n"),
    "pcie_link_unknown": lambda root: (_write(os.path.join(root, ASM1042, "current_link_speed"), "Unknown\n"),
                                       _write(os.path.join(root, ASM1042, "current_link_width"), "0\n")),
    "no_peers": _remove_peers,
})

SYSFS_MUTATIONS.update({
    "peer_dangling": lambda root: _replace_with_link(os.path.join(_stick_port(root), "peer"), "../usb2-port99"),
    "peer_self": lambda root: _replace_with_link(os.path.join(_stick_port(root), "peer"), _stick_port(root)),
    "device_dir_0700": lambda root: os.chmod(os.path.join(root, STICK), 0o700),
})


# In the usb4-dock trees: the host router 0-0 below the NHI, the dock router 0-1 below it (issue 41, items 3, 4).
TB_HOST = "sys/devices/pci0000:00/0000:00:0d.2/domain0/0-0"
TB_DOCK = TB_HOST + "/0-1"


def _tb_attrs(**attrs):
    """The dock router's link attributes set to these texts."""
    return lambda root: [_write(os.path.join(root, TB_DOCK, k), f"{v}\n") for k, v in attrs.items()]


def _drm_status(root, text):
    _write(os.path.join(root, "sys/devices/pci0000:00/0000:00:02.0/drm/card0/card0-DP-1/status"), text)


def _second_router_on_port0(root):
    """A second device router 0-3 on the host's USB4 port 3, which names Type-C port0 too (port0 is the dock's):
    two USB4 ports claiming one connector."""
    host = os.path.join(root, TB_HOST)
    shutil.copytree(os.path.join(host, "0-1"), os.path.join(host, "0-3"), symlinks=True)
    _write(os.path.join(host, "0-3", "uevent"), "DEVTYPE=thunderbolt_device\nUSB4_TYPE=device\nUSB4_VERSION=1.0\n")
    os.symlink(os.path.relpath(os.path.join(host, "0-3"), os.path.join(root, "sys/bus/thunderbolt/devices")),
               os.path.join(root, "sys/bus/thunderbolt/devices/0-3"))
    _write(os.path.join(host, "usb4_port3", "link"), "usb4\n")
    _replace_with_link(os.path.join(host, "usb4_port3", "connector"),
                       os.readlink(os.path.join(host, "usb4_port1", "connector")))


def _connector_loop(root):
    port = os.path.join(root, TB_HOST, "usb4_port1")
    _replace_with_link(os.path.join(port, "connector"), "connector2")
    _replace_with_link(os.path.join(port, "connector2"), "connector")


def _controller_gone(root, ctrl):
    """The controller's PCI ids and its uevent gone: its directory is no device any more, so the nearest
    device above its root hubs is the root port (or the PCI root) above it."""
    for name in ("vendor", "class", "uevent"):
        os.unlink(os.path.join(root, ctrl, name))


SYSFS_MUTATIONS.update({
    # issue 41 item 8
    "controller_gone": lambda root: _controller_gone(root, ASM1042),
    "controller_gone_pci_root": lambda root: _controller_gone(root, XHCI),
    "stick_uevent_dev_zero": lambda root: _replace_with_link(os.path.join(root, STICK, "uevent"), "/dev/zero"),
    # USB4/Thunderbolt values the kernel cannot write (issue 41, item 3)
    "tb_lanes_0": _tb_attrs(rx_lanes=0),
    "tb_lanes_3": _tb_attrs(rx_lanes=3, tx_lanes=3),
    "tb_lanes_max": _tb_attrs(rx_lanes=4294967295, tx_lanes=4294967295),
    "tb_lanes_minus_1": _tb_attrs(tx_lanes=-1),
    "tb_speed_30": _tb_attrs(rx_speed="30.0 Gb/s", tx_speed="30.0 Gb/s"),
    "tb_speed_max": _tb_attrs(rx_speed="4294967295.0 Gb/s", tx_speed="4294967295.0 Gb/s"),
    "tb_both_max": _tb_attrs(rx_speed="4294967295.0 Gb/s", tx_speed="4294967295.0 Gb/s", rx_lanes=4294967295,
                             tx_lanes=4294967295),
    "tb_generation_garbage": _tb_attrs(generation="four"),
    "tb_generation_max": _tb_attrs(generation=4294967295),
    "tb_asymmetric": _tb_attrs(rx_speed="40.0 Gb/s", tx_speed="40.0 Gb/s", rx_lanes=1, tx_lanes=3),
    # Broken USB4 wiring (item 4)
    "tb_generation_0": _tb_attrs(generation=0),
    "usb4_connector_dangling": lambda root: _replace_with_link(
        os.path.join(root, TB_HOST, "usb4_port1", "connector"), "../../../../../platform/USBC000:00/typec/port9"),
    "usb4_connector_self": lambda root: _replace_with_link(
        os.path.join(root, TB_HOST, "usb4_port1", "connector"), "connector"),
    "usb4_connector_dot": lambda root: _replace_with_link(
        os.path.join(root, TB_HOST, "usb4_port1", "connector"), "."),
    "usb4_connector_loop": _connector_loop,
    "usb4_connector_twice": _second_router_on_port0,
    "drm_status_garbage": lambda root: _drm_status(root, "maybe\n"),
})


class Skip(Exception):
    pass


def parse_table(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in re.split(r"(?<=\s)\|(?=\s|$)", line.rstrip())]
            if len(cols) != 6:
                sys.exit(f"{path}:{lineno}: want 6 columns separated by ' | ', got {len(cols)}")
            name, flags, argv, code, expect, unchanged = cols
            opts = {}
            for fl in [] if flags == "-" else flags.split(","):
                k, _, v = fl.partition("=")
                opts[k.strip()] = v.strip()
            rows.append({"name": name, "flags": opts, "argv": argv, "exit": int(code),
                         "expect": [e.strip() for e in expect.split(" && ") if e.strip()],
                         "unchanged": unchanged.split(), "line": lineno})
    return rows


def sh(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout.strip()


class Fixtures:
    """The placeholders of one row, made on first use; torn down in reverse order."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.values = {"TMP": tmp}
        self.cleanup = []

    def need_root(self, what):
        if os.geteuid() != 0:
            raise Skip(f"{what} needs root")

    def random_file(self, name, size):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(os.urandom(size))
        return path

    def image(self, name, mount):
        self.need_root("a loop-mounted image")
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.truncate(48 << 20)
        subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", path],
                       check=True)
        loop = sh("losetup", "-f", "--show", path)
        self.cleanup.append(lambda: subprocess.run(["losetup", "-d", loop]))
        if mount:
            mnt = os.path.join(self.tmp, name + ".mnt")
            os.mkdir(mnt)
            subprocess.run(["mount", "-o", "ro", loop, mnt], check=True)  # ro: the image stays byte-stable
            self.cleanup.append(lambda: subprocess.run(["umount", mnt]))
        return path, loop

    def sysfs(self, spec):
        """A copy of the generated tree `scenario`, with one mutation: `scenario/mutation`."""
        scenario, _, mutation = spec.partition("/")
        src = os.path.join(FIXTURES_DIR, scenario)
        if not FIXTURES_DIR or not os.path.isdir(src):
            raise SystemExit(f"no generated sysfs tree {src!r} (USBSAT_FIXTURES_DIR; build the `fixtures` target)")
        dst = os.path.join(self.tmp, "sysfs")
        subprocess.run(["cp", "-a", src, dst], check=True)
        SYSFS_MUTATIONS[mutation or "none"](dst)
        return dst

    def hold(self, code):
        """Another process runs `code` (which takes a hold on something) and keeps it until the row ends."""
        holder = subprocess.Popen([sys.executable, "-c", code + "; import time; print('held', flush=True); "
                                   "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
        holder.stdout.readline()
        self.cleanup.append(lambda: (holder.kill(), holder.wait()))

    def make(self, key):
        if key in self.values:
            return self.values[key]
        if key in ("F1", "F2"):
            v = self.random_file(key.lower(), 8 << 20)
        elif key == "F1_ALIAS":
            self.make("F1")
            v = os.path.join(self.tmp, ".", "f1")
        elif key == "BIG":
            v = os.path.join(self.tmp, "big")
            with open(v, "wb") as f:
                f.truncate(1 << 30)
        elif key == "ESC":  # a terminal escape sequence (set the window title) and a bell, as text to type
            v = "\x1b]0;pwned\x07"
        elif key == "RECORDINGS":
            v = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recordings")
        elif key == "SAT_1E308":  # a saturate result whose first rate is 1e308 MB/s (issue 24: -nan in the SVG)
            with open(os.path.join(GOLDEN, "saturate_two_groups.json"), encoding="utf-8") as f:
                doc = json.load(f)
            rates = doc["groups"][0]["phases"][0]["per_drive_mbs"]
            rates[next(iter(rates))] = 1e308
            v = os.path.join(self.tmp, "saturate-1e308.json")
            with open(v, "w", encoding="utf-8") as f:
                json.dump(doc, f)
        elif key == "SAMPLES":
            v = SAMPLES
        elif key == "HUGE_PRODUCT":  # the workstation sample with a 4 MiB `product` (issue 24: 23 s in Graphviz)
            with open(os.path.join(SAMPLES, "workstation.json"), encoding="utf-8") as f:
                doc = json.load(f)
            doc["data"]["attributes"][HUGE_PRODUCT_DEVICE]["product"] = "A" * (4 << 20)
            v = os.path.join(self.tmp, "huge-product.json")
            with open(v, "w", encoding="utf-8") as f:
                json.dump(doc, f)
        elif key == "FIFO":
            v = os.path.join(self.tmp, "fifo")
            os.mkfifo(v)
        elif key == "IMG":
            v, _ = self.image("img", mount=True)
        elif key == "IMG_LINK":
            v = os.path.join(self.tmp, "img-link")
            os.link(self.make("IMG"), v)
        elif key == "LOOP":  # a loop device (over an unmounted image) and another path to it
            _, v = self.image("loop", mount=False)
        elif key == "LOOP_ALIAS":
            v = self.make("LOOP").replace("/dev/", "/dev/./", 1)
        elif key == "LOCKED":  # a file another process holds flock(LOCK_EX) on, as a running usbsat load does
            v = self.random_file("locked", 8 << 20)
            self.hold(f"import fcntl; f=open({v!r}, 'rb'); fcntl.flock(f, fcntl.LOCK_EX)")
        elif key == "HELD":
            v, loop = self.image("held", mount=False)
            self.hold(f"import os; os.open({loop!r}, os.O_RDONLY|os.O_EXCL)")
        else:
            raise SystemExit(f"unknown placeholder {{{key}}}")
        self.values[key] = v
        return v

    def expand(self, text):
        out, i = "", 0
        while (j := text.find("{", i)) >= 0:
            k = text.index("}", j)
            out += text[i:j] + self.make(text[j + 1:k])
            i = k + 1
        return out + text[i:]

    def close(self):
        for f in reversed(self.cleanup):
            f()


def run_row(usbsat, row):
    fl = row["flags"]
    if "root" in fl and os.geteuid() != 0:
        raise Skip("needs root")
    if "min_mem_gb" in fl and os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") < float(fl["min_mem_gb"]) * (1 << 30):
        raise Skip(f"needs {fl['min_mem_gb']} GiB of memory")
    failures = []
    with tempfile.TemporaryDirectory(prefix="usbsat-bad-") as tmp:
        fx = Fixtures(tmp)
        try:
            argv = [fx.expand(a) for a in shlex.split(row["argv"])]
            expect = [fx.expand(e) for e in row["expect"]]
            watched = {p: fx.expand(p) for p in row["unchanged"]}
            before = {p: sha(path) for p, path in watched.items()}
            stdout_path = fl.get("stdout")
            out_file = open(stdout_path, "w") if stdout_path else subprocess.PIPE
            timeout = float(fl.get("timeout", DEFAULT_TIMEOUT))
            start = time.monotonic()
            env = dict(os.environ)
            cmd = [usbsat, *argv]
            if "sysfs" in fl:  # run against a (mutated) generated tree through the umockdev preload
                env.update(UMOCKDEV_DIR=fx.sysfs(fl["sysfs"]), LD_PRELOAD=PRELOAD)
            if "user" in fl:  # drop root: what an ordinary user sees
                if os.geteuid() != 0:
                    raise Skip("running as another user needs root")
                os.chmod(tmp, 0o755)
                cmd = ["setpriv", "--reuid", fl["user"], "--regid", fl["user"], "--clear-groups", *cmd]  # numeric ids
            p = subprocess.Popen(cmd, stdout=out_file, stderr=subprocess.PIPE, env=env,
                                 errors="surrogateescape")
            took_after_signal = None
            if "signal" in fl:
                sig, _, at = fl["signal"].partition("@")
                time.sleep(float(at))
                sent = time.monotonic()
                p.send_signal(getattr(signal, "SIG" + sig))
            try:
                out, err = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                failures.append(f"did not end within {timeout:g} s (hang)")
            if "signal" in fl:
                took_after_signal = time.monotonic() - sent
            if stdout_path:
                out_file.close()
                out = ""
            out = out or ""
            if p.returncode != row["exit"]:
                failures.append(f"exit {p.returncode}, want {row['exit']}")
            if "within" in fl and took_after_signal is not None and took_after_signal > float(fl["within"]):
                failures.append(f"ended {took_after_signal:.2f} s after the signal, want <= {fl['within']} s")
            for e in expect:
                kind, _, text = e.partition(":")
                if kind == "err" and text not in err:
                    failures.append(f"stderr lacks {text!r}")
                elif kind == "!err" and text in err:
                    failures.append(f"stderr has {text!r}")
                elif kind == "err1" and err.count(text) != 1:  # said exactly once
                    failures.append(f"stderr has {text!r} {err.count(text)} times, want once")
                elif kind == "out" and text not in out:
                    failures.append(f"stdout lacks {text!r}")
                elif kind == "!out" and text in out:
                    failures.append(f"stdout has {text!r}")
                elif kind == "json":
                    try:
                        doc = json.loads(out)
                        e_ = doc["error"]
                        if e_["code"] != row["exit"] or text not in e_["message"] or \
                                e_["kind"] != {2: "usage", 3: "environment", 5: "refused"}.get(row["exit"]) or \
                                not isinstance(doc.get("diagnostics"), list):
                            failures.append(f"JSON error document does not match {text!r}: {out.strip()}")
                    except (ValueError, KeyError, TypeError):
                        failures.append(f"stdout is not the JSON error document: {out.strip()[:300]!r}")
                elif kind == "jsonvalid":  # stdout is one JSON document, whatever the device strings held
                    try:
                        json.loads(out)
                    except ValueError as ex:
                        failures.append(f"stdout is not valid JSON ({ex}): {out.strip()[:200]!r}")
                elif kind == "noctrl":  # no control character but newline and tab reached the terminal
                    stream = out if text == "out" else err
                    bad = sorted({f"{ord(c):#04x}" for c in stream
                                  if (ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f})
                    if bad:
                        failures.append(f"{text} has raw control characters {bad}")
                elif kind not in ("err", "!err", "err1", "out", "!out", "json"):
                    raise SystemExit(f"row {row['name']}: unknown check {e!r}")
            for p_, path in watched.items():
                if sha(path) != before[p_]:
                    failures.append(f"{p_} ({path}) was changed")
            if failures:
                failures.append(f"stderr: {err.strip()[:600]}")
        finally:
            fx.close()
    return failures


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == "--list":  # the row names, one per line (CMake registers one CTest per row)
        print("\n".join(r["name"] for r in parse_table(sys.argv[2])))
        return
    usbsat, table, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = parse_table(table)
    if names:
        unknown = set(names) - {r["name"] for r in rows}
        if unknown:
            sys.exit(f"no such rows: {sorted(unknown)}")
        rows = [r for r in rows if r["name"] in names]
    ran = failed = 0
    for row in rows:
        try:
            failures = run_row(usbsat, row)
        except Skip as s:
            print(f"SKIP  {row['name']}: {s}")
            continue
        ran += 1
        if failures:
            failed += 1
            print(f"FAIL  {row['name']} (cases.table line {row['line']}): " + "; ".join(failures))
        else:
            print(f"ok    {row['name']}")
    print(f"{ran} ran, {failed} failed, {len(rows) - ran} skipped")
    if failed:
        sys.exit(1)
    if ran == 0:
        sys.exit(77)


if __name__ == "__main__":
    main()
