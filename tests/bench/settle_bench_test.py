#!/usr/bin/env python3
"""Table test of settle_bench.py's pure helpers: the interleaving of the two modes and the summary it prints
(ratio of median wall times, identical verdicts, plateau difference). Exit 0 when every row matches, 1
otherwise. Needs neither root nor a bed: nothing here runs usbsat."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import settle_bench  # noqa: E402
from table_test import report  # noqa: E402

FIXED = [(37.7, "saturated", 400.0, 0.07, "low"), (37.9, "saturated", 399.0, 0.07, "low"),
         (38.1, "saturated", 401.0, 0.07, "low")]
SETTLED = [(13.0, "saturated", 398.0, 0.03, "medium"), (14.0, "saturated", 400.0, 0.03, "medium"),
           (12.5, "saturated", 399.5, 0.03, "medium")]
S = settle_bench.summarise({"fixed": FIXED, "settled": SETTLED})
DIFFER = settle_bench.summarise({"fixed": FIXED, "settled": [(13.0, "unexplained", 300.0, 0.03, "medium")]})
MIXED = settle_bench.summarise({"fixed": FIXED[:1] + [(37.0, "no_contention", None, 0.07, "low")],
                                "settled": SETTLED})
NO_PLATEAU = settle_bench.summarise({"fixed": [(30.0, "no_contention", None, 0.07, "low")],
                                     "settled": [(10.0, "no_contention", None, 0.03, "medium")]})

ROWS = [
    ("pair 0 runs fixed first", settle_bench.order(0), ("fixed", "settled")),
    ("pair 1 runs settled first", settle_bench.order(1), ("settled", "fixed")),
    ("median wall times", S["wall_s"], {"fixed": 37.9, "settled": 13.0}),
    ("ratio of the medians", S["ratio"], round(13.0 / 37.9, 3)),
    ("same verdict in every run: identical", S["verdicts_identical"], True),
    ("plateau difference of the medians", S["plateau_difference"], round(abs(399.5 - 400.0) / 400.0, 4)),
    ("each mode's confidence", S["confidence"], {"fixed": ["low"], "settled": ["medium"]}),
    ("each mode's tolerance", S["tolerance"], {"fixed": [0.07], "settled": [0.03]}),
    ("another verdict: not identical", DIFFER["verdicts_identical"], False),
    ("fixed runs that disagree among themselves: not identical", MIXED["verdicts_identical"], False),
    ("no plateau in either mode: no difference", NO_PLATEAU["plateau_difference"], None),
    ("the line says when the ratio goal is met", "goal <= 0.4: ok" in settle_bench.verdict_line("card", S), True),
    ("and when a verdict differs", "DIFFER" in settle_bench.verdict_line("card", DIFFER), True),
]


def main():
    return report(ROWS)


if __name__ == "__main__":
    sys.exit(main())
