#!/usr/bin/env python3
"""Table test of fio_compare.py's pure helpers: the spread that decides whether a row settled, the sysfs bitmap
of one CPU that --place-cpus writes, and the parsing of --place-cpus itself. Exit 0 when every row matches, 1
otherwise. Needs neither root nor fio: nothing here runs a tool."""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import fio_compare  # noqa: E402
from table_test import report  # noqa: E402

ONLINE = sorted(os.sched_getaffinity(0))

SPREAD = [
    ("equal ratios have no spread", [1.0, 1.0, 1.0], 0.0),
    ("three pairs: the quartiles lie halfway to the extremes", [0.9, 1.0, 1.1], 0.05),
    ("one far pair of five moves the spread little", [1.0, 1.0, 1.0, 1.0, 3.0], 0.0),
    ("five spread pairs", [0.8, 0.9, 1.0, 1.1, 1.2], 0.1),
]

CPUMASK = [
    ("CPU 0", 0, "00000001"),
    ("CPU 1", 1, "00000002"),
    ("the last CPU of the first word", 31, "80000000"),
    ("the first CPU of the second word: words are comma-separated", 32, "00000001,00000000"),
    ("CPU 40", 40, "00000100,00000000"),
]

PLACE = [
    ("one CPU for both", f"{ONLINE[0]},{ONLINE[0]}", (ONLINE[0], ONLINE[0])),
    ("tools and workers apart", f"{ONLINE[0]},{ONLINE[-1]}", (ONLINE[0], ONLINE[-1])),
    ("one number is not two", "0", None),
    ("three numbers are not two", "0,0,0", None),
    ("not a number", "a,b", None),
    ("a CPU this script may not run on", f"0,{max(ONLINE) + 1}", None),
    ("a negative CPU", "-1,0", None),
]


def place_or_none(text):
    try:
        return fio_compare.parse_place(text)
    except argparse.ArgumentTypeError:
        return None


def main():
    return report([(what, round(fio_compare.spread(ratios), 9), want) for what, ratios, want in SPREAD] +
                  [(what, fio_compare.cpumask_text(cpu), want) for what, cpu, want in CPUMASK] +
                  [(what, place_or_none(text), want) for what, text, want in PLACE])


if __name__ == "__main__":
    sys.exit(main())
