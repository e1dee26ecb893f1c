#!/usr/bin/env python3
"""Where a `usbsat report` page's drives and chart labels land in a real browser (headless Chromium).

    page_geometry.py PAGE.html [WIDTHxHEIGHT]      prints the measurement and the problems found

The page has no script of its own; measure() loads a copy with one inline script appended that writes the
getBoundingClientRect() of every drive node of the picture and of every text element of every chart into the
DOM as JSON, and reads it back with `chromium --headless --dump-dom` at the given window size (default the
laptop window of issue 21, 1366x900). problems() turns that into sentences:
  - a drive node not wholly inside the window horizontally (or clipped by the picture's scrolling box), or
    whose text renders below 9 CSS px (font size times the SVG's scale on screen);
  - a chart text element whose box leaves its chart's box, or two chart labels whose boxes intersect.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WINDOW = (1366, 900)
MIN_TEXT_PX = 9.0

MEASURE = r"""<script>
(function () {
  function box(e) { var r = e.getBoundingClientRect(); return {l: r.left, r: r.right, t: r.top, b: r.bottom}; }
  var out = {viewport: document.documentElement.clientWidth, picture: null, drives: [], charts: []};
  var pic = document.querySelector('.picture');
  if (pic) out.picture = box(pic);
  document.querySelectorAll('svg g.node.drive').forEach(function (g) {
    var font = 1e9, title = g.querySelector('title');
    g.querySelectorAll('text').forEach(function (t) {
      var m = t.getScreenCTM();
      font = Math.min(font, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.b, m.d));
    });
    var d = box(g); d.id = title ? title.textContent : ''; d.font = font; out.drives.push(d);
  });
  document.querySelectorAll('svg.chart').forEach(function (s) {
    var c = box(s); c.title = (s.querySelector('title') || {}).textContent || ''; c.texts = [];
    s.querySelectorAll('text').forEach(function (t) { var b = box(t); b.text = t.textContent; c.texts.push(b); });
    out.charts.push(c);
  });
  var pre = document.createElement('pre');
  pre.id = 'usbsat-geometry';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def measure(chromium, page_path, window=WINDOW, timeout=120):
    """The geometry of `page_path` at `window` (width, height), as the injected script wrote it."""
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "measured.html")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", MEASURE + "\n</body>"))
        b = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--no-first-run", "--disable-extensions", "--proxy-server=127.0.0.1:9",
                            "--host-resolver-rules=MAP * ~NOTFOUND", "--hide-scrollbars",
                            f"--window-size={window[0]},{window[1]}", "--dump-dom", "file://" + copy],
                           capture_output=True, text=True, timeout=timeout)
    m = re.search(r'<pre id="usbsat-geometry">(.*?)</pre>', b.stdout, re.S)
    if not m:
        raise RuntimeError(f"chromium exited {b.returncode} without the measurement: {b.stderr.strip()[-500:]}")

    return json.loads(html.unescape(m.group(1)))


def drives_in_view(geo):
    """(drives wholly in the window horizontally with text >= MIN_TEXT_PX, all drives, problems)."""
    right = geo["viewport"]
    left = 0.0
    if geo["picture"]:
        left, right = max(left, geo["picture"]["l"]), min(right, geo["picture"]["r"])
    problems, ok = [], 0
    for d in geo["drives"]:
        inside = d["l"] >= left - 0.5 and d["r"] <= right + 0.5
        legible = d["font"] >= MIN_TEXT_PX
        if not inside:
            problems.append(f"drive {d['id']}: x {d['l']:.0f}..{d['r']:.0f} px, outside the window's "
                            f"{left:.0f}..{right:.0f} px")
        if not legible:
            problems.append(f"drive {d['id']}: text {d['font']:.1f} px, below {MIN_TEXT_PX:g} px")
        ok += inside and legible
    return ok, len(geo["drives"]), problems


def _intersect(a, b):
    return min(a["r"], b["r"]) - max(a["l"], b["l"]) > 0.5 and min(a["b"], b["b"]) - max(a["t"], b["t"]) > 0.5


def chart_problems(geo):
    """Chart text leaving its chart, and chart labels overlapping one another."""
    problems = []
    for c in geo["charts"]:
        texts = [t for t in c["texts"] if t["text"].strip()]
        for t in texts:
            if t["l"] < c["l"] - 0.5 or t["r"] > c["r"] + 0.5 or t["t"] < c["t"] - 0.5 or t["b"] > c["b"] + 0.5:
                problems.append(f"chart {c['title']!r}: text {t['text']!r} leaves the chart's box")
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if _intersect(a, b):
                    problems.append(f"chart {c['title']!r}: labels {a['text']!r} and {b['text']!r} overlap")
    return problems


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    window = WINDOW
    if len(sys.argv) > 2:
        window = tuple(int(v) for v in sys.argv[2].split("x"))
    chromium = find_chromium()
    if not chromium:
        print("SKIP: chromium is not installed")
        return 77
    geo = measure(chromium, sys.argv[1], window)
    ok, total, problems = drives_in_view(geo)
    problems += chart_problems(geo)
    for p in problems:
        print(p)
    print(f"{os.path.basename(sys.argv[1])}: {ok} of {total} drives in view at {window[0]}x{window[1]}, "
          f"{len(geo['charts'])} charts, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
