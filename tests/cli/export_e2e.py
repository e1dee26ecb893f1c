#!/usr/bin/env python3
"""End-to-end test of `usbsat export --prometheus` on one generated sysfs scenario, under umockdev.

  scenario mode: USBSAT WITH_FIXTURE SCENARIO_DIR GOLDEN_DIR (- : no golden)
    1. stdout equals tests/fixtures/golden/fixture-<scenario>.export.prom with the scan duration masked
       (the duration must be a number between 0 and 60 s); the same bytes when run twice;
    2. `-o FILE` writes the same metrics atomically: the file replaces an existing one (new inode), mode 0644,
       no temporary file left in the directory; `-o` into a missing directory exits 3 naming the step;
       no format (no --prometheus) exits 2;
    3. `promtool check metrics` accepts the output (no lint problem either).
  golden mode: golden PROMFILE...   `promtool check metrics` on each renderer golden (odd label bytes).
Exit 77 (skip) when the umockdev preload is missing, or when promtool is (after every other check passed).
UPDATE_GOLDEN=1 rewrites the golden (refused under CI).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from golden import check_golden as golden_check  # noqa: E402  (tests/support/golden.py: the one golden rule)

from checks import fail, failures, finish, skip  # noqa: E402  (tests/support/checks.py: one rule for every script)
DURATION = re.compile(r"^usbsat_scan_duration_seconds (\S+)$", re.M)


def promtool_check(text, what):
    """None when promtool is absent; else True/False (a failure is recorded)."""
    promtool = shutil.which("promtool")
    if not promtool:
        return None
    data = text if isinstance(text, bytes) else text.encode()
    p = subprocess.run([promtool, "check", "metrics"], input=data, capture_output=True)
    if p.returncode != 0:
        fail(f"promtool check metrics on {what} exited {p.returncode}: "
             f"{(p.stdout + p.stderr).decode(errors='replace').strip()}")
        return False
    return True


def run(usbsat, with_fixture, scenario_dir, args, ok=(0, 4)):
    p = subprocess.run([with_fixture, scenario_dir, "--", usbsat, *args], capture_output=True)
    if p.returncode == 77:
        skip(p.stderr.decode(errors="replace").strip())
    if ok and p.returncode not in ok:
        fail(f"usbsat {' '.join(args)} exited {p.returncode}: {p.stderr.decode(errors='replace').strip()}")
    return p


def masked(text, what):
    m = DURATION.search(text)
    if not m:
        fail(f"{what}: no usbsat_scan_duration_seconds sample")
        return text
    try:
        seconds = float(m.group(1))
        if not 0 < seconds < 60:
            fail(f"{what}: scan duration {seconds} s is not plausible")
    except ValueError:
        fail(f"{what}: scan duration {m.group(1)!r} is not a number")
    return DURATION.sub("usbsat_scan_duration_seconds <duration>", text)


def scenario(usbsat, with_fixture, scenario_dir, golden_dir):
    name = os.path.basename(os.path.normpath(scenario_dir))
    p = run(usbsat, with_fixture, scenario_dir, ["export", "--prometheus"])
    text = p.stdout.decode("utf-8")  # the format is UTF-8: a decode error fails the test
    if golden_dir != "-":  # "-": promtool and the file checks only (the `large` benchmark tree)
        golden_check(os.path.join(golden_dir, f"fixture-{name}.export.prom"), masked(text, "stdout"), fail)
    again = run(usbsat, with_fixture, scenario_dir, ["export", "--prometheus", "-o", "-"]).stdout.decode("utf-8")
    if masked(again, "-o -") != masked(text, "stdout"):
        fail("two runs (stdout, -o -) differ beyond the scan duration")

    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "usbsat.prom")
        with open(target, "w", encoding="ascii") as f:
            f.write("old\n")
        old_inode = os.stat(target).st_ino
        run(usbsat, with_fixture, scenario_dir, ["export", "--prometheus", "-o", target])
        with open(target, encoding="utf-8") as f:
            written = f.read()
        if masked(written, "-o FILE") != masked(text, "stdout"):
            fail("-o FILE content differs from stdout beyond the scan duration")
        st = os.stat(target)
        if st.st_ino == old_inode:
            fail("-o FILE rewrote the file in place (same inode): not a rename")
        if st.st_mode & 0o777 != 0o644:
            fail(f"-o FILE mode is {oct(st.st_mode & 0o777)}, want 0o644")
        if sorted(os.listdir(tmp)) != ["usbsat.prom"]:
            fail(f"-o FILE left files behind: {sorted(os.listdir(tmp))}")
        missing = os.path.join(tmp, "no", "such", "dir", "usbsat.prom")
        p = run(usbsat, with_fixture, scenario_dir, ["export", "--prometheus", "-o", missing], ok=None)
        err = p.stderr.decode(errors="replace")
        if p.returncode != 3 or "cannot create a temporary file in" not in err:
            fail(f"-o into a missing directory: exit {p.returncode}, stderr {err.strip()!r} (want 3, the step named)")
    p = run(usbsat, with_fixture, scenario_dir, ["export"], ok=None)
    if p.returncode != 2 or b"--prometheus" not in p.stderr:
        fail(f"export without a format: exit {p.returncode}, stderr {p.stderr!r} (want 2 naming --prometheus)")
    return promtool_check(text, f"the export of {name}")


def main(argv):
    if len(argv) >= 3 and argv[1] == "golden":
        results = []
        for path in argv[2:]:
            with open(path, "rb") as f:  # bytes: promtool, not Python, judges the encoding
                results.append(promtool_check(f.read(), path))
        checked = results[-1] if results else None
    elif len(argv) == 5:
        checked = scenario(*argv[1:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if not failures and checked is None:
        skip("promtool not found (Debian package prometheus); the other checks passed")
    return finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
