#!/usr/bin/env python3
"""One home for the rate phrases (issue 40): no C++ source under src, topology, load and report outside the
wording home (topology/words/describe.*) builds an "MB/s" rate or a "GT/s x" PCIe link phrase itself.

    phrase_check.py ROOT

A phrase is built when a string literal (adjacent literals joined, comments skipped) holds
  - a number or a format field before "MB/s": "{:.0f} MB/s", "about 40 MB/s";
  - a unit to append to a number: a literal that starts with " MB/s";
  - a PCIe link's "GT/s x": "{:g} GT/s x{}".
A column header ("MB/s", "demand MB/s") is no phrase. Such phrases come from topology::mbs_text(),
topology::bandwidth_text() and topology::pcie_link_text(). ALLOWED lists the literals that may stay, each
with its reason. Exit 0 when no other literal builds one, 1 otherwise (each named with file and line).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from function_length import source_files  # noqa: E402  (the same files: src, topology, load, report)

HOME = ("topology/words/describe.cpp", "topology/words/describe.hpp")
PHRASE = re.compile(r"(\{[^{}]*\}|[0-9])\s*MB/s|^\s+MB/s|GT/s x")

# (file, regex a literal matches, reason)
ALLOWED = [
    ("topology/capacity/tables.cpp", r"(MB/s per lane|MB/s raw|MB/s measured|MB/s theoretical|= 1\.216 MB/s|~1 MB/s"
     r" measured|35-43 MB/s|MB/s raw\))",
     "the capacity tables' source notes: cited figures and their arithmetic, not phrases for users"),
    ("topology/capacity/drive_estimate.cpp", r".", "the drive tables' source notes: cited datasheet figures"),
    ("report/chart_data.cpp", r"is not a rate",
     "an input error quotes the document's raw JSON value (v.dump()), which is no number to format"),
    ("src/cli/cmd_saturate.cpp", r"400MB/s;", "usage text: how users type a rate (topology::parse_rate)"),
    ("src/analysis/common/group_spec.cpp", r"400MB/s;", "an input error: how users type a rate (parse_rate)"),
    ("report/saturate_report.cpp", r"^ MB/s$",
     "the progress line names the unit once after its labelled figures (\"| sdb 12.5 | total 25.0 MB/s\")"),
]


def literals(text):
    """(line, literal) for every string literal in `text`, comments and character literals skipped, adjacent
    literals (only whitespace or comments between them) joined into one."""
    out = []
    i, n, line = 0, len(text), 1
    pending = None  # the [line, text] a directly following literal joins
    while i < n:
        c = text[i]
        if c.isspace():
            line += c == "\n"
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
        elif c == '"' or (text.startswith('R"', i) and not (i > 0 and text[i - 1].isalnum())):
            if c == "R":
                open_paren = text.find("(", i + 2)
                delim = ")" + text[i + 2:open_paren] + '"'
                end = text.find(delim, open_paren)
                end = n if end < 0 else end
                value, j = text[open_paren + 1:end], end + len(delim)
            else:
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                value, j = text[i + 1:j], j + 1
            if pending is not None:
                pending[1] += value
            else:
                pending = [line, value]
                out.append(pending)
            line += text.count("\n", i, j)
            i = j
        else:
            if c == "'" and not (i > 0 and text[i - 1].isalnum()):  # a character literal, not a digit separator
                j = i + 1
                while j < n and text[j] != "'":
                    j += 2 if text[j] == "\\" else 1
                i = j
            i += 1
            pending = None
    return [(ln, value) for ln, value in out]


def phrases(rel, text):
    """(line, literal) of every literal in `text` (the file `rel`) that builds a rate or PCIe link phrase and
    is not allowed."""
    hits = []
    for line, value in literals(text):
        if not PHRASE.search(value):
            continue
        if any(rel == f and re.search(rx, value) for f, rx, _ in ALLOWED):
            continue
        hits.append((line, value))
    return hits


def main(argv):
    root = argv[1]
    bad = 0
    for path, rel in source_files(root):
        if rel in HOME:
            continue
        with open(path, encoding="utf-8") as f:
            for line, value in phrases(rel, f.read()):
                print(f'{rel}:{line}: builds a rate phrase itself: "{value}" (use topology/words/describe.hpp)')
                bad += 1
    if bad:
        print(f"phrase_check: {bad} literal(s) outside the wording home build MB/s or GT/s phrases")
        return 1
    print("phrase_check: every MB/s and GT/s x phrase comes from the wording home")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
