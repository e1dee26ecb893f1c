#!/usr/bin/env python3
"""Table test of phrase_check.py: each C++ snippet (as file `rel`) with the literals the check must flag, as
(line, literal). Exit 0 when every row matches, 1 otherwise."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from phrase_check import phrases  # noqa: E402
from table_test import report  # noqa: E402

CPP = "report/x.cpp"
ROWS = [
    ("a format field before MB/s", CPP, 'f(fmt::format("{:.0f} MB/s", v));\n', [(1, "{:.0f} MB/s")]),
    ("a number before MB/s", CPP, 's = "about 40 MB/s";\n', [(1, "about 40 MB/s")]),
    ("a unit appended to a number", CPP, 'x\n  + " MB/s each";\n', [(2, " MB/s each")]),
    ("a PCIe link's GT/s x", CPP, 'fmt::format("{:g} GT/s x{}", g, w);\n', [(1, "{:g} GT/s x{}")]),
    ("adjacent literals are one phrase", CPP, 'fmt::format("at {:.1f} "\n  "MB/s", v);\n',
     [(1, "at {:.1f} MB/s")]),
    ("a column header is no phrase", CPP, 'render_table({"drive", "MB/s", "demand MB/s"});\n', []),
    ("comments are not scanned", CPP, '// "{:.0f} MB/s"\n/* "5 GT/s x1" */ int a;\n', []),
    ("a raw string", CPP, 'f(R"(<title>{} MB/s</title>)");\n', [(1, "<title>{} MB/s</title>")]),
    ("a character literal holding a quote does not open a string", CPP, "c = '\"'; s = \"{} MB/s\";\n",
     [(1, "{} MB/s")]),
    ("an allowed literal with its reason", "report/chart_data.cpp", 'e("{} MB/s is not a rate", v);\n', []),
    ("the allowance is for its own file only", CPP, 'e("{} MB/s is not a rate", v);\n',
     [(1, "{} MB/s is not a rate")]),
]


def main():
    return report([(what, phrases(rel, code), want) for what, rel, code, want in ROWS])


if __name__ == "__main__":
    sys.exit(main())
