"""The one golden rule of the Python end-to-end scripts (tests/support/golden.hpp is the C++ one).

check_golden(path, actual, fail): the output must equal the file byte for byte. UPDATE_GOLDEN=1 rewrites the file
instead, and is refused when CI is set (it would make every golden check pass). A missing file and a difference are
reported through the caller's `fail` with the first differing line and a unified diff.
"""
from __future__ import annotations

import difflib
import os
from typing import Callable


def running_in_ci() -> bool:
    """CI set and not empty/0/false: the same rule as the top CMakeLists.txt and tests/support/golden.hpp."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def check_golden(path: str, actual: str, fail: Callable[[str], None]) -> None:
    name = os.path.basename(path)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        if running_in_ci():
            fail(f"UPDATE_GOLDEN=1 is refused under CI (CI={os.environ['CI']}): it would rewrite {name} and pass")
            return
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(actual)
        print(f"updated {path}")
        return
    if not os.path.exists(path):
        fail(f"golden file {path} missing; run with UPDATE_GOLDEN=1")
        return
    with open(path, encoding="utf-8", newline="") as f:
        expected = f.read()
    if expected == actual:
        return
    exp, act = expected.splitlines(), actual.splitlines()
    line = next((i for i, (a, b) in enumerate(zip(exp, act)) if a != b), min(len(exp), len(act)))
    diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), path, "actual", n=2))
    fail(f"{name} differs from the golden at line {line + 1}:\n  expected: "
         f"{exp[line] if line < len(exp) else '<eof>'}\n  actual:   {act[line] if line < len(act) else '<eof>'}\n"
         f"{diff[:4000]}")
