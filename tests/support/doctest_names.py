#!/usr/bin/env python3
"""Guard for CTest's view of the doctest suites: every TEST_CASE name must survive `doctest_discover_tests`
as one CTest name whose `--test-case=` filter selects exactly that case.

    doctest_names.py BINARY...

Lists each BINARY's cases (`--list-test-cases`) and fails (exit 1) on
  - a name with `;` (CMake splits the registration in two, each with a filter that matches nothing, and doctest
    reports "test cases: 0" as a pass), `\\` (doctest's filter escape), `*` or `?` (doctest wildcards: the filter
    selects other cases too), `[` or `]` (CTest -R regex classes; doctestAddTests' bracket arguments);
    `,` is fine: doctestAddTests escapes it and doctest 2.4.9 honours the escape;
  - a name twice in one executable, compared case-insensitively as doctest's filters are;
  - a name in two executables: the CTest names collide (one `ctest -R` runs both, reports cannot tell them apart);
  - an executable that lists no test case at all.
Executables whose main() refuses to start outside the umockdev preload (topology_umockdev_test,
plan_fixture_test) only check that the variables are set; listing touches no sysfs, so they are listed with
UMOCKDEV_DIR pointing at an empty directory.
"""
import collections
import os
import subprocess
import sys
import tempfile

FORBIDDEN = set(";\\*?[]")


def list_cases(binary: str, env: dict) -> list[str]:
    p = subprocess.run([binary, "--list-test-cases", "--no-version"], capture_output=True, text=True, timeout=60,
                       env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{binary} --list-test-cases exited {p.returncode}: {p.stderr.strip() or p.stdout.strip()}")
    return [line for line in p.stdout.splitlines()
            if line.strip() and not line.startswith("[doctest] ") and line != "=" * 79]


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    problems = []
    owners = collections.defaultdict(list)   # name -> executables defining it
    with tempfile.TemporaryDirectory() as empty:
        env = dict(os.environ, UMOCKDEV_DIR=empty, LD_PRELOAD="libumockdev-preload.so.0")
        for binary in argv:
            exe = os.path.basename(binary)
            try:
                names = list_cases(binary, env)
            except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
                problems.append(str(e))
                continue
            if not names:
                problems.append(f"{exe}: lists no test case")
            folded = collections.defaultdict(list)
            for name in names:
                folded[name.casefold()].append(name)
            for same in folded.values():
                if len(same) > 1:
                    problems.append(f"{exe}: test case defined {len(same)} times (doctest filters ignore case): "
                                    + ", ".join(repr(n) for n in same))
            for name in dict.fromkeys(names):
                owners[name].append(exe)
                bad = sorted(set(name) & FORBIDDEN)
                if bad:
                    problems.append(f"{exe}: test case name has {' '.join(repr(c) for c in bad)} "
                                    f"(breaks CTest discovery or the --test-case filter): {name!r}")
    for name, exes in owners.items():
        if len(exes) > 1:
            problems.append(f"test case name {name!r} is in {' and '.join(exes)}: their CTest names collide")
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        return 1
    print(f"OK: {len(owners)} test case names in {len(argv)} executables: unique, none with "
          f"{' '.join(sorted(FORBIDDEN))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
