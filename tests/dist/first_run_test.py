#!/usr/bin/env python3
"""The first ten minutes: what `./bootstrap.sh run` builds and shows, in the pieces CI can check (it cannot run
apt on a fresh machine).

  first_run_test.py targets SRC BUILD
      `bootstrap.sh run-targets` (what `run` builds) needs no test executable, fixture or extra variant: every
      command ninja would run for them (`ninja -t commands`) compiles no file under tests/, links no *_test and
      generates no fixture; the set does build usbsat.
  first_run_test.py notice SRC BUILD WITH_FIXTURE USBSAT
      `usbsat topo` on a tree with no USB bus exits 0, prints the notice, and every path its hint names exists:
      from the build tree, and from an installed layout (`cmake --install` into a temporary prefix: the hint
      then names the sample under that prefix).
  first_run_test.py mainjob SRC WITH_FIXTURE USBSAT FIXTURES
      `bootstrap.sh main-job` on a tree with no USB bus says so in one line, then shows the sample machine's
      tree, the doctor's findings and the path of a report page that exists; on the workstation fixture it
      shows that machine's own tree and names no sample.
Exit 77 (skip) when umockdev's preload or ninja is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import checks  # noqa: E402  (tests/support/checks.py: one rule for every script)
from checks import check, finish, skip  # noqa: E402

checks.verbose = True


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def empty_tree(tmp):
    """A /sys with no USB bus at all (a VM or container): sys/ with empty bus/ and class/ folders."""
    root = os.path.join(tmp, "nousb")
    for d in ("sys/bus", "sys/class", "sys/devices"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    return root


def skip_if_no_preload(p):
    if p.returncode == 77:
        skip(p.stderr.strip())


def hint_paths(stderr):
    return re.findall(r"usbsat --from (\S+) ", stderr)


def case_targets(src, build):
    if not shutil.which("ninja"):
        skip("ninja not found")
    targets = run(["bash", os.path.join(src, "bootstrap.sh"), "run-targets"]).stdout.split()
    check(targets == ["usbsat"], f"bootstrap run-targets: {targets}")
    p = run(["ninja", "-C", build, "-t", "commands", *targets])
    check(p.returncode == 0, f"ninja -t commands {' '.join(targets)} (rc {p.returncode}: {p.stderr.strip()})")
    cmds = p.stdout.splitlines()
    check(any(re.search(r"-o src/usbsat\b", c) for c in cmds), f"the set links usbsat ({len(cmds)} commands)")
    tests_dir = os.path.join(os.path.realpath(src), "tests") + "/"
    bad = [c for c in cmds if tests_dir in c or re.search(r"-o \S*_test\b", c) or "sysfsgen" in c or "Unity/tests" in c]
    check(not bad, f"no test source, test executable or fixture among {len(cmds)} commands: {bad[:3]}")
    # And the other way round: the full build does have them, so the check above can see one.
    allc = run(["ninja", "-C", build, "-t", "commands"]).stdout
    check(tests_dir in allc or "_test" in allc, "the full build does compile tests (the check can fail)")


def case_notice(src, build, with_fixture, usbsat):
    with tempfile.TemporaryDirectory() as tmp:
        tree = empty_tree(tmp)

        def topo(binary):
            p = run([with_fixture, tree, "--", binary, "topo"])
            skip_if_no_preload(p)
            return p

        p = topo(usbsat)
        check(p.returncode == 0, f"build tree: topo without USB exits 0 (got {p.returncode})")
        check("no USB host controller found" in p.stderr, f"build tree: the notice: {p.stderr.strip()}")
        paths = hint_paths(p.stderr)
        check(len(paths) == 1 and all(os.path.isfile(x) for x in paths), f"build tree: the hint's path exists: {paths}")
        prefix = os.path.join(tmp, "inst")
        i = run(["cmake", "--install", build, "--prefix", prefix])
        check(i.returncode == 0, f"cmake --install {build} --prefix {prefix} ({i.stderr.strip()[-300:]})")
        installed = os.path.join(prefix, "bin", "usbsat")
        if not os.path.exists(installed):
            check(False, f"installed {installed}")
            return
        p = topo(installed)
        check(p.returncode == 0, f"installed: topo without USB exits 0 (got {p.returncode})")
        paths = hint_paths(p.stderr)
        check(len(paths) == 1 and all(os.path.isfile(x) and x.startswith(prefix + "/") for x in paths),
              f"installed: the hint names the sample under the prefix {prefix}: {paths}")
        # The hint's command works as printed.
        if paths:
            r = run([installed, "--from", paths[0], "topo"])
            check(r.returncode == 0 and "Controller " in r.stdout, f"the hint's command runs: rc {r.returncode}")


def case_mainjob(src, with_fixture, usbsat, fixtures):
    bootstrap = os.path.join(src, "bootstrap.sh")
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "page.html")
        env = dict(os.environ, BOOTSTRAP_REPORT=page)
        p = run([with_fixture, empty_tree(tmp), "--", "bash", bootstrap, "main-job", usbsat], env=env)
        skip_if_no_preload(p)
        out = p.stdout
        check(p.returncode == 0, f"no USB: main-job exits 0 (got {p.returncode}; {p.stderr.strip()[-400:]})")
        first = out.splitlines()[0] if out else ""
        check(first.startswith("bootstrap: no USB here; showing the sample recording workstation.json"),
              f"no USB: one line says so first: {first!r}")
        check("xHCI controller 0000:00:14.0" in out, "no USB: the sample machine's tree")
        check("usbsat doctor: checked" in out and "PROBLEM" in out, "no USB: the doctor's findings")
        m = re.search(r"report page \(open it in a browser\): (\S+)", out)
        check(bool(m) and os.path.isfile(m.group(1)) and os.path.realpath(m.group(1)) == os.path.realpath(page),
              f"no USB: the report page's path, written: {m and m.group(1)}")
        if os.path.isfile(page):
            html = open(page, encoding="utf-8").read()
            check("<svg" in html and "sdc" in html, "no USB: the page has the picture and the drives")
        if os.path.exists(page):
            os.remove(page)
        p = run([with_fixture, os.path.join(fixtures, "asm1042-card"), "--", "bash", bootstrap, "main-job", usbsat],
                env=env)
        check(p.returncode == 0, f"USB: main-job exits 0 (got {p.returncode}; {p.stderr.strip()[-400:]})")
        check("sample" not in p.stdout.split("\n\n")[0] and "ASM1042" in p.stdout,
              "USB: this machine's own tree (the asm1042-card fixture), no sample")
        check(os.path.isfile(page), "USB: its report page")


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    step, src = sys.argv[1], sys.argv[2]
    if step == "targets":
        case_targets(src, sys.argv[3])
    elif step == "notice":
        case_notice(src, *sys.argv[3:6])
    elif step == "mainjob":
        case_mainjob(src, *sys.argv[3:6])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return finish("passed")


if __name__ == "__main__":
    sys.exit(main())
