#!/usr/bin/env python3
"""`usbsat --from RECORDING report` in a real browser: the drives in view at a laptop's window.

    report_geometry_e2e.py USBSAT RECORDING OUT_DIR

Makes the page of a shipped recording (reproducible: fixed time and host) and measures it in headless Chromium
with page_geometry.py at 1366x900: every drive node inside the window horizontally without scrolling, its text
at least 9 CSS px tall, no chart text outside its chart or overlapping another. The page stays in OUT_DIR
(recording-<name>.html). Exit 0 pass, 1 fail, 77 skip (no chromium).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import page_geometry  # noqa: E402


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    usbsat, recording, out_dir = sys.argv[1:4]
    chromium = page_geometry.find_chromium()
    if not chromium:
        print("SKIP: chromium is not installed (Debian: chromium, bootstrap.sh TEST_DEPS)")
        return 77
    name = os.path.splitext(os.path.basename(recording))[0]
    os.makedirs(out_dir, exist_ok=True)
    page = os.path.abspath(os.path.join(out_dir, f"recording-{name}.html"))
    r = subprocess.run([usbsat, "--from", recording, "report", "-o", page, "--time", "2026-01-01 00:00:00 UTC",
                        "--hostname", f"recording-{name}"], capture_output=True, text=True, timeout=120)
    if r.returncode not in (0, 4):
        print(f"FAIL: usbsat report exited {r.returncode}: {r.stderr.strip()[:500]}")
        return 1
    geo = page_geometry.measure(chromium, page)
    in_view, drives, problems = page_geometry.drives_in_view(geo)
    problems += page_geometry.chart_problems(geo)
    for p in problems:
        print(f"FAIL: {p}")
    print(f"{name}: {in_view} of {drives} drives in view at {page_geometry.WINDOW[0]}x{page_geometry.WINDOW[1]}")
    if problems:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
