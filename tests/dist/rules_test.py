#!/usr/bin/env python3
"""The shipped Prometheus rules (src/dist/prometheus/usbsat-rules.yml) checked and unit-tested with promtool.

  rules_test.py RULES TEST_YML USBSAT WITH_FIXTURE FIXTURES_DIR
    1. `promtool check rules RULES`;
    2. TEST_YML (tests/dist/usbsat-rules.test.yml) with its input series completed from real exports: each line
       `# @export SCENARIO [MINUTES] [stale=DEV@MINUTE]` becomes the series of `usbsat export --prometheus` run on
       the fixture scenario FIXTURES_DIR/SCENARIO under umockdev, labelled instance="SCENARIO:9100", job="node",
       each value held for MINUTES (default 90) one-minute samples; stale=DEV@MINUTE ends DEV's series with a
       stale marker at MINUTE (the drive left: node_exporter no longer serves it);
    3. `promtool test rules` on the result: the expected alerts fire, and only those.
Exit 77 (skip) only when promtool is absent (or the umockdev preload, as with-fixture.sh says).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, fail, finish, main_with, skip  # noqa: E402  (tests/support/checks.py: one rule for all)

MARKER = re.compile(r"^(\s*)# @export (\S+)(?: (\d+))?(?: stale=(\S+)@(\d+))?\s*$")
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$")


def export(usbsat, with_fixture, scenario_dir):
    p = subprocess.run([with_fixture, scenario_dir, "--", usbsat, "export", "--prometheus"], capture_output=True,
                       text=True)
    if p.returncode == 77:
        skip(p.stderr.strip())
    check(p.returncode == 0, f"usbsat export on {scenario_dir} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def series_lines(text, scenario, indent, minutes, stale_dev, stale_at):
    """The export's samples as promtool input_series items (YAML, single-quoted)."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError(f"unparsable sample line: {line!r}")
        name, labels, value = m.groups()
        labels = (labels + "," if labels else "") + f'instance="{scenario}:9100",job="node"'
        values = f"{value}x{minutes}"
        if stale_dev and f'dev="{stale_dev}"' in labels:
            values = f"{value}x{int(stale_at) - 1} stale"
        series = f"{name}{{{labels}}}".replace("'", "''")
        out.append(f"{indent}- series: '{series}'\n{indent}  values: '{values}'\n")
    return out


def main(rules, test_yml, usbsat, with_fixture, fixtures_dir):
    promtool = shutil.which("promtool")
    if not promtool:
        skip("promtool not found (Debian: prometheus)")
    p = subprocess.run([promtool, "check", "rules", rules], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"promtool check rules {rules}: {p.stdout}{p.stderr}")
    else:
        print(f"ok: promtool check rules: {p.stdout.strip().splitlines()[-1].strip()}")

    exports = {}
    lines = []
    with open(test_yml) as f:
        for line in f:
            m = MARKER.match(line)
            if not m:
                lines.append(line)
                continue
            indent, scenario, minutes, stale_dev, stale_at = m.groups()
            if scenario not in exports:
                exports[scenario] = export(usbsat, with_fixture, os.path.join(fixtures_dir, scenario))
            lines += series_lines(exports[scenario], scenario, indent, minutes or "90", stale_dev, stale_at)
    if not exports:
        fail(f"{test_yml} has no '# @export SCENARIO' line: the test would run on no real export")
        return finish()
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(rules, os.path.join(tmp, "usbsat-rules.yml"))
        test = os.path.join(tmp, "usbsat-rules.test.yml")
        with open(test, "w") as f:
            f.writelines(lines)
        p = subprocess.run([promtool, "test", "rules", test], capture_output=True, text=True, cwd=tmp)
        if p.returncode != 0:
            fail(f"promtool test rules (exports of {', '.join(sorted(exports))}):\n{p.stdout}{p.stderr}")
        else:
            print(f"ok: promtool test rules on the exports of {', '.join(sorted(exports))}")
    return finish()


if __name__ == "__main__":
    main_with(main, 5, __doc__)
