"""What every Python test script shares, one rule for all (golden.py holds the golden rule, table_test.py the end
of a table test):

  fail(msg)         record a failure and print it (FAIL: msg); the script goes on, to report everything
  check(ok, msg)    fail(msg) unless ok; returns ok; with `checks.verbose = True` a passed check prints "ok: msg"
  stop(msg)         fail(msg) and exit 1 at once: a failure after which the script cannot go on
  skip(reason)      print SKIP: reason and exit 77, CTest's SKIP_RETURN_CODE for a missing tool or preload
  finish(passed)    the end of a run: the number of failures and exit status 1, or `passed` and 0
  main_with(main, n, doc)  run main(*argv) with exactly n arguments, else print doc and exit 2

`failures` is the one list of them, shared by every module of a script that imports it.
"""
from __future__ import annotations

import sys
from typing import Callable

failures: list[str] = []
verbose = False


def fail(msg: str) -> None:
    failures.append(msg)
    print(f"FAIL: {msg}")


def check(ok: object, msg: str) -> bool:
    if not ok:
        fail(msg)
    elif verbose:
        print(f"ok: {msg}")
    return bool(ok)


def stop(msg: str) -> None:
    fail(msg)
    sys.exit(1)


def skip(reason: str) -> None:
    print(f"SKIP: {reason}")
    sys.exit(77)


def finish(passed: str = "ok") -> int:
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print(passed)
    return 0


def main_with(main: Callable[..., int], nargs: int, doc: str | None) -> None:
    if len(sys.argv) != nargs + 1:
        print(doc, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
