#!/usr/bin/env python3
"""End-to-end test of usbsat on a real terminal: the binary runs with stdout on a pseudo-terminal (pty) of a
chosen size, on generated fixtures under umockdev, and the bytes it writes are checked.

  1. colour: on a colour terminal `drives` paints UAS/BOT and `doctor` its severities; with the colour removed
     (and the pty's \\r\\n turned back into \\n) the text equals the golden file (a wide window: nothing elided);
  2. no colour with --no-color, NO_COLOR=1 or TERM=dumb, even on a terminal — again exactly the golden;
  3. width: in a narrow window the long controller headings of `ports` and the MODEL column of `drives` are
     elided in the middle ("...") to fit; no heading line is wider than the window.
Exit 77 (skip) when the umockdev preload is missing.

usage: terminal_e2e.py USBSAT WITH_FIXTURE FIXTURES_DIR GOLDEN_DIR
"""
import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

SGR = re.compile(r"\x1b\[[0-9;]*m")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish, skip  # noqa: E402  (tests/support/checks.py: one rule for every script)


def run_on_pty(cmd, env, columns):
    """Run cmd with stdout on a pty `columns` wide; return (exit code, stdout text with \\r\\n -> \\n)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    err = p.stderr.read().decode()
    rc = p.wait()
    if rc == 77:
        skip(err.strip())
    return rc, b"".join(chunks).decode().replace("\r\n", "\n"), err


def base_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


def golden(golden_dir, name):
    with open(os.path.join(golden_dir, name), encoding="utf-8") as f:
        return f.read()


def main():
    usbsat, with_fixture, fixtures_dir, golden_dir = sys.argv[1:5]

    def usbsat_cmd(scenario, *args):
        return [with_fixture, os.path.join(fixtures_dir, scenario), "--", usbsat, *args]

    workstation_drives = golden(golden_dir, "fixture-workstation.drives.txt")

    # 1. Colour on a wide colour terminal; the text under the colour is the golden.
    rc, out, err = run_on_pty(usbsat_cmd("workstation", "drives", "--mountinfo", ""), base_env(), 250)
    check(rc == 0, f"drives on a pty exited {rc}: {err}")
    check("\x1b[32mUAS\x1b[0m" in out, f"drives on a colour terminal: UAS not green:\n{out}")
    check("\x1b[33mBOT\x1b[0m" in out, f"drives on a colour terminal: BOT not yellow:\n{out}")
    check(SGR.sub("", out) == workstation_drives, f"drives on a pty, colour removed, differs from the golden:\n{out}")

    rc, out, err = run_on_pty(usbsat_cmd("workstation", "doctor"), base_env(), 250)
    check(rc == 11, f"doctor on workstation exits 11 (a problem), got {rc}: {err}")
    check("\x1b[1;31mPROBLEM\x1b[0m" in out, f"doctor on a colour terminal: PROBLEM not red:\n{out[:400]}")
    check("\x1b[36mINFO\x1b[0m" in out, f"doctor on a colour terminal: INFO not cyan:\n{out[:400]}")

    # 2. Never colour when told not to, or on a dumb terminal: exactly the golden.
    for what, args, env in (("--no-color", ["--no-color"], base_env()),
                            ("NO_COLOR=1", [], base_env(NO_COLOR="1")),
                            ("TERM=dumb", [], base_env(TERM="dumb"))):
        rc, out, err = run_on_pty(usbsat_cmd("workstation", *args, "drives", "--mountinfo", ""), env, 250)
        check(rc == 0, f"drives with {what} exited {rc}: {err}")
        check("\x1b" not in out, f"drives with {what} on a terminal wrote an escape sequence:\n{out!r}")
        check(out == workstation_drives, f"drives with {what} differs from the golden:\n{out}")

    # 3. A narrow window: headings and wide columns are elided in the middle to fit.
    width = 80
    rc, out, err = run_on_pty(usbsat_cmd("asm1042-card", "--no-color", "ports", "--mountinfo", ""), base_env(),
                              width)
    check(rc == 0, f"ports at {width} columns exited {rc}: {err}")
    headings = [l for l in out.splitlines() if re.match(r"\S+ controller [0-9a-f]{4}:", l)]
    check(len(headings) == 2, f"ports: two controller headings expected:\n{out}")
    for h in headings:
        check(len(h) <= width, f"ports heading wider than {width} columns: {h!r}")
        check("..." in h, f"ports heading not elided: {h!r}")
    check(headings and headings[0].startswith("xHCI controller 0000:00:14.0 [8086:a12f"),
          f"the heading keeps its start: {headings[:1]}")
    check(headings and headings[0].endswith("xHCI Controller"), f"the heading keeps its end: {headings[:1]}")
    natural = golden(golden_dir, "fixture-asm1042-card.ports.txt")
    check(max(len(l) for l in out.splitlines()) < max(len(l) for l in natural.splitlines()),
          "ports in a narrow window is not narrower than in a pipe")

    rc, out, err = run_on_pty(usbsat_cmd("workstation", "--no-color", "drives", "--mountinfo", ""), base_env(), 90)
    check(rc == 0, f"drives at 90 columns exited {rc}: {err}")
    check("Samsung SSD 980 PRO 1TB" not in out and "Samsu" in out and "..." in out,
          f"drives at 90 columns: the MODEL column is not elided:\n{out}")
    check(out.splitlines()[0].split() == workstation_drives.splitlines()[0].split(),
          f"drives at 90 columns: the header changed:\n{out}")

    return finish("OK: colour on a terminal, none with --no-color/NO_COLOR/TERM=dumb, elided to the window width")


if __name__ == "__main__":
    sys.exit(main())
